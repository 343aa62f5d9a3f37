"""The live stream's address (rolls/live/stream.py): what a page puts in its context to hold it,
and what the stream reads back from it."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import urlencode

from log.tokens import entry_pk, entry_token
from sheets.converters import parse_id
from sheets.models import Campaign, Character

# What a stream's entries are drawn as: the log's list item (the log, a sheet's recent rolls and
# its table strip take it), or the GM table's row of a card's last rolls (``?view=table``, the GM's
# alone): each page gets the markup it shows, and the table never fetches a roll it was sent.
VIEWS = {"log": "rolls/log.html#log_item", "table": "rolls/dashboard.html#last-roll"}


def live_context(
    campaign: Campaign,
    *,
    last_id: int | None = None,
    character: Character | None = None,
    table: bool = False,
    view: str = "log",
) -> dict[str, object]:
    """What a page puts in its context to go live (templates/base.html): the campaign, and the
    stream's URL resuming after ``last_id`` — the newest entry the page shows, so an entry
    committed between rendering and connecting still arrives — and limited to one character;
    with ``table``, that character's sheet also hears the others' rolls (``table`` events);
    ``view``: how the page lists entries (VIEWS)."""
    params: dict[str, int | str] = {}
    if last_id is not None:
        # The entry's token ("0": from the start), never its pk (log/tokens.py).
        params["last_id"] = entry_token(last_id) if last_id else "0"
    if character is not None:
        params["character"] = character.pk
        if table:
            params["table"] = 1
    if view != "log":
        params["view"] = view
    url = reverse("campaign_events", args=[campaign.pk])
    return {"live_campaign": campaign, "live_url": f"{url}?{urlencode(params)}" if params else url}


def resume_point(request: HttpRequest) -> int | None:
    """``Last-Event-ID`` (the browser's reconnect) wins over ``?last_id=`` (the page's state):
    an entry's token, as the stream sent it, or "0" for the very start."""
    value = request.headers.get("Last-Event-ID") or request.GET.get("last_id")
    if value is None or value == "":
        return None
    if value == "0":
        return 0
    pk = entry_pk(value)
    if pk is None:
        raise ValueError("The resume point (Last-Event-ID or last_id) must be an entry's id.")
    return pk


def what_to_stream(request: HttpRequest) -> tuple[int | None, bool, str]:
    """``?character=`` (one sheet's rolls), ``&table=1`` (and the table's too), ``?view=``
    (how entries are drawn: the GM table's own rows, or the log's items)."""
    character = request.GET.get("character")
    character_pk = None if character is None else parse_id(character)
    if character is not None and character_pk is None:
        raise ValueError("“character” must be a character number.")
    view = request.GET.get("view", "log")
    if view not in VIEWS or (view == "table" and character is not None):
        raise ValueError("“view” is “log”, or “table” for the whole campaign's stream.")
    return character_pk, request.GET.get("table") == "1" and character is not None, view
