from django.urls import path

import rolls.log.tokens  # noqa: F401 — registers <entry:…>, a roll entry's opaque token
import sheets.converters  # noqa: F401 — registers <id:…>
from rolls.live import stream as live_views
from rolls.log import views as log_tools
from rolls.rolling import views
from rolls.table import views as table_views

urlpatterns = [
    path(
        "characters/<id:pk>/roll/<slug:kind>/<id:target_pk>/",
        views.roll_panel,
        name="roll_panel",
    ),
    path(
        "characters/<id:pk>/roll/<slug:kind>/<id:target_pk>/odds/",
        views.roll_odds,
        name="roll_odds",
    ),
    path(
        "characters/<id:pk>/roll/<slug:kind>/<id:target_pk>/roll/",
        views.roll_create,
        name="roll_create",
    ),
    # Entries go by token, not pk: the pks' gaps would count hidden rolls (rolls/log/tokens.py).
    path("rolls/<entry:pk>/", views.roll_entry, name="roll_entry"),
    path("rolls/<entry:pk>/reveal/", views.roll_reveal, name="roll_reveal"),
    path("rolls/<entry:pk>/drop-assist/", views.assist_drop, name="assist_drop"),
    path("characters/<id:pk>/ask-assist/", views.assist_ask, name="assist_ask"),
    path("characters/<id:pk>/assist/<id:ask_pk>/", views.assist_offer, name="assist_offer"),
    path("rolls/<entry:pk>/<slug:action>/", views.roll_follow_up, name="roll_follow_up"),
    path("campaigns/<id:pk>/log/", log_tools.campaign_log, name="campaign_log"),
]

# Log tools (workstream T): exports and statistics.
urlpatterns += [
    path("campaigns/<id:pk>/log/export.csv", log_tools.campaign_log_csv, name="campaign_log_csv"),
    path(
        "campaigns/<id:pk>/log/export.json", log_tools.campaign_log_json, name="campaign_log_json"
    ),
    path("campaigns/<id:pk>/stats/", log_tools.campaign_stats, name="campaign_stats"),
    path("characters/<id:pk>/stats/", log_tools.character_stats, name="character_stats"),
    # L — live updates
    path("campaigns/<id:pk>/events/", live_views.campaign_events, name="campaign_events"),
]

# The GM table (workstream G)
urlpatterns += [
    path(
        "campaigns/<id:pk>/dashboard/",
        table_views.campaign_dashboard,
        name="campaign_dashboard",
    ),
    path(
        "characters/<id:pk>/resources/",
        table_views.character_resources,
        name="character_resources",
    ),
    path("characters/<id:pk>/prompts/", table_views.character_prompts, name="character_prompts"),
    path("campaigns/<id:pk>/calls/", table_views.call_create, name="call_create"),
    path("calls/<id:pk>/close/", table_views.call_close, name="call_close"),
    path("campaigns/<id:pk>/contests/", table_views.contest_create, name="contest_create"),
    path("campaigns/<id:pk>/assists/", table_views.assist_start, name="assist_start"),
    path(
        "contests/<id:pk>/<slug:side>/<slug:action>/",
        table_views.contest_side,
        name="contest_side",
    ),
    path("contests/<id:pk>/choose/", table_views.contest_choose, name="contest_choose"),
    path("contests/<id:pk>/cancel/", table_views.contest_cancel, name="contest_cancel"),
]
