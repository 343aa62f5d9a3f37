from django.apps import AppConfig
from django.conf import settings
from django.utils.module_loading import import_string


class SheetsConfig(AppConfig):
    name = "sheets"
    verbose_name = "Campaigns and character sheets"

    def ready(self) -> None:
        from django.db.models.signals import post_delete

        from sheets.models import Character
        from sheets.portraits import forget_deleted
        from sheets.systems import register

        # A deleted character's portrait files go with it, after commit (sheets/portraits.py).
        post_delete.connect(forget_deleted, sender=Character, dispatch_uid="portrait_files")

        # The rule systems, once every model is loaded: a system's module imports its forms,
        # which import the models (sheets/systems/__init__.py).
        for path in settings.RULE_SYSTEMS:
            register(import_string(path)())
