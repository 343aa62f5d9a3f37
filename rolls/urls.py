from django.urls import path

from rolls import live_views, log_tools, views

urlpatterns = [
    path(
        "characters/<int:pk>/roll/<slug:kind>/<int:target_pk>/",
        views.roll_panel,
        name="roll_panel",
    ),
    path(
        "characters/<int:pk>/roll/<slug:kind>/<int:target_pk>/odds/",
        views.roll_odds,
        name="roll_odds",
    ),
    path(
        "characters/<int:pk>/roll/<slug:kind>/<int:target_pk>/roll/",
        views.roll_create,
        name="roll_create",
    ),
    path("rolls/<int:pk>/", views.roll_entry, name="roll_entry"),
    path("rolls/<int:pk>/reveal/", views.roll_reveal, name="roll_reveal"),
    path("rolls/<int:pk>/<slug:action>/", views.roll_follow_up, name="roll_follow_up"),
    path("campaigns/<int:pk>/log/", log_tools.campaign_log, name="campaign_log"),
]

# Log tools (workstream T): exports and statistics.
urlpatterns += [
    path("campaigns/<int:pk>/log/export.csv", log_tools.campaign_log_csv, name="campaign_log_csv"),
    path(
        "campaigns/<int:pk>/log/export.json", log_tools.campaign_log_json, name="campaign_log_json"
    ),
    path("campaigns/<int:pk>/stats/", log_tools.campaign_stats, name="campaign_stats"),
    path("characters/<int:pk>/stats/", log_tools.character_stats, name="character_stats"),
    # L — live updates
    path("campaigns/<int:pk>/events/", live_views.campaign_events, name="campaign_events"),
]
