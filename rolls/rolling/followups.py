"""Follow-ups: new, linked entries after a roll. Destiny after a Cogent roll, Correct and the
player's choice in Cold Stars, a boon bought with a bane in DAD6.

Each follow-up names the entry it follows; the log's one-follow-up-per-entry constraint keeps
chains linear, so "Correct once", "one choice" and "one bought boon" hold even for two clicks at
once. Rules come from the engine; resources are checked and spent on the locked sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rolls.models import OUTCOME_LABELS, Kind, RollEntry
from rolls.rolling.display import CERTAIN
from rolls.rolling.outcomes import (
    Outcome,
    Refused,
    apply_cold_stars_change,
    cogent_detail,
    cogent_result,
    cold_stars_detail,
    cold_stars_faces,
    dad6_detail,
    dad6_reading,
    dad6_result,
)
from rolls.rules import cogent, cold_stars, dad6
from sheets.models import DAD6_DEFAULT_BANE, System
from sheets.ranges import NAME_MAX_LENGTH
from sheets.systems import rule_system

CONTEST_ROLL = "contest_roll"  # the outcome of one side's roll in a contest where both roll


@dataclass(frozen=True)
class FollowUp:
    name: str  # URL part: "destiny", "correct", "choice", "buy_boon"
    label: str
    value: str = ""  # for "choice": the outcome picked
    problem: str = ""  # why it can't be done now (shown beside a disabled button)
    asks: str = ""  # the label of a text the player may give as the value (a bane's wording)
    asks_max: int = 0  # that text's longest length


def available(entry: RollEntry, sheet: Any, *, has_follow_up: bool) -> list[FollowUp]:
    """The follow-ups to offer under ``entry`` (for someone allowed to roll its character)."""
    if has_follow_up or entry.character_id is None or entry.outcome == CONTEST_ROLL:
        # A side's roll in a contest where both roll is Corrected or kept from the contest's
        # prompt (rolls/table/contests.py), never from its own card.
        return []
    if entry.system == System.COLD_STARS and entry.contest_id is not None:
        # So is a passive contest's acting roll: Correct or Keep before the verdict, on the prompt.
        return []
    where, keys = rule_system(entry.system).follow_up_reads
    if not all(key in getattr(entry, where) for key in keys):
        return []
    if entry.system == System.COGENT and entry.kind in (Kind.ROLL, Kind.DESTINY):
        used = int(bool(entry.options.get("destiny_before"))) + entry.result.get("destiny_after", 0)
        if used >= cogent.DESTINY_MAX:
            return [
                FollowUp(
                    "destiny",
                    "Spend destiny: +1 win",
                    problem=f"This roll already used {cogent.DESTINY_MAX} destiny points.",
                )
            ]
        problem = (
            ""
            if sheet.destiny_points >= cogent.DESTINY_COST
            else "You have no destiny points left."
        )
        return [FollowUp("destiny", "Spend destiny: +1 win", problem=problem)]
    if entry.system == System.COLD_STARS:
        offers = []
        if entry.kind == Kind.ROLL:
            momentum = -cold_stars.CORRECT_COST.momentum
            problem = (
                ""
                if sheet.momentum >= momentum
                else f"Correct needs {momentum} Momentum; you have {sheet.momentum}."
            )
            offers.append(
                FollowUp(
                    "correct", f"Correct: re-roll the pool ({momentum} Momentum)", problem=problem
                )
            )
        if entry.kind in (Kind.ROLL, Kind.CORRECT) and entry.outcome == "choice":
            offers += [
                FollowUp("choice", "Take a Costly Success", value="costly_success"),
                FollowUp("choice", "Take a Failure", value="failure"),
            ]
        return offers
    if entry.system == System.DAD6 and entry.kind in (Kind.ROLL, Kind.EXTRA_BOON):
        left = _extra_boons_left(entry)
        if left:
            return [
                FollowUp("extra_boon", f"Extra boon: {label}", value=spend, problem=problem)
                for spend, label in dad6.EXTRA_BOON_SPENDS.items()
                # Paying down a bane is offered only when one is in play.
                if spend != "pay_down_bane" or sheet.banes.exists()
                for problem in [_extra_boon_problem(spend, sheet)]
            ]
    if entry.system == System.DAD6 and entry.kind == Kind.ROLL and entry.outcome == "failure":
        if _dad6_beyond_reach(entry):
            return []  # the task was impossible: nothing to buy (the refusal says why)
        return [
            FollowUp(
                "buy_boon",
                "Buy a boon with a bane",
                asks="The bane you accept",
                asks_max=NAME_MAX_LENGTH,
            )
        ]
    return []


def _extra_boons_left(entry: RollEntry) -> int:
    """A DAD6 roll's extra boons not yet spent: the roll's own, or what its last spend left."""
    if entry.kind == Kind.EXTRA_BOON:
        return entry.result.get("extra_boons_left", 0)
    if entry.outcome != "success":
        return 0
    try:
        rolled = dad6.resolve([die["face"] for die in entry.faces], **dad6_reading(entry.options))
    except ValueError:
        return 0
    return rolled.extra_boons


def _extra_boon_problem(spend: str, sheet: Any) -> str:
    if spend == "roll_forward" and sheet.forward_boons >= dad6.BONUS_BOONS_MAX:
        return f"This character already holds {dad6.BONUS_BOONS_MAX} rolled-forward boons."
    return ""


def _dad6_beyond_reach(entry: RollEntry) -> str:
    """The engine's reason a DAD6 roll could not have succeeded, or ``""``."""
    try:
        rolled = dad6.resolve([die["face"] for die in entry.faces], **dad6_reading(entry.options))
    except ValueError:
        return ""  # unreadable options: the follow-up itself refuses with the engine's reason
    return dad6.beyond_reach(rolled)


def _refuse_unless_offered(entry: RollEntry, sheet: Any, name: str, value: str = "") -> None:
    offers = [
        o
        for o in available(entry, sheet, has_follow_up=entry.follow_ups.exists())
        if o.name == name
    ]
    if not offers:
        raise Refused(_not_offered(entry, name))
    if name in ("choice", "extra_boon"):
        # The value is the player's pick: it must be one of those offered, never left out.
        offers = [o for o in offers if o.value == value]
        if not offers and name == "extra_boon":
            raise Refused(
                "Spend the extra boon on one of the offers"
                + ("" if sheet.banes.exists() else " (there is no bane in play to pay down)")
                + "."
            )
        if not offers:
            raise Refused("Choose a Costly Success or a Failure.")
    if offers[0].problem:
        raise Refused(offers[0].problem)


def _not_offered(entry: RollEntry, name: str) -> str:
    if entry.follow_ups.exists():
        return "This roll already has a follow-up; act on the latest entry instead."
    if name == "destiny" and entry.system == System.COGENT and entry.contest_id is not None:
        # Rules at the table: a conflict takes destiny before each side's roll, never after.
        return (
            "Destiny after the roll isn't used in a conflict; a side spends it before its roll, "
            "on the contest's prompt."
        )
    if entry.outcome == CONTEST_ROLL or (
        entry.system == System.COLD_STARS and entry.contest_id is not None
    ):
        return "This roll is one side of a contest: what follows it is on the contest's prompt."
    if name == "buy_boon" and entry.system == System.DAD6 and entry.kind == Kind.ROLL:
        reason = _dad6_beyond_reach(entry)
        if reason:
            return reason
    return {
        "destiny": "Destiny after the roll applies to Cogent rolls.",
        "correct": "Correct re-rolls a Cold Stars roll, once.",
        "choice": "Only an all-blank Ability + Skill result lets the player choose.",
        "buy_boon": "Only a failed DAD6 roll can buy a boon with a bane.",
        "extra_boon": "Only a DAD6 success with boons above its Difficulty has extra boons to spend.",
    }.get(name, "That follow-up doesn't exist.")


def perform(name: str, entry: RollEntry, sheet: Any, rng: Any, value: str = "") -> Outcome:
    """Check and carry out a follow-up on the *locked* ``sheet``; :class:`Refused` if not allowed."""
    _refuse_unless_offered(entry, sheet, name, value)
    if name == "destiny":
        return _destiny(entry, sheet)
    if name == "correct":
        return correct_outcome(entry, sheet, rng)
    if name == "choice":
        return _choice(entry, value)
    if name == "extra_boon":
        return _extra_boon(entry, sheet, value)
    return _buy_boon(entry, sheet, value)


def _destiny(entry: RollEntry, sheet: Any) -> Outcome:
    o = entry.options
    after = entry.result.get("destiny_after", 0) + cogent.DESTINY_COST
    try:
        result = cogent.resolve(
            [die["face"] for die in entry.faces],
            challenge_level=o["challenge_level"],
            destiny_before=o["destiny_before"],
            destiny_after=after,
            # The assist the roll took stays in it (rolls/rolling/forms/ records it in the options).
            assist=o.get("assist", {}).get("wins", 0),
        )
    except ValueError as exc:
        raise Refused(str(exc)) from None
    detail = cogent_detail(result, reflexive=o["reflexive"])
    if result.assist:
        detail += f" ({result.assist:+d} from {o['assist']['by']}'s assist)"
    sheet.destiny_points -= cogent.DESTINY_COST
    sheet.save(update_fields=["destiny_points"])
    return Outcome(
        kind=Kind.DESTINY,
        options=o,
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=entry.faces,  # the same dice, read again with one more win
        outcome=result.outcome,
        detail=detail,
        result=cogent_result(result, reflexive=o["reflexive"]),
        odds=CERTAIN,
        resource_changes={"destiny": -cogent.DESTINY_COST},
    )


def correct_outcome(entry: RollEntry, sheet: Any, rng: Any) -> Outcome:
    """Cold Stars step 6 on a roll read the ordinary way: the same pool re-rolled for 1 Momentum
    (also a passive contest's acting roll, from the contest's prompt)."""
    changes = apply_cold_stars_change(sheet, cold_stars.CORRECT_COST)
    pool = cold_stars.Pool(entry.pool["ability"], entry.pool["skill"], entry.pool["risk"])
    faces = cold_stars.roll(pool, rng)
    outcome = cold_stars.resolve(faces)
    odds = cold_stars.odds(pool)
    return Outcome(
        kind=Kind.CORRECT,
        options=entry.options,
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=cold_stars_faces(faces),
        outcome=outcome,
        detail=cold_stars_detail(faces, outcome),
        result={},
        odds=odds[outcome],
        resource_changes=changes,
        odds_table=odds,
    )


def _choice(entry: RollEntry, value: str) -> Outcome:
    return Outcome(
        kind=Kind.CHOICE,
        options=entry.options | {"choice": value},
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=[],
        outcome=value,
        detail=f"The player took a {OUTCOME_LABELS[value]} for the all-blank roll.",
        result={},
        odds=CERTAIN,
        resource_changes={},
    )


def _buy_boon(entry: RollEntry, sheet: Any, value: str) -> Outcome:
    o = entry.options
    rolled = dad6.resolve([die["face"] for die in entry.faces], **dad6_reading(entry.options))
    try:
        result = dad6.buy_boon(rolled)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    description = " ".join(value.split()) or DAD6_DEFAULT_BANE
    if len(description) > NAME_MAX_LENGTH:
        raise Refused(f"Describe the bane in at most {NAME_MAX_LENGTH} characters.")
    # The bane is put in play on the locked sheet, in the same transaction as the entry.
    sheet.banes.create(description=description)
    return Outcome(
        kind=Kind.BUY_BOON,
        options=o,
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=[],
        outcome=result.outcome,
        detail=dad6_detail(result),
        result=dad6_result(result),
        odds=CERTAIN,
        resource_changes={"banes": 1},
    )


def _extra_boon(entry: RollEntry, sheet: Any, spend: str) -> Outcome:
    """Spend one extra boon (Book), on the locked sheet: pay down the oldest bane in play, cut the
    time taken, or roll a boon forward to the character's next roll."""
    try:
        left = dad6.spend_extra_boon(_extra_boons_left(entry), spend)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    changes: dict[str, int] = {}
    what = dad6.EXTRA_BOON_SPENDS[spend]
    if spend == "pay_down_bane":
        bane = sheet.banes.order_by("pk").first()
        what += f" ({bane.description})"
        bane.delete()
        changes["banes"] = -1
    elif spend == "roll_forward":
        sheet.forward_boons += 1
        sheet.save(update_fields=["forward_boons"])
        changes["forward_boons"] = 1
    return Outcome(
        kind=Kind.EXTRA_BOON,
        options=entry.options | {"spend": spend},
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=[],
        outcome=entry.outcome,
        detail=f"Extra boon spent: {what}; {left} extra boon{'' if left == 1 else 's'} left.",
        result={"spend": spend, "extra_boons_left": left},
        odds=CERTAIN,
        resource_changes=changes,
    )
