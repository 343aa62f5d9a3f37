"""An entry's permalink page and the roll result it shares with the follow-ups' answers: what a
member may do next with the entry (follow it up, reveal it, roll again, correct their message).
The permalink's views and the message correction's draw through here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import HttpResponse
from django.shortcuts import render

from log.models import HiddenEntry, RollEntry
from rolls.messages.forms import CorrectionForm
from rolls.rolling import followups
from rolls.rolling.access import shows_seq
from rolls.rolling.verify_data import has_proof, verify_data
from sheets.models import Membership, Sheet
from sheets.systems import rule_system
from web.http import AuthenticatedHttpRequest


def result_context(
    entry: RollEntry | HiddenEntry,
    sheet: Sheet | None,
    membership: Membership,
    *,
    has_follow_up: bool,
    can_roll: bool,
) -> dict[str, Any]:
    # Nobody follows up a result they can't see (the roller of a blind roll).
    offers = []
    if can_roll and sheet is not None and isinstance(entry, RollEntry):  # a placeholder: none
        offers = followups.offered(entry, sheet, membership, has_follow_up=has_follow_up)
    return {"entry": entry, "follow_ups": offers}


def detail_context(entry: RollEntry, membership: Membership) -> dict[str, Any]:
    readable = entry.is_readable_by(membership)
    # Only a reader gets the island: it holds the dice and the proof, which a placeholder hides.
    verify = verify_data(entry) if readable and has_proof(entry) else None
    return {
        "verify": verify,
        "campaign": entry.campaign,
        "membership": membership,
        "show_seq": shows_seq(membership),
        "follow_up_entry": entry.follow_ups.first() if readable else None,
        "can_reveal": membership.is_gm and entry.info.revealable and entry.is_hidden,
    }


def entry_page(
    request: AuthenticatedHttpRequest,
    entry: RollEntry,
    membership: Membership,
    *,
    correction_form: forms.Form | None = None,
    status: int = 200,
) -> HttpResponse:
    """An entry's permalink page; for a message's author, with the form that corrects it (bound,
    when a correction was refused)."""
    context = detail_context(entry, membership)
    character = entry.character
    can_roll = entry.info.followable and character is not None and character.can_roll(membership)
    sheet = rule_system(entry.system).sheet_of(character) if character and can_roll else None
    context |= result_context(
        entry.card_for(membership),
        sheet,
        membership,
        has_follow_up=context["follow_up_entry"] is not None,
        can_roll=can_roll,
    )
    context["can_roll_again"] = (
        can_roll
        and not context["entry"].redacted
        and entry.info.rolls_again
        and "target" in entry.options
    )
    if (
        entry.info.correctable
        and entry.roller_id == request.user.pk
        and not context["follow_up_entry"]
    ):
        # The newest version of the author's own message: theirs to correct.
        context["correction_form"] = correction_form or CorrectionForm(
            initial={"text": entry.said or ""}
        )
    return render(request, "rolls/entry_detail.html", context, status=status)
