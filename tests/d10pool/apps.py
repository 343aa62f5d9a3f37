from django.apps import AppConfig


class D10PoolConfig(AppConfig):
    name = "tests.d10pool"
    label = "d10pool"
    verbose_name = "D10 Pool (a test-only rule system)"
    default_auto_field = "django.db.models.BigAutoField"
