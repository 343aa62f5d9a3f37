"""Contests: each side's roll and the verdict, as roll log entries. Every rule comes from the engine.

This module is the flow every contest shares — its state, whose turn it is, who may see a side's
roll — and it asks the contest's style (``style_of(contest)``, one object per kind in
``rolls.table.styles``, named by the rule system's seam) for the rest: how a side rolls, what
decides, what side A's roll panel is prefilled with in a contest where only side A rolls.

Side rolls are entries linked by ``contest``; the verdict is one more entry of kind ``contest``
whose ``result`` holds both sides' dice and links, so the log shows the contest as one card.
Callers run these inside one transaction with the sheet locked, and publish the ``contest`` event.

Hidden sides (docs/gm-table.md, "Hidden rolls in a contest"): nobody learns a side's figures or the
verdict unless they may read every roll that decides it. The verdict entry gets the audience of its
most hidden deciding roll (``verdicts.verdict_audience``), and ``verdicts.readable_by`` tells the
views whether a member may see a contest's outcome — both through the entry-level visibility API.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from log.models import Kind, RollEntry, Visibility, offered_visibilities
from rolls.models import Contest, ContestState
from rolls.rolling import choosers
from rolls.rolling.dice import aim
from rolls.rolling.targets import Target, find_target
from rolls.table.styles.base import style_of
from rules import RandomSource
from sheets.models import Character, Membership, Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SIDES = ("a", "b")


@dataclass
class SideStatus:
    """What one side of a contest has done in the current round."""

    side: str
    name: str
    character: Character | None
    entry: RollEntry | None  # its latest entry this round (a Correct follows the roll)
    settled: bool

    @property
    def rolled(self) -> bool:
        return self.entry is not None


def target_for(contest: Contest, side: str) -> Target:
    character = contest.character(side)
    if character is None:
        raise Refused("This side's character was deleted; the GM can call the contest off.")
    target = find_target(character, contest.skill(side))
    if target is None:
        raise Refused(f"{character.name} has no skill called {contest.skill(side)}.")
    return target


# ---------------------------------------------------------------------------------------------
# Side A's roll panel (a contest where only side A rolls)
# ---------------------------------------------------------------------------------------------


def panel_preset(contest: Contest) -> tuple[dict[str, Any], set[str]]:
    """What side A's roll panel is prefilled with, and which values are locked."""
    return style_of(contest).panel_preset(contest)


def check_single_roll(contest: Contest, character: Character) -> None:
    style_of(contest).check_panel_roll(contest, character)


def rolled_single(contest: Contest, entry: RollEntry, user: User) -> RollEntry | None:
    """Side A's panel roll is in: the verdict, when the style decides at once."""
    return style_of(contest).rolled_from_panel(contest, entry, user)


# ---------------------------------------------------------------------------------------------
# The contest's prompt
# ---------------------------------------------------------------------------------------------


def sides(contest: Contest, entries: list[RollEntry] | None = None) -> list[SideStatus]:
    """Each side's latest entry in the current round (``entries``: the contest's, if loaded)."""
    if entries is None:
        entries = list(contest.entries.order_by("pk"))
    latest: dict[str, RollEntry] = {}
    for entry in entries:
        if entry.info.is_verdict:
            continue
        if entry.options.get("contest_round", contest.round) == contest.round:
            latest[entry.options.get("contest_side", "a")] = entry
    return [
        SideStatus(
            side,
            contest.name_a if side == "a" else contest.name_b,
            contest.character(side),
            latest.get(side),
            contest.settled_a if side == "a" else contest.settled_b,
        )
        for side in SIDES
    ]


def side_status(contest: Contest, side: str) -> SideStatus:
    """One side's status in the current round."""
    return next(s for s in sides(contest) if s.side == side)


def visibility_choices(contest: Contest, membership: Membership) -> list[tuple[str, str]]:
    """Who may see a side's roll, as the roll panel offers it (public or secret for the GM; public,
    GM-only or blind for a player); nothing to choose when the campaign makes every roll public."""
    if contest.campaign.force_public_rolls:
        return []
    return offered_visibilities(gm=membership.is_gm)


def chosen_visibility(contest: Contest, membership: Membership, value: str) -> str:
    """The visibility a side's roll is made with; a choice the member may not make is refused.
    A campaign whose rolls are all public ignores the field, like the roll panel."""
    choices = visibility_choices(contest, membership)
    if not choices:
        return Visibility.PUBLIC
    value = value or Visibility.PUBLIC
    if value not in dict(choices):
        allowed = ", ".join(str(label) for _, label in choices)
        raise Refused(f"Who sees the result: choose one of {allowed}.")
    return value


def roll_side(
    contest: Contest,
    side: str,
    sheet: Any,
    rng: RandomSource,
    user: User,
    *,
    options: Any = None,
    visibility: str = Visibility.PUBLIC,
) -> RollEntry:
    """One side's roll for the current round, on its *locked* sheet, seen by ``visibility``;
    ``options``: what the style's ``side_options`` read from the request."""
    style = style_of(contest)
    status = side_status(contest, side)
    if not style.rolls_here(contest, status):
        raise Refused("Only the acting side rolls in this contest, from its roll panel.")
    if contest.state != ContestState.OPEN:
        raise Refused("This contest is not waiting for rolls.")
    if status.rolled:
        raise Refused(f"{status.name} has already rolled.")
    target = target_for(contest, side)
    aim(rng, target.label)  # what the side's dice are for (its entry's label)
    base = {
        "contest": contest.pk,
        "contest_side": side,
        "contest_round": contest.round,
        "target": target.kind,
        "target_id": target.obj.pk,
    }
    return style.roll_side(
        contest,
        target,
        sheet,
        rng,
        user,
        options=options,
        visibility=visibility,
        base=base,
        opponent=contest.name_b if side == "a" else contest.name_a,
    )


def check_chooser(contest: Contest, side: str, user: User, *entries: RollEntry) -> None:
    """A side's choices (Correct or keep, Willpower, the initiator's pick) are its player's on
    a player character's side, the GM's on an NPC's (rolls/rolling/choosers.py): 403 otherwise.
    ``entries``: the rolls the choice is made on (the side's latest, without any)."""
    character = contest.character(side)
    if character is None:
        return
    if not entries:
        latest = side_status(contest, side).entry
        entries = (latest,) if latest is not None else ()
    choosers.check(user, character, *entries)


def choice_waiting(contest: Contest, status: SideStatus, membership: Membership) -> str:
    """Why ``membership`` may not make this side's choices ("" when they may)."""
    if status.character is None:
        return ""
    entries: tuple[RollEntry, ...] = (status.entry,) if status.entry is not None else ()
    if contest.state == ContestState.CHOOSING:
        # The initiator's pick shows the result: its player picks only if they read every roll
        # that decides it (else the GM settles it, contest_views.HIDDEN_CHOICE).
        entries = tuple(contest.entries.exclude(kind=Kind.CONTEST).order_by("pk"))
    return choosers.waiting(status.character, membership, *entries)


def correct_side(
    contest: Contest, side: str, sheet: Any, rng: RandomSource, user: User
) -> RollEntry:
    """Re-roll this side's roll once before the verdict (Cold Stars step 6)."""
    check_chooser(contest, side, user)
    aim(rng, target_for(contest, side).label)
    return style_of(contest).correct_side(contest, side, sheet, rng, user)


def settle_side(contest: Contest, side: str, user: User) -> RollEntry | None:
    """This side keeps its roll; the contest is decided once every rolling side has."""
    check_chooser(contest, side, user)
    return style_of(contest).settle_side(contest, side, user)


def decide_if_ready(contest: Contest, user: User) -> RollEntry | None:
    """Once every side is in: the verdict entry, a new round (Cogent tie) or the initiator's
    choice (Cold Stars even). Returns the verdict entry when there is one."""
    return style_of(contest).decide_if_ready(contest, user)


def choose(contest: Contest, choice: str, user: User) -> RollEntry:
    """A result that lets the initiator choose (Cold Stars: even, or an all-blank roll)."""
    if contest.state != ContestState.CHOOSING:
        raise Refused("This contest isn't waiting for the initiator's choice.")
    style = style_of(contest)
    if choice not in dict(style.choices):
        raise Refused(style.choice_refusal)
    # The initiator: side A's player, or the GM for an NPC, or when a roll is hidden from them.
    check_chooser(contest, "a", user, *contest.entries.exclude(kind=Kind.CONTEST).order_by("pk"))
    return style.choose(contest, choice, user)


def cancel(contest: Contest) -> None:
    if not contest.is_active:
        raise Refused("This contest is already over.")
    contest.state = ContestState.CANCELLED
    contest.decided_at = timezone.now()
    contest.save(update_fields=["state", "decided_at"])
