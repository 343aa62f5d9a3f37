"""System checks for the live transport (`manage.py check` and every server start): a typo in
LIVE_BACKEND or LIVE_CHANNEL_PREFIX, or NOTIFY on a database that has none, must stop the server
rather than leave every page quietly without live updates."""

from django.conf import settings
from django.core.checks import CheckMessage, Error, register
from django.db import connection

from live import BACKENDS, POSTGRES, channel_prefix


@register()
def live_backend_check(app_configs: object = None, **kwargs: object) -> list[CheckMessage]:
    chosen = settings.LIVE_BACKEND
    try:
        channel_prefix()
    except ValueError as error:
        return [Error(str(error), id="rolls.E003")]
    if chosen and chosen not in BACKENDS:
        return [
            Error(
                f"LIVE_BACKEND={chosen!r} is not a live transport.",
                hint=f"Use one of {', '.join(BACKENDS)}, or leave it empty to choose by database.",
                id="rolls.E001",
            )
        ]
    if chosen == POSTGRES and connection.vendor != "postgresql":
        return [
            Error(
                "LIVE_BACKEND=postgres needs PostgreSQL (NOTIFY/LISTEN).",
                hint="Use redis or memory with this database, or leave LIVE_BACKEND empty.",
                id="rolls.E002",
            )
        ]
    return []
