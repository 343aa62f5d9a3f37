from django.apps import AppConfig


class DiscordConfig(AppConfig):
    """Discord's HTTP interactions endpoint (docs/discord.md). Its own label and migrations, so
    its tables never share a migration history with the rolls or sheets apps."""

    name = "discord"
    label = "discord"
    verbose_name = "Discord"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from discord import checks  # noqa: F401 — registers the settings' checks
