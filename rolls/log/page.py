"""The log page's content: the filtered page of entries with its day and session headings, the
links around it, the live stream's, and the message composer. The log view draws it; the
composer's view draws it again when a plain post is refused (rolls/messages/views.py)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from django.urls import reverse

from log.models import HiddenEntry, RollEntry, RollEntryQuerySet
from log.tokens import entry_token
from rolls.live.pages import live_context
from rolls.log.days import local_day
from rolls.log.filters import LogFilterForm, filtered_entries
from rolls.messages.forms import MessageForm
from rolls.sessions.state import state_of
from sheets.models import Campaign, Membership
from web.http import AuthenticatedHttpRequest

LOG_PAGE_SIZE = 25


def _url(name: str, campaign: Campaign, params: QueryDict, **extra: Any) -> str:
    params = params.copy()
    for key, value in extra.items():
        params[key] = value
    query = params.urlencode()
    return reverse(name, args=[campaign.pk]) + (f"?{query}" if query else "")


def log_context(
    request: AuthenticatedHttpRequest,
    campaign: Campaign,
    membership: Membership,
    before_pk: int | None,
    message_form: MessageForm | None = None,
) -> dict[str, object]:
    """Everything the log page draws: the filtered page of entries with their headings, the
    links, the live stream's, and the message composer (bound, when a post was refused)."""
    # The composer's choices come in the filters' query, unless a refused post brings its own form.
    composer = message_form is None
    form, entries = filtered_entries(request, campaign, membership, composer=composer)
    before = request.GET.get("before", "")
    continued = bool(before and request.htmx and not request.htmx.history_restore_request)
    page, more, cursor = _page(entries, campaign, before_pk)
    params = form.querydict()
    cards = [entry.card_for(membership) for entry in page]
    context: dict[str, object] = {
        "campaign": campaign,
        "membership": membership,
        "show_seq": membership.is_gm,  # chain numbers' gaps would count hidden rolls
        "form": form,
        "filtered": bool(form.active),
        "filter_summary": form.summary(),
        "entries": cards,
        # A page appended below the previous one (infinite scroll) continues its last day and
        # session; a page of its own (the no-JS "Older rolls" link) starts with headings.
        "rows": with_headings(cards, cursor if continued else None),
        "older_url": (
            _url("campaign_log", campaign, params, before=entry_token(page[-1].pk)) if more else ""
        ),
        "scenes": _scene_links(form, campaign, params),
        "session": form.session_item() if "session" in form.active else None,
        "before": before,
        "newest_url": _url("campaign_log", campaign, params),
        "csv_url": _url("campaign_log_csv", campaign, params),
        "json_url": _url("campaign_log_json", campaign, params),
    }
    # Live updates (docs/live.md): the unfiltered newest page takes new entries as they come,
    # starting after the newest one it shows; other views keep the stream for other components.
    context["live_entries"] = not form.active and not before
    newest = cards[0].pk if cards else 0
    context |= live_context(campaign, last_id=newest if context["live_entries"] else None)
    # Its choices came with the filters' (one UNION): the composer costs no query of its own.
    context["message_form"] = message_form or MessageForm(
        membership=membership, campaign=campaign, choices=form.composer_choices
    )
    return context


def _scene_links(
    form: LogFilterForm, campaign: Campaign, params: QueryDict
) -> list[dict[str, object]]:
    """The chosen session's jump list: the whole session, then each scene (no query: the
    form read the sessions with their scenes)."""
    item = form.session_item() if "session" in form.active else None
    if item is None or not item.scenes:
        return []
    whole = params.copy()
    whole.pop("scene", None)
    chosen = form.active.get("scene")
    links = [
        {
            "name": "The whole session",
            "url": _url("campaign_log", campaign, whole),
            "current": chosen is None,
        }
    ]
    for scene in item.scenes:
        number = scene.number
        links.append(
            {
                "name": scene.state.scene_name,
                "url": _url("campaign_log", campaign, whole, scene=number),
                "current": chosen == number,
            }
        )
    return links


def _page(
    entries: RollEntryQuerySet, campaign: Campaign, before: int | None
) -> tuple[list[RollEntry], bool, RollEntry | None]:
    """One keyset page of ``entries``, whether an older page exists, and the cursor entry (the
    last one of the page before), or None.

    The cursor entry is read in the page's own query (``id <= before`` instead of ``id < before``,
    one row more), so the headings cost no extra query."""
    entries = entries.with_session()
    if before is None:
        rows = entries.page(campaign, before=None, size=LOG_PAGE_SIZE)
        cursor = None
    else:
        rows = entries.page(campaign, before=before + 1, size=LOG_PAGE_SIZE + 1)
        if rows and rows[0].pk == before:
            cursor, rows = rows[0], rows[1:]
        else:  # the cursor no longer matches (or was never an entry here): no group to continue
            cursor, rows = None, rows[: LOG_PAGE_SIZE + 1]
    return rows[:LOG_PAGE_SIZE], len(rows) > LOG_PAGE_SIZE, cursor


def with_headings(
    cards: list[RollEntry | HiddenEntry], previous: RollEntry | HiddenEntry | None
) -> list[tuple[RollEntry | HiddenEntry, bool, bool]]:
    """Each card with whether a day heading, and a session heading, go above it: the first card
    of each local day, and of each session or scene (and of its part in each day) — after
    ``previous``, the card above them (None: the top of the list).

    Only cards the member receives are here, so a heading never hints at a roll they may not know
    of; the times and sessions come from the rows already read, so grouping adds no query."""
    rows = []
    day = local_day(previous.created_at) if previous is not None else None
    group = _group(previous) if previous is not None else None
    for card in cards:
        card_day, card_group = local_day(card.created_at), _group(card)
        starts_day = card_day != day
        starts_session = card_group is not None and (starts_day or card_group != group)
        rows.append((card, starts_day, starts_session))
        day, group = card_day, card_group
    return rows


def _group(card: RollEntry | HiddenEntry) -> str | None:
    state = state_of(card)
    return state.key if state is not None else None
