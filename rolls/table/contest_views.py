"""Acting on a contest: a side rolls, Corrects or keeps; side A chooses on an even result; the GM calls it off."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

import live
from rolls.models import Contest
from rolls.rolling.dice import dice_for
from rolls.table import contests, verdicts
from rolls.table.cards import contest_card
from rolls.table.styles.base import style_of
from sheets.access import (
    campaign_for_gm,
    campaign_for_member,
)
from sheets.models import Character, Membership, Refused
from sheets.rolled import with_rolled_parts
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest

HIDDEN_CHOICE = "A roll of this contest is hidden from you, so the GM settles it."


def _contest_for_member(request: AuthenticatedHttpRequest, pk: int) -> tuple[Contest, Membership]:
    contest = get_object_or_404(
        Contest.objects.select_related("campaign", "character_a", "character_b"), pk=pk
    )
    _, membership = campaign_for_member(request, contest.campaign_id)
    return contest, membership


def _back(request: AuthenticatedHttpRequest, contest: Contest, membership: Membership) -> str:
    nxt = request.POST.get("next", "")
    # Only a path on this site: redirect() would take anything else for a view name (and 500).
    if nxt.startswith("/") and url_has_allowed_host_and_scheme(
        nxt, {request.get_host()}, request.is_secure()
    ):
        return nxt
    if membership.is_gm:
        return reverse("campaign_dashboard", args=[contest.campaign_id]) + "#contests"
    return reverse("campaign_log", args=[contest.campaign_id])


def _contest_response(
    request: AuthenticatedHttpRequest,
    contest: Contest,
    membership: Membership,
    refusal: str,
    done: str,
) -> HttpResponse:
    if request.htmx:
        contest.refresh_from_db()
        context = {
            "card": contest_card(contest, membership),
            "membership": membership,
            "refusal": refusal,
            "next": request.POST.get("next", ""),
        }
        response = render(request, "rolls/_contest.html", context)
        if refusal:
            return response
        # On a side's sheet, what the contest's roll changed there comes along; the card itself
        # is this response's target, so the prompts around it are not swapped.
        for character in (contest.character_a, contest.character_b):
            if character is not None and character.can_read(membership):
                response = with_rolled_parts(
                    request, response, character, membership, prompts=False
                )
        return response
    if refusal:
        return render(
            request,
            "rolls/contest_refused.html",
            {"contest": contest, "refusal": refusal, "back": _back(request, contest, membership)},
            status=409,
        )
    messages.success(request, done)
    return redirect(_back(request, contest, membership))


def _side_character(contest: Contest, side: str, membership: Membership) -> Character:
    """The side's character, if this member may act for it: 404 when they can't even read it,
    403 when they can read it but don't play it."""
    character = contest.character(side)
    if character is None or not character.can_read(membership):
        raise Http404("No such contest side.")
    if not character.can_roll(membership):
        raise PermissionDenied("Only this side's player or the GM acts for it.")
    return character


def _change_contest(
    request: AuthenticatedHttpRequest,
    contest: Contest,
    membership: Membership,
    change: Callable[[Contest], object],
    done: str,
) -> HttpResponse:
    """Run ``change`` on the contest locked in one transaction, announce it, and answer."""
    refusal = ""
    try:
        with transaction.atomic():
            contest = Contest.objects.select_for_update().get(pk=contest.pk)
            change(contest)
            live.publish(contest.campaign_id, "contest", contest.pk)
    except Refused as exc:
        refusal = str(exc)
    return _contest_response(request, contest, membership, refusal, done)


@login_required
@require_POST
def contest_side(
    request: AuthenticatedHttpRequest, pk: int, side: str, action: str
) -> HttpResponse:
    """A side's roll, Correct or "keep this roll"; the verdict follows when both are in."""
    contest, membership = _contest_for_member(request, pk)
    if side not in contests.SIDES or action not in ("roll", "correct", "keep"):
        raise Http404("No such contest action.")
    character = _side_character(contest, side, membership)

    def change(contest: Contest) -> None:
        sheet = rule_system_of(contest.campaign).lock_sheet(character.pk)
        if action == "roll":
            options = style_of(contest).side_options(request.POST)
            visibility = contests.chosen_visibility(
                contest, membership, request.POST.get("visibility", "")
            )
            contests.roll_side(
                contest,
                side,
                sheet,
                dice_for(contest.campaign, request.POST.get("nonce", ""), roller=request.user.pk),
                request.user,
                options=options,
                visibility=visibility,
            )
            contests.decide_if_ready(contest, request.user)
        elif action == "correct":
            rolled = contests.side_status(contest, side).entry
            if rolled is not None and not rolled.is_readable_by(membership):
                # As for any follow-up: nobody re-rolls a result they can't read (a blind roll).
                raise PermissionDenied(
                    "Only the GM sees this roll's result, so only the GM Corrects it."
                )
            # A contest without a Correct step refuses it (its style says).
            contests.correct_side(
                contest,
                side,
                sheet,
                dice_for(contest.campaign, request.POST.get("nonce", ""), roller=request.user.pk),
                request.user,
            )
        else:
            contests.settle_side(contest, side, request.user)

    return _change_contest(request, contest, membership, change, "Rolled for the contest.")


@login_required
@require_POST
def contest_choose(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A result that lets the initiator choose (Cold Stars, exactly even): side A's player or
    the GM chooses."""
    contest, membership = _contest_for_member(request, pk)
    _side_character(contest, "a", membership)
    choice = request.POST.get("choice", "")

    def change(contest: Contest) -> None:
        # Choosing would show the result is even: only for a member who may read every roll.
        # Asked first, so the refusal is the same whatever state the contest is in.
        if not verdicts.readable_by(membership, verdicts.deciding_entries(contest)):
            raise Refused(HIDDEN_CHOICE)
        contests.choose(contest, choice, request.user)

    return _change_contest(request, contest, membership, change, "Chose the contest's result.")


@login_required
@require_POST
def contest_cancel(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    contest, _ = _contest_for_member(request, pk)
    _, membership = campaign_for_gm(request, contest.campaign_id)
    return _change_contest(request, contest, membership, contests.cancel, "Called the contest off.")
