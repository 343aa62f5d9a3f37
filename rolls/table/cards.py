"""A contest as a card (on the dashboard and a sheet's prompts): each side's state, what the
viewer may do there, and only what the viewer may read."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

from django.db.models import Prefetch
from django.urls import reverse

from rolls.models import (
    Contest,
    ContestState,
    Kind,
    RollEntry,
)
from rolls.rolling.display import percent
from rolls.rolling.targets import row_names
from rolls.rules import cogent
from rolls.table import cogent_sides, contests, verdicts
from sheets.models import (
    Campaign,
    CogentSheet,
    ColdStarsSheet,
    Membership,
    Refused,
    cogent_combat_skills,
)


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
    verdict = next((e for e in entries if e.kind == Kind.CONTEST), None)
    readable = verdicts.readable_by(membership, entries)
    hidden_result = not readable and contest.state in (ContestState.CHOOSING, ContestState.DECIDED)
    active = contest.is_active and not hidden_result
    sides = []
    for status in contests.sides(contest, entries):
        character = status.character
        can_act = active and character is not None and character.can_roll(membership)
        side: dict[str, Any] = {
            "status": status,
            "can_act": can_act,
            "panel_url": "",
            "readable": status.entry is not None and status.entry.is_readable_by(membership),
        }
        if character is None or not can_act:
            sides.append(side)
            continue
        if not contest.both_roll and status.side == "a" and not status.rolled:
            # ``rows``: the prompts' character's rows by name, read once for all its contests.
            found = (rows if rows is not None else row_names(character)).get(contest.skill_a)
            if found is not None:
                kind, row_pk = found
                side["panel_url"] = (
                    reverse("roll_panel", args=[character.pk, kind, row_pk])
                    + f"?contest={contest.pk}"
                )
        if contest.both_roll and not status.rolled:
            side["visibilities"] = contests.visibility_choices(contest, membership)
        if contest.style.rounds and not status.rolled:
            side |= _cogent_side_choices(contest, status.side, figures=figures)
        if contest.both_roll and contest.style.keep_or_correct and not status.rolled:
            try:
                sheet = cast(ColdStarsSheet, contest.campaign.rule_system.sheet_of(character))
                side["willpower"] = contests.willpower_choices(contest, status.side, sheet)
            except Refused as exc:
                side["problem"] = str(exc)
        sides.append(side)
    return {
        "contest": contest,
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
        "can_cancel": contest.is_active and membership.is_gm,
    }


def _cogent_side_choices(contest: Contest, side: str, *, figures: bool) -> dict[str, Any]:
    """A Cogent conflict side's options before it rolls (rules at the table: what an action's
    roll may use, less destiny after). With ``figures``: its pool and its chance to win a round
    against the other side's pool, both at their defaults (odds from the engine)."""
    skill = contest.skill(side)
    choices: dict[str, Any] = {
        # Circumstances are offered for a combat skill (the server checks the row itself).
        "combat": skill in cogent_combat_skills(contest.campaign),
        "circumstances": [
            (key, f"{label} (+{dice})")
            for key, (label, dice) in cogent.COMBAT_CIRCUMSTANCES.items()
        ],
        "equipment_range": (cogent.EQUIPMENT_MIN, cogent.EQUIPMENT_MAX),
        "destiny": None,  # unknown without the sheet: a request without any left is refused
    }
    if figures:
        try:
            target = contests.target_for(contest, side)
            other = contests.target_for(contest, "b" if side == "a" else "a")
        except Refused as exc:
            return {"problem": str(exc)}
        defaults = cogent_sides.CogentSide()
        sheet, other_sheet = cast(CogentSheet, target.sheet), cast(CogentSheet, other.sheet)
        pool, _ = cogent_sides.cogent_side_pool(target, sheet, defaults)
        other_pool, _ = cogent_sides.cogent_side_pool(other, other_sheet, defaults)
        chances = cogent.conflict_odds(pool, other_pool)
        decided = chances["a"] + chances["b"]
        win = chances["a"] / decided if decided else Fraction(1, 2)
        choices |= {
            "combat": target.is_combat,
            "pool": pool,
            "other_pool": other_pool,
            "win": percent(win),
            "destiny": sheet.destiny_points,
        }
    return {"cogent": choices}
