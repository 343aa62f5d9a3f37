from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = "Rolls"

    def ready(self) -> None:
        from live import checks  # noqa: F401 — registers the live transport's checks
        from rolls.live import signals

        signals.connect()  # a logout, a password change, a deactivation end open streams

        from log.models.chain import webhook_entry_committed
        from rolls.webhooks.delivery import entry_committed

        # A committed roll in a campaign with an active webhook queues its deliveries.
        webhook_entry_committed.connect(entry_committed, dispatch_uid="poolside_webhooks")
