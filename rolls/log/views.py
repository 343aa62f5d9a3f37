"""The roll log's pages: the log (its filters and search in ``filters``), statistics; the CSV and
JSON exports are in ``exports``.

Visibility (docs/permissions.md) holds on every channel here:

* listings use ``RollEntry.objects.visible_to(membership)`` and render each entry through
  ``card_for``, so a blind roll shows its roller a placeholder and nobody else anything;
* every filter or search term that looks at figures (outcome, breakdown, detail, outcome label)
  only ever matches entries the member may *read* — otherwise filtering a placeholder by
  "Critical failure" would tell its roller the hidden outcome;
* exports give readable entries in full, placeholders with placeholder fields only, and nothing else;
* statistics count readable entries only (``readable_by`` on the trials and tallies, the same rule).

Formats and definitions: docs/log-tools.md.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from rolls.live.pages import live_context
from rolls.log.days import local_day
from rolls.log.filters import StatsFilterForm, filtered_entries
from rolls.log.tallies import campaign_figures, readable_rows, tally
from rolls.log.tokens import entry_pk, entry_token
from rolls.sessions.state import state_of
from sheets.access import campaign_for_member, character_for_reader
from sheets.models import Campaign
from sheets.usage import heavy_limited
from web.abandon import stops_when_abandoned
from web.http import AuthenticatedHttpRequest

LOG_PAGE_SIZE = 25


def _url(name: str, campaign: Campaign, params: QueryDict, **extra: Any) -> str:
    params = params.copy()
    for key, value in extra.items():
        params[key] = value
    query = params.urlencode()
    return reverse(name, args=[campaign.pk]) + (f"?{query}" if query else "")


def searches(request: Any) -> bool:
    """A log request that searches (the heavy kind): words in ``q``."""
    return bool(request.GET.get("q", "").strip())


@stops_when_abandoned
@login_required
@require_GET
@heavy_limited("search", when=searches)
def campaign_log(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's log, newest first, filtered; keyset pages (``?before=<entry token>``, never
    OFFSET). The cursor is the last entry's token, not its pk (rolls/log/tokens.py)."""
    campaign, membership = campaign_for_member(request, pk)
    before = request.GET.get("before", "")
    before_pk = entry_pk(before) if before else None
    if before and before_pk is None:
        return HttpResponse(
            "“before” must be the link of an older page of this log.",
            status=400,
            content_type="text/plain",
        )
    form, entries = filtered_entries(request, campaign, membership)
    continued = bool(before and request.htmx and not request.htmx.history_restore_request)
    page, more, cursor = _page(entries, campaign, before_pk)
    params = form.querydict()
    cards = [entry.card_for(membership) for entry in page]
    context = {
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
    newest = context["entries"][0].pk if context["entries"] else 0
    context |= live_context(campaign, last_id=newest if context["live_entries"] else None)
    if request.htmx and not request.htmx.history_restore_request:
        # A filter change swaps the results (and the field errors, out of band); scrolling to the
        # end of a page appends the next page's entries.
        part = "entries" if before else "results"
        response = render(request, f"rolls/log.html#{part}", context)
    else:
        response = render(request, "rolls/log.html", context)
    # The same URL answers with a partial or the page: caches must keep them apart.
    patch_vary_headers(response, ("HX-Request",))
    return response


def _scene_links(form: Any, campaign: Campaign, params: QueryDict) -> list[dict[str, Any]]:
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


def _page(entries: Any, campaign: Campaign, before: int | None) -> tuple[list[Any], bool, Any]:
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


def with_headings(cards: list[Any], previous: Any) -> list[tuple[Any, bool, bool]]:
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


def _group(card: Any) -> str | None:
    state = state_of(card)
    return state.key if state is not None else None


# ---------------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------------


@stops_when_abandoned
@login_required
@require_GET
@heavy_limited("statistics")
def campaign_stats(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's statistics over the trials the member may read, narrowed by the log's
    filters (no search: a trial's row has no words to search); one aggregate query, over the
    tallies (with dates: the day tallies and the range's edges' trials)."""
    campaign, membership = campaign_for_member(request, pk)
    form = StatsFilterForm(request.GET, campaign=campaign, membership=membership)
    form.is_valid()
    summary, characters = campaign_figures(form, membership)
    # The form's character choices are the characters the member may read: the links' test.
    readable_ids = {value for value, _ in form.character_choices() if value != ""}
    return render(
        request,
        "rolls/stats.html",
        {
            "campaign": campaign,
            "membership": membership,
            "form": form,
            "filtered": bool(form.active),
            "filter_summary": form.summary(),
            "summary": summary,
            "characters": [
                (pk if pk in readable_ids else None, name, s) for pk, name, s in characters
            ],
        },
    )


@stops_when_abandoned
@login_required
@require_GET
@heavy_limited("statistics")
def character_stats(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_reader(request, pk)
    summary, _ = tally(readable_rows(membership, dated=False).filter(character_id=character.pk))
    return render(
        request,
        "rolls/stats.html",
        {
            "campaign": character.campaign,
            "character": character,
            "membership": membership,
            "summary": summary,
        },
    )
