"""`manage.py check` says which Discord settings are missing or malformed (docs/discord.md):
Discord is optional, so none set is fine; some but not all set is a half-made setup."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import CheckMessage, Error, Warning, register

from discord.signature import public_key_problem

SETTINGS = ("DISCORD_APPLICATION_ID", "DISCORD_PUBLIC_KEY", "DISCORD_BOT_TOKEN")


@register()
def discord_settings_check(app_configs: object = None, **kwargs: object) -> list[CheckMessage]:
    given = [name for name in SETTINGS if getattr(settings, name)]
    if not given:
        return []
    found: list[CheckMessage] = []
    missing = [name for name in SETTINGS if name not in given]
    if missing:
        found.append(
            Warning(
                f"Discord is half set up: {', '.join(missing)} not set.",
                hint="Set all three from the application's page in Discord's developer portal "
                "(docs/discord.md), or none.",
                id="discord.W001",
            )
        )
    if settings.DISCORD_PUBLIC_KEY and (problem := public_key_problem(settings.DISCORD_PUBLIC_KEY)):
        found.append(
            Error(
                f"DISCORD_PUBLIC_KEY {problem}",
                hint="Copy the application's Public Key (64 hex digits) from Discord's developer "
                "portal.",
                id="discord.E001",
            )
        )
    return found
