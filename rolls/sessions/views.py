"""The GM table's session buttons: start a session, mark a scene, end the session; and a
session's recap, as Markdown or posted to the webhooks.

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
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST

from rolls.sessions import actions, recap
from rolls.sessions.forms import SceneForm, SessionForm
from rolls.sessions.state import SessionItem, marker_name, session
from rolls.table.dashboard import dashboard_context, session_bar
from rolls.webhooks.delivery import queue_recap
from sheets.access import campaign_for_gm, campaign_for_member
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
    def write(campaign: Campaign, title: str) -> str:
        return (
            f"{marker_name(actions.start_session(request.user, campaign, title)[-1])} has started."
        )

    return _titled(request, pk, "session_form", write)


@login_required
@require_POST
def session_scene(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    def write(campaign: Campaign, title: str) -> str:
        return f"{marker_name(actions.mark_scene(request.user, campaign, title))} has begun."

    return _titled(request, pk, "scene_form", write)


def _titled(
    request: AuthenticatedHttpRequest,
    pk: int,
    name: str,
    write: Callable[[Campaign, str], str],
) -> HttpResponse:
    """A button with a title field (its form ``name`` in the bar's context): the GM's, checked,
    then written, or the message beside the field."""
    campaign, membership = campaign_for_gm(request, pk)
    form = (SessionForm if name == "session_form" else SceneForm)(request.POST)
    if not form.is_valid():
        return _invalid(request, campaign, membership, **{name: form})
    return _answer(request, campaign, lambda: write(campaign, form.cleaned_data["title"]))


@login_required
@require_POST
def session_end(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for_gm(request, pk)
    return _answer(
        request,
        campaign,
        lambda: f"{marker_name(actions.end_session(request.user, campaign))} has ended.",
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


# ---------------------------------------------------------------------------------------------
# Recaps
# ---------------------------------------------------------------------------------------------


def _session(campaign: Campaign, number: int) -> SessionItem:
    item = session(campaign.pk, number)
    if item is None:
        raise Http404("No such session.")
    return item


@login_required
@require_GET
def session_recap(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The session as Markdown, as this member may know it (docs/sessions.md#recaps)."""
    campaign, membership = campaign_for_member(request, pk)
    item = _session(campaign, number)
    base = request.build_absolute_uri("/").rstrip("/")
    text = recap.markdown(campaign, item, recap.rows_for(campaign, item, membership), base)
    response = HttpResponse(text, content_type="text/markdown; charset=utf-8")
    name = f"{slugify(campaign.name) or 'campaign'}-session-{number}.md"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_POST
def session_recap_post(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The GM posts the session's recap to the campaign's active webhooks: what every member may
    read, made when it is sent."""
    campaign, _ = campaign_for_gm(request, pk)
    item = _session(campaign, number)
    with transaction.atomic():
        deliveries = queue_recap(campaign.pk, number)
    if deliveries:
        count = len(deliveries)
        where = "webhook" if count == 1 else f"{count} webhooks"
        messages.success(request, f"The recap of {item.state.name} is on its way to the {where}.")
    else:
        messages.error(request, "This campaign has no active webhook to post the recap to.")
    return redirect(reverse("campaign_log", args=[campaign.pk]) + f"?session={number}")
