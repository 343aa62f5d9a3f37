"""The GM table: the campaign dashboard, inline resources, calls for a roll and contests.

One view serves HTMX and plain requests: HTMX gets a named partial of ``rolls/dashboard.html`` (or
the prompt fragment on a sheet), a plain POST a redirect or the page with the message beside the
field (400) or the refusal (409). Every change publishes its live event inside its transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap

import live
from log.models import RollEntry
from log.tokens import entry_pk as parse_entry_token
from rolls.models import Contest, RollCall, RollCallTarget
from rolls.rolling.actions import make_roll
from rolls.rolling.targets import assist_panel_url, load_target
from rolls.table import refresh
from rolls.table.calls import difficulty_label
from rolls.table.cards import contest_cards
from rolls.table.characters import character_rows
from rolls.table.dashboard import calls_of, dashboard_context, session_bar
from rolls.table.forms import AssistForm, CallForm, ContestForm
from sheets.access import (
    campaign_for_gm,
    character_for_gm,
    character_for_reader,
)
from sheets.models import Campaign, Membership, Refused
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest

PARTS = ("characters", "calls", "contests")


# ---------------------------------------------------------------------------------------------
# The dashboard
# ---------------------------------------------------------------------------------------------


@login_required
@require_GET
def campaign_dashboard(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    part = request.GET.get("part", "")
    if request.htmx and part in PARTS:
        context: dict[str, Any] = {"campaign": campaign, "membership": membership}
        if part == "characters":
            context["rows"] = character_rows(campaign, membership)
        elif part == "calls":
            context["calls"] = calls_of(campaign)
        else:
            context["contest_cards"] = contest_cards(campaign, membership)
        return render(request, f"rolls/dashboard.html#{part}", context)
    return render(request, "rolls/dashboard.html", dashboard_context(campaign, membership))


@login_required
@require_GET
def table_character(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """One character's card of the GM table, as the dashboard shows it: the table fetches it
    alone when the live stream tells of that character's roll or edit (never the whole list).
    The GM only (404 for non-members, 403 for players); without htmx, the card on the table.

    ``?entry=<token>``, the roll the stream told of: only the card's news — its figures, its
    resources and that roll, out of band (the page has the card's other rolls)."""
    character, membership = character_for_gm(request, pk)
    url = reverse("campaign_dashboard", args=[character.campaign_id]) + f"#char-{character.pk}"
    if not request.htmx:
        return redirect(url)
    news = None
    if "entry" in request.GET:
        entry_pk = parse_entry_token(request.GET["entry"])
        if entry_pk is None:
            return HttpResponse(
                "“entry” must be a roll's id.", status=400, content_type="text/plain"
            )
        news = (
            RollEntry.objects.visible_to(membership)
            .rolls()
            .for_cards()
            .filter(pk=entry_pk, character_id=character.pk)
            .first()
        )
    rows = character_rows(character.campaign, membership, only=character.pk, news=news)
    context = {"campaign": character.campaign, "membership": membership, "row": rows[0]}
    if news is None:  # no such roll of this character: the whole card
        return render(request, "rolls/dashboard.html#character", context)
    return reswap(render(request, "rolls/dashboard.html#character-news", context), "none")


# ---------------------------------------------------------------------------------------------
# Quick rolls: an NPC's key row, rolled from its card
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def table_roll(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Roll one of an NPC's rows (``row=<kind>:<row id>``, a Roll button of its card) at the
    roll panel's default options and the chosen ``visibility``, through the roll service the
    sheet uses (make_roll). The GM only: 404 for non-members and, as its sheet is, for a
    player asking for a hidden NPC; 403 for other players and observers, and for a player's
    character (its player rolls it). HTMX gets the card again, the roll on top of its last
    rolls; a plain POST a redirect to the card (or the table with the reason: 400, 409)."""
    character, membership = character_for_reader(request, pk)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM rolls from the table.")
    if not character.is_npc:
        raise PermissionDenied(
            "The table rolls NPCs: a player's character is rolled by its player."
        )
    kind, _, row_pk = request.POST.get("row", "").partition(":")
    if not (row_pk.isascii() and row_pk.isdigit() and len(row_pk) <= 18):
        return HttpResponse(
            "“row” must name one of the character's rows.", status=400, content_type="text/plain"
        )
    target = load_target(character, kind, int(row_pk))
    form_class = rule_system_of(character.campaign).rolling.form_class
    data = form_class.default_data(target=target, sheet=target.sheet, gm=True)
    if "visibility" in request.POST:
        data["visibility"] = request.POST["visibility"]
    form = form_class(data, target=target, sheet=target.sheet, gm=True)
    entry, note, status = None, "", 400
    if not form.is_valid():  # a visibility the GM may not choose, or a crafted one
        note = " ".join(str(e) for errors in form.errors.values() for e in errors)
    else:
        try:
            entry, _ = make_roll(request.user, target, form, "roll", {})
        except Refused as exc:
            note, status = str(exc), 409
    campaign = character.campaign
    url = reverse("campaign_dashboard", args=[campaign.pk]) + f"#char-{character.pk}"
    if not request.htmx:
        if entry is None:
            context = dashboard_context(campaign, membership, notes={character.pk: note})
            return render(request, "rolls/dashboard.html", context, status=status)
        messages.success(request, f"{character.name} rolled {entry.label}: {entry.outcome_label}.")
        return redirect(url)
    row = character_rows(campaign, membership, only=character.pk)[0]
    row |= {"note": note, "rolled": entry, "visibility": form.chosen_visibility}
    context = {"campaign": campaign, "membership": membership, "row": row}
    return render(request, "rolls/dashboard.html#character", context)


# ---------------------------------------------------------------------------------------------
# Inline resources
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def character_resources(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_gm(request, pk)
    campaign = character.campaign
    form_class = rule_system_of(campaign).table.resources_form
    prefix = f"res-{character.pk}"
    saved = False
    with transaction.atomic():
        sheet = rule_system_of(campaign).lock_sheet(character.pk)
        form = form_class(request.POST, instance=sheet, prefix=prefix)
        if form.is_valid():
            try:
                with transaction.atomic():
                    form.save()
                    live.publish(campaign.pk, "sheet", character.pk)
            except IntegrityError:
                form.add_error(None, "That value clashed with a concurrent change; try again.")
            else:
                saved = True
    if request.htmx:
        if saved:
            form = form_class(instance=rule_system_of(campaign).read_sheet(pk), prefix=prefix)
        context = {"row": {"character": character, "form": form}, "saved": saved}
        return render(request, "rolls/dashboard.html#resources", context)
    if saved:
        messages.success(request, f"Saved {character.name}'s resources.")
        return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + f"#char-{character.pk}")
    context = dashboard_context(campaign, membership, bound={character.pk: form})
    return render(request, "rolls/dashboard.html", context, status=400)


@login_required
@require_POST
def resources_refresh(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Cold Stars: the GM refreshes Momentum, Willpower or both (``resource``) to their maxima
    for one character or all (``character``: an id or "all"), from a card or the session bar;
    each refresh is a recorded entry (rolls/table/refresh.py). The GM only: 404 for non-members,
    403 for players and observers, 404 in a campaign of another system. HTMX gets the session
    bar saying what was done (the cards hear of it on the table's stream); a plain POST a
    redirect to the table with the message."""
    campaign, _ = campaign_for_gm(request, pk)
    if not refresh.refreshes(campaign):
        raise Http404("Only Cold Stars has Momentum and Willpower to refresh.")
    announce = error = ""
    try:
        _, announce = refresh.refresh(
            request.user,
            campaign,
            request.POST.get("character", refresh.EVERYONE),
            request.POST.get("resource", ""),
        )
    except Refused as refused:
        error = str(refused)
    if request.htmx:
        context = session_bar(campaign) | {"announce": announce, "session_error": error}
        return render(request, "rolls/dashboard.html#session-bar", context)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, announce)
    who = request.POST.get("character", "")
    anchor = f"#char-{who}" if who.isdigit() else "#session-bar"
    return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + anchor)


# ---------------------------------------------------------------------------------------------
# Calls for a roll
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def call_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = CallForm(
        request.POST,
        campaign=campaign,
        skills=rule_system_of(campaign).rolling.skill_names(campaign, vocations=False),
    )

    def create(d: dict[str, Any]) -> str:
        call = RollCall.objects.create(
            campaign=campaign,
            created_by=request.user,
            skill=d["skill"],
            difficulty=d["difficulty"],
            ability=d.get("ability", ""),
            note=d["note"],
            punchers_chance=bool(d.get("punchers_chance")),
        )
        RollCallTarget.objects.bulk_create(
            RollCallTarget(call=call, character=c) for c in d["characters"]
        )
        live.publish(campaign.pk, "call", call.pk)
        allowed = ", a puncher's chance allowed" if call.punchers_chance else ""
        return f"Called for {call.skill} ({difficulty_label(call)}{allowed})."

    return _create(request, campaign, membership, form, create)


@login_required
@require_POST
def assist_start(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM has a character assist another (Cogent): opens the assisting character's roll
    panel set up for the assist. Nothing is rolled or written here; the panel rolls it."""
    campaign, membership = campaign_for_gm(request, pk)
    if not rule_system_of(campaign).rolling.has_assists:
        raise Http404("Assists are a Cogent rule.")
    form = AssistForm(
        request.POST,
        campaign=campaign,
        skills=rule_system_of(campaign).rolling.skill_names(campaign),
    )
    if not form.is_valid() or form.target is None:
        context = dashboard_context(campaign, membership, assist_form=form)
        return render(request, "rolls/dashboard.html", context, status=400)
    d = form.cleaned_data
    url = assist_panel_url(
        form.target, d["assisted"].pk, d["challenge_level"], d.get("further_helpers") or 0
    )
    return redirect(url)


def _create(
    request: AuthenticatedHttpRequest,
    campaign: Campaign,
    membership: Membership,
    form: CallForm | ContestForm,
    create: Callable[[dict[str, Any]], str],
) -> HttpResponse:
    """Create a call or a contest from its dashboard form. HTMX gets the section's partial (a
    fresh form, or this one with its errors); a plain POST a redirect, or the dashboard with the
    errors beside the fields (400)."""
    is_call = isinstance(form, CallForm)
    announce = ""
    if form.is_valid():
        with transaction.atomic():
            announce = create(form.cleaned_data)
        if not request.htmx:
            messages.success(request, announce)
            anchor = "#calls" if is_call else "#contests"
            return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + anchor)
        skills = rule_system_of(campaign).rolling.skill_names(campaign, vocations=False)
        form = type(form)(campaign=campaign, skills=skills)
    elif not request.htmx:
        page = (
            dashboard_context(campaign, membership, call_form=form)
            if isinstance(form, CallForm)
            else dashboard_context(campaign, membership, contest_form=form)
        )
        return render(request, "rolls/dashboard.html", page, status=400)
    context: dict[str, Any] = {"campaign": campaign, "membership": membership, "announce": announce}
    if isinstance(form, CallForm):
        context |= {"call_form": form, "calls": calls_of(campaign)}
        return render(request, "rolls/dashboard.html#call-area", context)
    context |= {"contest_form": form, "contest_cards": contest_cards(campaign, membership)}
    return render(request, "rolls/dashboard.html#contest-area", context)


@login_required
@require_POST
def call_close(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    call = get_object_or_404(RollCall.objects.select_related("campaign"), pk=pk)
    campaign, _ = campaign_for_gm(request, call.campaign_id)
    with transaction.atomic():
        call.close()
        live.publish(campaign.pk, "call", call.pk)
    if request.htmx:
        return render(
            request,
            "rolls/dashboard.html#calls",
            {"campaign": campaign, "calls": calls_of(campaign)},
        )
    messages.success(request, f"Closed the call for {call.skill}.")
    return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + "#calls")


# ---------------------------------------------------------------------------------------------
# Contests
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def contest_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = ContestForm(
        request.POST,
        campaign=campaign,
        skills=rule_system_of(campaign).rolling.skill_names(campaign, vocations=False),
    )

    def create(d: dict[str, Any]) -> str:
        a, b = d["character_a"], d["character_b"]
        contest = Contest.objects.create(
            campaign=campaign,
            created_by=request.user,
            kind=d["kind"],
            character_a=a,
            character_b=b,
            name_a=a.name,
            name_b=b.name,
            skill_a=d["skill_a"],
            skill_b=d.get("skill_b") or "",
            ability_a=d.get("ability_a", ""),
            ability_b=d.get("ability_b", ""),
            outside_domain_a=d.get("outside_domain_a", False),
            outside_domain_b=d.get("outside_domain_b", False),
            difficulty=d.get("difficulty") or 1,
            opposition=d.get("opposition") or 0,
        )
        live.publish(campaign.pk, "contest", contest.pk)
        return f"Started {contest}."

    return _create(request, campaign, membership, form, create)
