"""Prompts on a sheet: the GM's open calls and contests for this character, and the Cogent
assists waiting for it or asked of it.

The prompts cost a fixed number of queries however many calls are open: the sheet's rows are
read once by name (``row_names``), not looked up per call."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from rolls.models import AssistRequest, Contest, RollCall
from rolls.rolling.targets import row_names
from rolls.rolling.waiting import waiting_assist
from rolls.table.cards import contest_card, contest_entries
from sheets.access import character_for_reader
from sheets.models import Character, Membership
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest


def prompts_context(character: Character, membership: Membership) -> dict[str, Any]:
    """What the sheet's prompt area shows (empty for anyone who can't roll this character)."""
    context: dict[str, Any] = {"character": character, "prompt_calls": [], "prompt_contests": []}
    if not character.can_roll(membership):
        return context
    calls = list(RollCall.objects.prompts_for(character).select_related("campaign"))
    contests = list(Contest.objects.prompts_for(character).prefetch_related(contest_entries()))
    rows = row_names(character) if calls or contests else {}
    for call in calls:
        url = ""
        if call.skill in rows:
            kind, row_pk = rows[call.skill]
            url = reverse("roll_panel", args=[character.pk, kind, row_pk]) + f"?call={call.pk}"
        context["prompt_calls"].append({"call": call, "url": url})
    context["prompt_contests"] = [
        contest_card(contest, membership, rows=rows) for contest in contests
    ]
    context["membership"] = membership
    if rule_system_of(character.campaign).rolling.has_assists:
        # Only the assisted character's rollers see it wait: whether it is used tells of rolls.
        # The same read as the rows' prices (rolls/rolling/waiting.py): one query a page.
        context["waiting_assist"] = waiting_assist(character, membership)
        # "Ask for an assist": this character's own open request, and the others' it may answer
        # (a hidden NPC never asks, so no request names one).
        requests = list(
            AssistRequest.objects.open()
            .filter(campaign_id=character.campaign_id, character__hidden_from_players=False)
            .select_related("character")
        )
        context["own_assist_request"] = any(r.character_id == character.pk for r in requests)
        context["assist_requests"] = [r for r in requests if r.character_id != character.pk]
        if context["assist_requests"]:
            # The rows an assist may be rolled with, in sheet order.
            context["assist_skills"] = rule_system_of(character.campaign).rolling.assist_names(
                character.sheet
            )
    return context


@login_required
@require_GET
def character_prompts(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_reader(request, pk)
    if not request.htmx:
        return redirect(character)
    return render(request, "rolls/_prompts.html", prompts_context(character, membership))
