from django.urls import path

from rolls import live_views, views

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
    path("campaigns/<int:pk>/log/", views.campaign_log, name="campaign_log"),
    # L — live updates
    path("campaigns/<int:pk>/events/", live_views.campaign_events, name="campaign_events"),
]
