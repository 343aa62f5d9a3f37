"""A contest as a card (on the dashboard and a sheet's prompts): each side's state, what the
viewer may do there, and only what the viewer may read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch
from django.urls import reverse

from log.models import RollEntry
from rolls.models import Contest, ContestState
from rolls.rolling.targets import row_names
from rolls.table import contests, verdicts
from rolls.table.styles.base import style_of
from sheets.models import Campaign, Membership

if TYPE_CHECKING:
    from rolls.table.styles.base import ContestStyle


# A contest's entries, with what visibility needs to decide who reads each (no query per entry).
def contest_entries() -> Prefetch:
    return Prefetch(
        "entries", queryset=RollEntry.objects.select_related("character").order_by("pk")
    )


RECENT_CLOSED = 5  # closed calls and decided contests still shown


def contest_cards(campaign: Campaign, membership: Membership) -> list[dict[str, Any]]:
    related = ("character_a", "character_b", "campaign")
    entries = contest_entries()
    active = list(campaign.contests.active().select_related(*related).prefetch_related(entries))
    decided = list(
        campaign.contests.exclude(state__in=[ContestState.OPEN, ContestState.CHOOSING])
        .select_related(*related)
        .prefetch_related(entries)
        .order_by("-decided_at", "-pk")[:RECENT_CLOSED]
    )
    # The dashboard lists every contest: a side's pool and odds (reads of both sheets) are on the
    # rolling character's own prompt, not repeated per contest here.
    for contest in active + decided:
        contest.campaign = campaign  # one instance: what is read of the campaign is read once
    return [contest_card(contest, membership, figures=False) for contest in active + decided]


def contest_card(
    contest: Contest,
    membership: Membership,
    *,
    figures: bool = True,
    rows: dict[str, tuple[str, int]] | None = None,
) -> dict[str, Any]:
    """A contest with, per side, what it rolled and what this member may do for it now.

    A member who may not read every roll of the contest (``verdicts.readable_by``) gets no
    figures: each side they can't read shows only that it rolled, and once every side is in the
    contest shows as decided with its result hidden — an even result waiting for the initiator's
    choice looks the same (the GM chooses), so it can't be told apart from a win."""
    entries = list(contest.entries.all())
    verdict = next((e for e in entries if e.info.is_verdict), None)
    readable = verdicts.readable_by(membership, entries)
    hidden_result = not readable and contest.state in (ContestState.CHOOSING, ContestState.DECIDED)
    active = contest.is_active and not hidden_result
    style = style_of(contest)
    sides = [
        _side_card(contest, style, status, membership, active=active, figures=figures, rows=rows)
        for status in contests.sides(contest, entries)
    ]
    return {
        "contest": contest,
        "style": style,
        "notes": style.notes(contest),
        "sides": sides,
        "verdict": verdict,
        "readable": readable,
        # What the card may say of the state: CHOOSING gives an even result away.
        "active": active,
        "state": ContestState.DECIDED if hidden_result else contest.state,
        "state_label": ContestState.DECIDED.label if hidden_result else contest.get_state_display(),
        "hidden_result": hidden_result,
        "is_gm": membership.is_gm,
        "can_choose": contest.state == ContestState.CHOOSING and sides[0]["can_act"],
        # The initiator's pick is side A's player's (the GM's for an NPC): RULES.md §8.
        "choice_waiting": contests.choice_waiting(contest, sides[0]["status"], membership)
        if contest.state == ContestState.CHOOSING and sides[0]["can_act"]
        else "",
        "can_cancel": contest.is_active and membership.is_gm,
    }


def _side_card(
    contest: Contest,
    style: ContestStyle,
    status: contests.SideStatus,
    membership: Membership,
    *,
    active: bool,
    figures: bool,
    rows: dict[str, tuple[str, int]] | None,
) -> dict[str, Any]:
    """One side of a contest card: what it rolled, and what this member may do for it now (open
    the roll panel, roll here, keep a result)."""
    character = status.character
    can_act = active and character is not None and character.can_roll(membership)
    side: dict[str, Any] = {
        "status": status,
        "idle_words": style.idle_words(status.side),
        "can_act": can_act,
        "panel_url": "",
        "readable": status.entry is not None and status.entry.is_readable_by(membership),
    }
    if character is None or not can_act:
        return side
    if style.panel_side(contest, status):
        # ``rows``: the prompts' character's rows by name, read once for all its contests.
        found = (rows if rows is not None else row_names(character)).get(contest.skill_a)
        if found is not None:
            kind, row_pk = found
            side["panel_url"] = (
                reverse("roll_panel", args=[character.pk, kind, row_pk]) + f"?contest={contest.pk}"
            )
    waiting = contest.state == ContestState.OPEN
    if waiting and not status.rolled and style.rolls_here(contest, status):
        side["rolls_here"] = True
        side["visibilities"] = contests.visibility_choices(contest, membership)
        side |= style.side_choices(contest, status, membership, figures=figures)
    elif waiting and status.rolled and not status.settled and style.keeps(contest, status):
        side["keeps"] = True
        # Keep or Correct is the side's player's step-6 choice (RULES.md §8).
        side["problem"] = contests.choice_waiting(contest, status, membership)
    return side
