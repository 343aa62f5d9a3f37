from django.contrib import admin

from sheets.models import (
    Campaign,
    CampaignSkill,
    Character,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    CogentVocation,
    ColdStarsDomain,
    ColdStarsSheet,
    ColdStarsSkill,
    Dad6Sheet,
    Dad6Skill,
    Invite,
    Membership,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "system", "created_at"]
    list_filter = ["system", "created_at"]
    search_fields = ["name", "description", "memberships__user__username"]
    date_hierarchy = "created_at"
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "role", "joined_at"]
    list_filter = ["role", "campaign__system"]
    search_fields = ["user__username", "campaign__name"]
    list_select_related = ["user", "campaign"]
    autocomplete_fields = ["user", "campaign"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = [
        "campaign",
        "role",
        "created_by",
        "created_at",
        "expires_at",
        "max_uses",
        "use_count",
        "revoked_at",
    ]
    list_filter = ["role", "created_at", "expires_at", "revoked_at"]
    search_fields = ["campaign__name", "created_by__username"]
    list_select_related = ["campaign", "created_by"]
    readonly_fields = ["token", "use_count", "created_at"]
    autocomplete_fields = ["campaign"]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "owner", "is_npc", "hidden_from_players", "updated_at"]
    list_filter = ["is_npc", "hidden_from_players", "campaign__system"]
    search_fields = ["name", "notes", "owner__username", "campaign__name"]
    list_select_related = ["campaign", "owner"]
    autocomplete_fields = ["campaign", "owner"]


class CogentSkillInline(admin.TabularInline):
    model = CogentSkill
    extra = 0


class CogentVocationInline(admin.TabularInline):
    model = CogentVocation
    extra = 0
    show_change_link = True


@admin.register(CogentSheet)
class CogentSheetAdmin(admin.ModelAdmin):
    list_display = [
        "character",
        "strength",
        "reflex",
        "intelligence",
        "destiny_points",
        "injury_dice",
        "penalty_dice",
    ]
    list_filter = ["destiny_points"]
    search_fields = ["character__name", "character__campaign__name"]
    list_select_related = ["character"]
    inlines = [CogentSkillInline, CogentVocationInline]


@admin.register(CogentSkill)
class CogentSkillAdmin(admin.ModelAdmin):
    list_display = ["name", "sheet", "attribute", "rating"]
    list_filter = ["attribute", "rating"]
    search_fields = ["name", "sheet__character__name"]
    list_select_related = ["sheet__character"]


class CogentSubSkillInline(admin.TabularInline):
    model = CogentSubSkill
    extra = 0


@admin.register(CogentVocation)
class CogentVocationAdmin(admin.ModelAdmin):
    list_display = ["name", "sheet", "attribute", "rating"]
    list_filter = ["attribute", "rating"]
    search_fields = ["name", "sheet__character__name"]
    list_select_related = ["sheet__character"]
    inlines = [CogentSubSkillInline]


@admin.register(CogentSubSkill)
class CogentSubSkillAdmin(admin.ModelAdmin):
    list_display = ["name", "vocation", "kind", "attribute", "rating", "slot"]
    list_filter = ["kind", "attribute", "rating"]
    search_fields = ["name", "vocation__name", "vocation__sheet__character__name"]
    list_select_related = ["vocation"]


class Dad6SkillInline(admin.TabularInline):
    model = Dad6Skill
    extra = 0


@admin.register(Dad6Sheet)
class Dad6SheetAdmin(admin.ModelAdmin):
    list_display = ["character", "class_name", "level"]
    list_filter = ["level"]
    search_fields = ["character__name", "class_name"]
    list_select_related = ["character"]
    inlines = [Dad6SkillInline]


@admin.register(Dad6Skill)
class Dad6SkillAdmin(admin.ModelAdmin):
    list_display = ["name", "sheet", "is_class_skill", "competence"]
    list_filter = ["is_class_skill", "competence"]
    search_fields = ["name", "sheet__character__name"]
    list_select_related = ["sheet__character"]


class ColdStarsSkillInline(admin.TabularInline):
    model = ColdStarsSkill
    extra = 0
    fields = ["name", "group", "ability", "is_domain", "trained", "rating"]
    readonly_fields = ["name", "group", "is_domain"]
    show_change_link = True


@admin.register(ColdStarsSheet)
class ColdStarsSheetAdmin(admin.ModelAdmin):
    list_display = [
        "character",
        "strength",
        "agility",
        "intellect",
        "presence",
        "perception",
        "will",
        "momentum",
        "willpower",
    ]
    search_fields = ["character__name", "character__campaign__name"]
    list_select_related = ["character"]
    inlines = [ColdStarsSkillInline]


class ColdStarsDomainInline(admin.TabularInline):
    model = ColdStarsDomain
    extra = 0


@admin.register(ColdStarsSkill)
class ColdStarsSkillAdmin(admin.ModelAdmin):
    list_display = ["name", "sheet", "group", "ability", "is_domain", "trained", "rating"]
    list_filter = ["group", "ability", "is_domain", "trained", "rating"]
    search_fields = ["name", "sheet__character__name"]
    list_select_related = ["sheet__character"]
    inlines = [ColdStarsDomainInline]


@admin.register(ColdStarsDomain)
class ColdStarsDomainAdmin(admin.ModelAdmin):
    list_display = ["name", "skill"]
    search_fields = ["name", "skill__name", "skill__sheet__character__name"]
    list_select_related = ["skill"]


@admin.register(CampaignSkill)
class CampaignSkillAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "group", "ability", "is_domain"]
    list_filter = ["ability", "is_domain", "group"]
    search_fields = ["name", "campaign__name"]
    list_select_related = ["campaign"]
