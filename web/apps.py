from django.apps import AppConfig
from django.db.backends.signals import connection_created


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Web helpers"

    def ready(self) -> None:
        from web import checks  # noqa: F401 — registers the deployment checks
        from web.database import heal_stale_plans

        # Every database connection, as it opens (PostgreSQL's prepared statements only).
        connection_created.connect(heal_stale_plans, dispatch_uid="poolside_heal_stale_plans")
