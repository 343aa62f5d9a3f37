"""DAD6 follow-ups: a boon bought with a bane after a failure, and extra boons spent after a
success (pay down a bane, cut the time taken, roll a boon forward)."""

from __future__ import annotations

from rolls.models import Kind, RollEntry
from rolls.rolling.display import CERTAIN
from rolls.rolling.followups import FollowUp
from rolls.rolling.outcomes import Outcome, dad6_detail, dad6_reading, dad6_result
from rolls.rules import RandomSource, dad6
from sheets.models import DAD6_DEFAULT_BANE, Dad6Sheet, Refused
from sheets.ranges import NAME_MAX_LENGTH


def offers(entry: RollEntry, sheet: Dad6Sheet) -> list[FollowUp]:
    if entry.kind in (Kind.ROLL, Kind.EXTRA_BOON):
        left = _extra_boons_left(entry)
        if left:
            return [
                FollowUp("extra_boon", f"Extra boon: {label}", value=spend, problem=problem)
                for spend, label in dad6.EXTRA_BOON_SPENDS.items()
                # Paying down a bane is offered only when one is in play.
                if spend != "pay_down_bane" or sheet.banes.exists()
                for problem in [_extra_boon_problem(spend, sheet)]
            ]
    if entry.kind == Kind.ROLL and entry.outcome == "failure":
        if _beyond_reach(entry):
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


def refusal(entry: RollEntry, name: str) -> str:
    if name == "buy_boon" and entry.kind == Kind.ROLL:
        return _beyond_reach(entry)
    return ""


def value_refusal(name: str, sheet: Dad6Sheet) -> str:
    return (
        "Spend the extra boon on one of the offers"
        + ("" if sheet.banes.exists() else " (there is no bane in play to pay down)")
        + "."
    )


def _extra_boons_left(entry: RollEntry) -> int:
    """A DAD6 roll's extra boons not yet spent: the roll's own, or what its last spend left."""
    if entry.kind == Kind.EXTRA_BOON:
        left: int = entry.result.get("extra_boons_left", 0)
        return left
    if entry.outcome != "success":
        return 0
    try:
        rolled = dad6.resolve([die["face"] for die in entry.faces], **dad6_reading(entry.options))
    except (ValueError, KeyError, TypeError):  # options a DAD6 roll doesn't record: none left
        return 0
    return rolled.extra_boons


def _extra_boon_problem(spend: str, sheet: Dad6Sheet) -> str:
    if spend == "roll_forward" and sheet.forward_boons >= dad6.BONUS_BOONS_MAX:
        return f"This character already holds {dad6.BONUS_BOONS_MAX} rolled-forward boons."
    return ""


def _beyond_reach(entry: RollEntry) -> str:
    """The engine's reason a DAD6 roll could not have succeeded, or ``""``."""
    try:
        rolled = dad6.resolve([die["face"] for die in entry.faces], **dad6_reading(entry.options))
    except (ValueError, KeyError, TypeError):
        # Unreadable or missing options (an entry not made by the DAD6 panel): no reason of the
        # engine's to give; the generic refusal says the follow-up isn't offered.
        return ""
    return dad6.beyond_reach(rolled)


def buy_boon(entry: RollEntry, sheet: Dad6Sheet, rng: RandomSource, value: str) -> Outcome:
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
        options=entry.options,
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=[],
        outcome=result.outcome,
        detail=dad6_detail(result),
        result=dad6_result(result),
        odds=CERTAIN,
        resource_changes={"banes": 1},
    )


def extra_boon(entry: RollEntry, sheet: Dad6Sheet, rng: RandomSource, spend: str) -> Outcome:
    """Spend one extra boon (Book), on the locked sheet: pay down the oldest bane in play, cut the
    time taken, or roll a boon forward to the character's next roll."""
    try:
        left = dad6.spend_extra_boon(_extra_boons_left(entry), spend)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    changes: dict[str, int] = {}
    what = dad6.EXTRA_BOON_SPENDS[spend]
    if spend == "pay_down_bane":
        what += f" ({sheet.pay_down_bane()})"
        changes["banes"] = -1
    elif spend == "roll_forward":
        changes = sheet.roll_forward()
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


ACTIONS = {"buy_boon": buy_boon, "extra_boon": extra_boon}
