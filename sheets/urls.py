from django.urls import path

import sheets.converters  # noqa: F401 — registers <id:…>
from sheets import views
from sheets.rows import row_urls

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
    # Sheet rows (sheets/rows.py): one view, one line per kind of row
    *row_urls(views.sheet_row),
]
