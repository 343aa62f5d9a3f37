from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _record_signing_key(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    """Every ``migrate`` publishes the server's current key (docs/verifiable-dice.md): a
    deployment migrates as it starts, so a new key is recorded before it signs."""
    from rolls.models.keys import record_key, server_key

    record_key(server_key(), using)


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = "Rolls"

    def ready(self) -> None:
        from django.conf import settings
        from django.utils.module_loading import import_string

        from rolls.models.kinds import register_kind

        # Before anything reads the kinds: migration 0030 makes the database accept these.
        for path in settings.LOG_KINDS:
            register_kind(import_string(path))

        from rolls.live import (
            checks,  # noqa: F401 — registers the live transport's checks
            signals,
        )

        signals.connect()  # a logout, a password change, a deactivation end open streams

        from rolls.models.log import webhook_entry_committed
        from rolls.webhooks.delivery import entry_committed

        # A committed roll in a campaign with an active webhook queues its deliveries.
        webhook_entry_committed.connect(entry_committed, dispatch_uid="poolside_webhooks")
        post_migrate.connect(_record_signing_key, sender=self, dispatch_uid="poolside_signing_key")
