"""What a page puts in its context to hold the campaign's live stream (rolls/live/stream.py)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.http import urlencode

from rolls.log.tokens import entry_token
from sheets.models import Character


def live_context(
    campaign: Any,
    *,
    last_id: int | None = None,
    character: Character | None = None,
    table: bool = False,
) -> dict[str, Any]:
    """What a page puts in its context to go live (templates/base.html): the campaign, and the
    stream's URL resuming after ``last_id`` — the newest entry the page shows, so an entry
    committed between rendering and connecting still arrives — and limited to one character;
    with ``table``, that character's sheet also hears the others' rolls (``table`` events)."""
    params: dict[str, int | str] = {}
    if last_id is not None:
        # The entry's token ("0": from the start), never its pk (rolls/log/tokens.py).
        params["last_id"] = entry_token(last_id) if last_id else "0"
    if character is not None:
        params["character"] = character.pk
        if table:
            params["table"] = 1
    url = reverse("campaign_events", args=[campaign.pk])
    return {"live_campaign": campaign, "live_url": f"{url}?{urlencode(params)}" if params else url}
