from django.urls import path

import sheets.converters  # noqa: F401 — registers <id:…>
from sheets import views

urlpatterns = [
    path("", views.home, name="home"),
    path("accounts/signup/", views.signup, name="signup"),
    # Campaigns, members and invites
    path("campaigns/new/", views.campaign_create, name="campaign_create"),
    path("campaigns/<id:pk>/", views.campaign_detail, name="campaign_detail"),
    path("campaigns/<id:pk>/edit/", views.campaign_edit, name="campaign_edit"),
    path("campaigns/<id:pk>/leave/", views.campaign_leave, name="campaign_leave"),
    path(
        "campaigns/<id:pk>/members/<id:member_pk>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path(
        "campaigns/<id:pk>/members/<id:member_pk>/make-gm/",
        views.member_make_gm,
        name="member_make_gm",
    ),
    path("campaigns/<id:pk>/invites/", views.invite_create, name="invite_create"),
    path(
        "campaigns/<id:pk>/invites/<id:invite_pk>/revoke/",
        views.invite_revoke,
        name="invite_revoke",
    ),
    path("invite/<str:token>/", views.invite_accept, name="invite_accept"),
    path("campaigns/<id:pk>/skills/", views.campaign_skills, name="campaign_skills"),
    # Characters
    path("campaigns/<id:pk>/characters/new/", views.character_create, name="character_create"),
    path("campaigns/<id:pk>/characters/import/", views.character_import, name="character_import"),
    path("characters/<id:pk>/", views.character_detail, name="character_detail"),
    path("characters/<id:pk>/export.json", views.character_export, name="character_export"),
    path("characters/<id:pk>/delete/", views.character_delete, name="character_delete"),
    path("characters/<id:pk>/basics/", views.character_basics, name="character_basics"),
    path("characters/<id:pk>/sheet/", views.sheet_update, name="sheet_update"),
    # Cogent
    path(
        "characters/<id:pk>/cogent/skills/<id:skill_pk>/",
        views.cogent_skill_update,
        name="cogent_skill_update",
    ),
    path("characters/<id:pk>/cogent/injuries/", views.cogent_injury_add, name="cogent_injury_add"),
    path(
        "characters/<id:pk>/cogent/injuries/<id:injury_pk>/delete/",
        views.cogent_injury_delete,
        name="cogent_injury_delete",
    ),
    path(
        "characters/<id:pk>/cogent/disabilities/",
        views.cogent_disability_add,
        name="cogent_disability_add",
    ),
    path(
        "characters/<id:pk>/cogent/disabilities/<id:disability_pk>/delete/",
        views.cogent_disability_delete,
        name="cogent_disability_delete",
    ),
    path(
        "characters/<id:pk>/cogent/vocations/",
        views.cogent_vocation_add,
        name="cogent_vocation_add",
    ),
    path(
        "characters/<id:pk>/cogent/vocations/<id:vocation_pk>/",
        views.cogent_vocation_update,
        name="cogent_vocation_update",
    ),
    path(
        "characters/<id:pk>/cogent/vocations/<id:vocation_pk>/delete/",
        views.cogent_vocation_delete,
        name="cogent_vocation_delete",
    ),
    path(
        "characters/<id:pk>/cogent/vocations/<id:vocation_pk>/subskills/",
        views.cogent_subskill_add,
        name="cogent_subskill_add",
    ),
    path(
        "characters/<id:pk>/cogent/subskills/<id:subskill_pk>/",
        views.cogent_subskill_update,
        name="cogent_subskill_update",
    ),
    path(
        "characters/<id:pk>/cogent/subskills/<id:subskill_pk>/delete/",
        views.cogent_subskill_delete,
        name="cogent_subskill_delete",
    ),
    # DAD6
    path("characters/<id:pk>/dad6/skills/", views.dad6_skill_add, name="dad6_skill_add"),
    path(
        "characters/<id:pk>/dad6/skills/<id:skill_pk>/",
        views.dad6_skill_update,
        name="dad6_skill_update",
    ),
    path(
        "characters/<id:pk>/dad6/skills/<id:skill_pk>/delete/",
        views.dad6_skill_delete,
        name="dad6_skill_delete",
    ),
    path(
        "characters/<id:pk>/dad6/banes/<id:bane_pk>/delete/",
        views.dad6_bane_delete,
        name="dad6_bane_delete",
    ),
    # Cold Stars
    path(
        "characters/<id:pk>/cold-stars/skills/<id:skill_pk>/",
        views.cold_stars_skill_update,
        name="cold_stars_skill_update",
    ),
    path(
        "characters/<id:pk>/cold-stars/skills/<id:skill_pk>/domains/",
        views.cold_stars_domain_add,
        name="cold_stars_domain_add",
    ),
    path(
        "characters/<id:pk>/cold-stars/domains/<id:domain_pk>/delete/",
        views.cold_stars_domain_delete,
        name="cold_stars_domain_delete",
    ),
]
