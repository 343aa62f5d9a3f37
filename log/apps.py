from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _record_signing_key(sender: AppConfig, using: str = "default", **kwargs: object) -> None:
    """Every ``migrate`` publishes the server's current key (docs/verifiable-dice.md): a
    deployment migrates as it starts, so a new key is recorded before it signs."""
    from log.models.keys import record_key, server_key

    record_key(server_key(), using)


class LogConfig(AppConfig):
    """The log (docs/roll-log.md): every entry of a campaign's chain, whatever its kind, the chain's
    head and signing keys, members' signed views and the statistics' trial rows. Its tables keep
    the names they had when the models were the rolls app's, so moving them moved no data."""

    name = "log"
    label = "log"
    verbose_name = "Log"

    def ready(self) -> None:
        from django.conf import settings
        from django.utils.module_loading import import_string

        from log.models.kinds import register_kind

        # Before anything reads the kinds: migration log.0002 makes the database accept these.
        for path in settings.LOG_KINDS:
            register_kind(import_string(path))
        post_migrate.connect(_record_signing_key, sender=self, dispatch_uid="poolside_signing_key")
