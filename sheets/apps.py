from django.apps import AppConfig
from django.conf import settings
from django.utils.module_loading import import_string


class SheetsConfig(AppConfig):
    name = "sheets"
    verbose_name = "Campaigns and character sheets"

    def ready(self) -> None:
        from sheets.registry import register

        # The rule systems, once every model is loaded: a system's module imports its forms,
        # which import the models (sheets/registry.py).
        for path in settings.RULE_SYSTEMS:
            register(import_string(path)())
