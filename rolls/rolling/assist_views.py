"""Cogent assists from a sheet: drop a waiting assist, ask the table for one, answer a request
by opening the assisting row's panel (RULES.md "Assists"; docs/rolling.md#assists). The assist
itself is rolled by the roll panel (views.py), like any roll."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

import live
from rolls.models import Assist, AssistRequest
from rolls.rolling.access import entry_for_member
from rolls.rolling.targets import assist_panel_url, find_target
from rules import cogent
from sheets.access import character_for_roller
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest


@login_required
@require_POST
def assist_drop(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Drop a waiting assist (the moment passed): the GM or the assisted character's roller may.
    Not the assister: "already used" would tell them the assisted character rolled, perhaps a
    hidden roll. The assist entry stays in the log; only its wait ends."""
    entry, membership = entry_for_member(request, pk)
    assist = Assist.objects.filter(entry=entry).select_related("assisted").first()
    if assist is None:
        raise Http404("No such assist.")
    assisted = assist.assisted
    if not assisted.can_roll(membership):
        raise PermissionDenied("Only the GM or the assisted character's player drops an assist.")
    with transaction.atomic():
        # One UPDATE … WHERE still waiting: a roll taking it at the same moment wins or loses.
        dropped = Assist.objects.waiting().filter(pk=assist.pk).update(dropped_at=timezone.now())
        if dropped:
            live.publish(entry.campaign_id, "sheet", assisted.pk)
    if dropped:
        messages.success(request, f"Dropped {assist.by_name}'s assist for {assisted.name}.")
    else:
        messages.info(request, "That assist was already used or dropped.")
    if assisted.can_read(membership):
        return redirect(assisted)
    return redirect(entry)


@login_required
@require_POST
def assist_ask(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """ "Ask for an assist": the character's roller asks the table (a prompt on the other sheets).
    ``withdraw`` in the POST closes the open request instead."""
    character, _ = character_for_roller(request, pk)
    if not rule_system_of(character.campaign).rolling.has_assists:
        raise Http404("Assists are a Cogent rule.")
    if request.POST.get("withdraw"):
        if AssistRequest.objects.close_for(character):
            live.publish(character.campaign_id, "call", 0)
            messages.info(request, f"{character.name} no longer asks for an assist.")
        return redirect(character)
    if character.hidden_from_players:
        return HttpResponse(
            "A hidden NPC can't ask for an assist: the request would name it to the players.",
            status=400,
            content_type="text/plain",
        )
    with transaction.atomic():
        rule_system_of(character.campaign).lock_sheet(character.pk)  # one open request at a time
        if Assist.objects.waiting_for(character).exists():
            messages.info(request, f"An assist already waits for {character.name}.")
        elif AssistRequest.objects.open().filter(character=character).exists():
            messages.info(request, f"{character.name} has already asked for an assist.")
        else:
            AssistRequest.objects.create(
                campaign_id=character.campaign_id, character=character, created_by=request.user
            )
            live.publish(character.campaign_id, "call", 0)
            messages.success(request, f"{character.name} asks the table for an assist.")
    return redirect(character)


@login_required
@require_GET
def assist_offer(request: AuthenticatedHttpRequest, pk: int, ask_pk: int) -> HttpResponse:
    """Answer a request from this character's sheet: open its roll panel for the chosen row,
    set up as an assist for the asking character (nothing is written until it is rolled)."""
    character, _ = character_for_roller(request, pk)
    ask = (
        AssistRequest.objects.prompts_for(character)
        .filter(pk=ask_pk, character__hidden_from_players=False)
        .first()
    )
    if ask is None:
        raise Http404("No such request, or it was answered or withdrawn.")
    if "skill" not in request.GET:  # nothing chosen yet: the prompt on the sheet asks
        return redirect(character)
    target = find_target(character, request.GET["skill"], assist=True)
    if target is None:
        return HttpResponse(
            f"{character.name} has no skill by that name; choose one from the list.",
            status=400,
            content_type="text/plain",
        )
    return redirect(assist_panel_url(target, ask.character_id, cogent.ASSIST_MIN_CL))
