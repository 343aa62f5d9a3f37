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

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from log.tokens import entry_pk
from rolls.log.filters import StatsFilterForm
from rolls.log.page import log_context
from rolls.log.tallies import campaign_figures, readable_rows, tally
from sheets.access import campaign_for_member, character_for_reader
from sheets.usage import heavy_limited
from web.abandon import stops_when_abandoned
from web.http import AuthenticatedHttpRequest


def searches(request: HttpRequest) -> bool:
    """A log request that searches (the heavy kind): words in ``q``."""
    return bool(request.GET.get("q", "").strip())


@stops_when_abandoned
@login_required
@require_GET
@heavy_limited("search", when=searches)
def campaign_log(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's log, newest first, filtered; keyset pages (``?before=<entry token>``, never
    OFFSET). The cursor is the last entry's token, not its pk (log/tokens.py)."""
    campaign, membership = campaign_for_member(request, pk)
    before = request.GET.get("before", "")
    before_pk = entry_pk(before) if before else None
    if before and before_pk is None:
        return HttpResponse(
            "“before” must be the link of an older page of this log.",
            status=400,
            content_type="text/plain",
        )
    context = log_context(request, campaign, membership, before_pk)
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
