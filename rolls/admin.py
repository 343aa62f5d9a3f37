from django.contrib import admin
from django.http import HttpRequest

from rolls.models import Contest, RollCall, RollCallTarget


class _ViewOnly(admin.ModelAdmin):
    """Calls and contests are driven by the GM table and linked from log entries; the admin shows
    them for support but never edits them behind the table's back."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object | None = None) -> bool:
        return False


class RollCallTargetInline(admin.TabularInline):
    model = RollCallTarget
    extra = 0
    fields = ["character"]
    readonly_fields = ["character"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object | None = None) -> bool:
        return False


@admin.register(RollCall)
class RollCallAdmin(_ViewOnly):
    list_display = ["skill", "campaign", "difficulty", "created_by", "created_at", "closed_at"]
    list_filter = ["campaign__system", "closed_at"]
    search_fields = ["skill", "note", "campaign__name"]
    list_select_related = ["campaign", "created_by"]
    date_hierarchy = "created_at"
    inlines = [RollCallTargetInline]


@admin.register(Contest)
class ContestAdmin(_ViewOnly):
    list_display = ["campaign", "kind", "name_a", "name_b", "state", "created_at"]
    list_filter = ["kind", "state", "campaign__system"]
    search_fields = ["name_a", "name_b", "skill_a", "skill_b", "campaign__name"]
    list_select_related = ["campaign"]
    date_hierarchy = "created_at"
