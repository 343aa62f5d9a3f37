"""The GM table's session buttons: start a session, mark a scene, end the session.

One view each serves HTMX and plain POSTs: HTMX gets the table's session bar (``rolls/dashboard.html
#session-bar``) with the new state, or with the message beside the field; a plain POST a redirect
to the table, or the table with the message (400 for a bad title). The marker itself reaches every
open log through the chain's live announcement, like a roll.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from rolls.sessions import actions
from rolls.sessions.forms import SceneForm, SessionForm
from rolls.table.dashboard import dashboard_context, session_bar
from sheets.access import campaign_for_gm
from sheets.models import Campaign, Membership, Refused
from web.http import AuthenticatedHttpRequest

BAR = "rolls/dashboard.html#session-bar"


@login_required
@require_GET
def session_bar_part(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The bar alone: re-fetched when a marker arrives on the table's stream (another tab's)."""
    campaign, _ = campaign_for_gm(request, pk)
    return render(request, BAR, session_bar(campaign))


@login_required
@require_POST
def session_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = SessionForm(request.POST)
    if not form.is_valid():
        return _invalid(request, campaign, membership, session_form=form)

    def write() -> str:
        entries = actions.start_session(request.user, campaign, form.cleaned_data["title"])
        return f"{entries[-1].label} has started."

    return _answer(request, campaign, write)


@login_required
@require_POST
def session_scene(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = SceneForm(request.POST)
    if not form.is_valid():
        return _invalid(request, campaign, membership, scene_form=form)

    def write() -> str:
        entry = actions.mark_scene(request.user, campaign, form.cleaned_data["title"])
        return f"{entry.label} has begun."

    return _answer(request, campaign, write)


@login_required
@require_POST
def session_end(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for_gm(request, pk)
    return _answer(
        request, campaign, lambda: f"{actions.end_session(request.user, campaign).label} has ended."
    )


def _answer(
    request: AuthenticatedHttpRequest, campaign: Campaign, write: Callable[[], str]
) -> HttpResponse:
    """Run ``write`` (which says what it did), then answer as the request wants."""
    announce = error = ""
    try:
        announce = write()
    except Refused as refused:
        error = str(refused)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, announce)
        return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + "#session-bar")
    # A refusal is drawn like a success (HTMX swaps 2xx answers only): the bar says why.
    context = session_bar(campaign) | {"announce": announce, "session_error": error}
    return render(request, BAR, context)


def _invalid(
    request: AuthenticatedHttpRequest,
    campaign: Campaign,
    membership: Membership,
    **forms: Any,
) -> HttpResponse:
    """A title too long: the message beside the field, and what was typed kept."""
    if request.htmx:
        return render(request, BAR, session_bar(campaign, **forms))
    context = dashboard_context(campaign, membership, **forms)
    return render(request, "rolls/dashboard.html", context, status=400)
