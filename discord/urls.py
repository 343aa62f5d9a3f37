from django.urls import path

from discord import views

urlpatterns = [
    path("discord/interactions/", views.interactions, name="discord_interactions"),
    path("discord/link/<str:code>/", views.link, name="discord_link"),
    path("discord/unlink/", views.unlink, name="discord_unlink"),
]
