from django.urls import path

import log.tokens  # noqa: F401 — registers <entry:…>, a roll entry's opaque token
import sheets.converters  # noqa: F401 — registers <id:…>
from rolls.keys import views as key_views
from rolls.log import exports
from rolls.log import views as log_views
from rolls.messages import views as message_views
from rolls.rolling import assist_views
from rolls.rolling import views as roll_views
from rolls.seen import views as seen_views
from rolls.sessions import views as session_views
from rolls.table import contest_views, prompts
from rolls.table import views as table_views
from rolls.webhooks import views as webhook_views

urlpatterns = [
    # The roll first: the hottest path (config/urls.py says why the order matters).
    path(
        "characters/<id:pk>/roll/<slug:kind>/<id:target_pk>/roll/",
        roll_views.roll_create,
        name="roll_create",
    ),
    path(
        "characters/<id:pk>/roll/<slug:kind>/<id:target_pk>/",
        roll_views.roll_panel,
        name="roll_panel",
    ),
    path(
        "characters/<id:pk>/roll/<slug:kind>/<id:target_pk>/odds/",
        roll_views.roll_odds,
        name="roll_odds",
    ),
    # Entries go by token, not pk: the pks' gaps would count hidden rolls (log/tokens.py).
    path("rolls/<entry:pk>/", roll_views.roll_entry, name="roll_entry"),
    path("rolls/<entry:pk>/reveal/", roll_views.roll_reveal, name="roll_reveal"),
    path("rolls/<entry:pk>/drop-assist/", assist_views.assist_drop, name="assist_drop"),
    path("characters/<id:pk>/ask-assist/", assist_views.assist_ask, name="assist_ask"),
    path("characters/<id:pk>/assist/<id:ask_pk>/", assist_views.assist_offer, name="assist_offer"),
    # Before the follow-ups' pattern, which would take "amend" for an action's name.
    path("rolls/<entry:pk>/amend/", message_views.message_correct, name="message_correct"),
    path("rolls/<entry:pk>/<slug:action>/", roll_views.roll_follow_up, name="roll_follow_up"),
    path("campaigns/<id:pk>/log/", log_views.campaign_log, name="campaign_log"),
    path("campaigns/<id:pk>/messages/", message_views.message_post, name="message_post"),
]

# The server's public keys and the standalone verifier (docs/verifiable-dice.md): for anyone.
urlpatterns += [
    path("keys/", key_views.keys_page, name="keys"),
    path("keys.json", key_views.keys_json, name="keys_json"),
    path("keys/poolside_verify.py", key_views.verifier, name="verifier"),
]

# Log tools (workstream T): exports and statistics.
urlpatterns += [
    path("campaigns/<id:pk>/log/export.csv", exports.campaign_log_csv, name="campaign_log_csv"),
    path("campaigns/<id:pk>/log/export.json", exports.campaign_log_json, name="campaign_log_json"),
    # A member's signed view of the log (docs/verifiable-dice.md#your-view-of-the-log).
    path("campaigns/<id:pk>/log/view/", seen_views.seen_head, name="seen_head"),
    path("campaigns/<id:pk>/log/view.json", seen_views.seen_export, name="seen_export"),
    path("campaigns/<id:pk>/stats/", log_views.campaign_stats, name="campaign_stats"),
    path("characters/<id:pk>/stats/", log_views.character_stats, name="character_stats"),
    # L — live updates: the stream, campaign_events, is routed first of all in config/urls.py
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
    path(
        "campaigns/<id:pk>/refresh/",
        table_views.resources_refresh,
        name="resources_refresh",
    ),
    path("characters/<id:pk>/prompts/", prompts.character_prompts, name="character_prompts"),
    path("characters/<id:pk>/table-card/", table_views.table_character, name="table_character"),
    path("characters/<id:pk>/table-roll/", table_views.table_roll, name="table_roll"),
    path("campaigns/<id:pk>/calls/", table_views.call_create, name="call_create"),
    path("campaigns/<id:pk>/session/", session_views.session_bar_part, name="session_bar"),
    path("campaigns/<id:pk>/session/start/", session_views.session_start, name="session_start"),
    path("campaigns/<id:pk>/session/scene/", session_views.session_scene, name="session_scene"),
    path("campaigns/<id:pk>/session/end/", session_views.session_end, name="session_end"),
    path(
        "campaigns/<id:pk>/sessions/<id:number>/recap.md",
        session_views.session_recap,
        name="session_recap",
    ),
    path(
        "campaigns/<id:pk>/sessions/<id:number>/recap/post/",
        session_views.session_recap_post,
        name="session_recap_post",
    ),
    path("calls/<id:pk>/close/", table_views.call_close, name="call_close"),
    path("campaigns/<id:pk>/contests/", table_views.contest_create, name="contest_create"),
    path("campaigns/<id:pk>/assists/", table_views.assist_start, name="assist_start"),
    path(
        "contests/<id:pk>/<slug:side>/<slug:action>/",
        contest_views.contest_side,
        name="contest_side",
    ),
    path("contests/<id:pk>/choose/", contest_views.contest_choose, name="contest_choose"),
    path("contests/<id:pk>/cancel/", contest_views.contest_cancel, name="contest_cancel"),
]

# Outgoing webhooks (the GM's page: rolls/webhooks/)
urlpatterns += [
    path("campaigns/<id:pk>/webhooks/", webhook_views.campaign_webhooks, name="campaign_webhooks"),
    path(
        "campaigns/<id:pk>/webhooks/fingerprint/",
        webhook_views.webhook_witness,
        name="webhook_witness",
    ),
    path(
        "campaigns/<id:pk>/webhooks/<id:webhook_pk>/delete/",
        webhook_views.webhook_delete,
        name="webhook_delete",
    ),
    path(
        "campaigns/<id:pk>/webhooks/<id:webhook_pk>/<slug:action>/",
        webhook_views.webhook_action,
        name="webhook_action",
    ),
]
