from django.contrib import admin
from django.http import HttpRequest

from log.models import RollEntry


@admin.register(RollEntry)
class RollEntryAdmin(admin.ModelAdmin):
    """Read-only: the log is append-only, so the admin can look but never add, change or delete."""

    list_display = [
        "seq",
        "campaign",
        "character_name",
        "username",
        "label",
        "kind",
        "outcome_label",
    ]
    list_filter = ["system", "kind", "outcome"]
    search_fields = ["campaign__name", "character_name", "username", "label"]
    list_select_related = ["campaign"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RollEntry | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: RollEntry | None = None) -> bool:
        return False
