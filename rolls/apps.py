from django.apps import AppConfig


class RollsConfig(AppConfig):
    name = "rolls"
    verbose_name = "Rolls"

    def ready(self) -> None:
        from rolls.live import (
            checks,  # noqa: F401 — registers the live transport's checks
            signals,
        )

        signals.connect()  # a logout, a password change, a deactivation end open streams
