from django.urls import path

import sheets.converters  # noqa: F401 — registers <id:…>
from sheets.rows import row_urls
from sheets.views import accounts, campaigns, characters, portraits

urlpatterns = [
    path("", accounts.home, name="home"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/demo/", accounts.demo_login, name="demo_login"),
    path("account/", accounts.account, name="account"),
    path("account/tokens/<id:pk>/revoke/", accounts.token_revoke, name="token_revoke"),
    # Campaigns, members and invites
    path("campaigns/new/", campaigns.campaign_create, name="campaign_create"),
    path("campaigns/<id:pk>/", campaigns.campaign_detail, name="campaign_detail"),
    path("campaigns/<id:pk>/edit/", campaigns.campaign_edit, name="campaign_edit"),
    path("campaigns/<id:pk>/leave/", campaigns.campaign_leave, name="campaign_leave"),
    path(
        "campaigns/<id:pk>/members/<id:member_pk>/remove/",
        campaigns.member_remove,
        name="member_remove",
    ),
    path(
        "campaigns/<id:pk>/members/<id:member_pk>/make-gm/",
        campaigns.member_make_gm,
        name="member_make_gm",
    ),
    path("campaigns/<id:pk>/invites/", campaigns.invite_create, name="invite_create"),
    path(
        "campaigns/<id:pk>/invites/<id:invite_pk>/revoke/",
        campaigns.invite_revoke,
        name="invite_revoke",
    ),
    path("invite/<str:token>/", campaigns.invite_accept, name="invite_accept"),
    path("campaigns/<id:pk>/skills/", campaigns.campaign_skills, name="campaign_skills"),
    # Characters
    path("campaigns/<id:pk>/characters/new/", characters.character_create, name="character_create"),
    path(
        "campaigns/<id:pk>/characters/import/", characters.character_import, name="character_import"
    ),
    path("characters/<id:pk>/", characters.character_detail, name="character_detail"),
    path("characters/<id:pk>/export.json", characters.character_export, name="character_export"),
    path("characters/<id:pk>/delete/", characters.character_delete, name="character_delete"),
    path("characters/<id:pk>/basics/", characters.character_basics, name="character_basics"),
    path("characters/<id:pk>/portrait/", portraits.character_portrait, name="character_portrait"),
    path(
        "characters/<id:pk>/portrait/<slug:version>/<slug:size>.webp",
        portraits.character_portrait_file,
        name="character_portrait_file",
    ),
    path(
        "portraits/<str:token>/avatar.webp",
        portraits.portrait_avatar,
        name="portrait_avatar",
    ),
    path(
        "characters/<id:pk>/sections/<slug:section>/",
        characters.sheet_section,
        name="sheet_section",
    ),
    # Sheet rows (sheets/rows.py): one view, one line per kind of row
    *row_urls(characters.sheet_row),
]
