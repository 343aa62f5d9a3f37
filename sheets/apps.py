from django.apps import AppConfig
from django.conf import settings
from django.db.backends.signals import connection_created
from django.utils.module_loading import import_string


class SheetsConfig(AppConfig):
    name = "sheets"
    verbose_name = "Campaigns and character sheets"

    def ready(self) -> None:
        from config import checks  # noqa: F401 — registers the deployment checks
        from config.database import heal_stale_plans
        from sheets.registry import register

        # The rule systems, once every model is loaded: a system's module imports its forms,
        # which import the models (sheets/registry.py).
        for path in settings.RULE_SYSTEMS:
            register(import_string(path)())

        # Every database connection, as it opens (PostgreSQL's prepared statements only).
        connection_created.connect(heal_stale_plans, dispatch_uid="poolside_heal_stale_plans")
