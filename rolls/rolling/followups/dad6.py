"""DAD6 follow-ups: a boon bought with a bane after a failure, extra boons spent after a success
(pay down a bane, cut the time taken, roll a boon forward), and a puncher's chance's re-rolls and
stop (rolls/rolling/punch.py)."""

from __future__ import annotations

from log.models import Kind, RollEntry
from rolls.rolling import punch
from rolls.rolling.display import CERTAIN
from rolls.rolling.followups import FollowUp, FollowUps, SystemFollowUps
from rolls.rolling.outcomes import Outcome, dad6_detail, dad6_reading, dad6_result
from rules import RandomSource, dad6
from sheets.models import DAD6_DEFAULT_BANE, Dad6Sheet, Refused
from sheets.ranges import NAME_MAX_LENGTH

NOT_A_DAD6_ROLL = "This entry's options are not a DAD6 roll's: nothing can be bought with it."


def offers(entry: RollEntry, sheet: Dad6Sheet) -> list[FollowUp]:
    if punch.is_punch(entry):
        return _punch_offers(entry)
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
    if entry.kind in BUYS_FROM and entry.outcome == "failure":
        rolled = _rolled(entry)
        if rolled is None or dad6.beyond_reach(rolled):
            return []  # the task was impossible: nothing to buy (the refusal says why)
        return [_buy_offer(rolled, sheet)]
    return []


# A roll buys its boons one purchase at a time, each following the last while still short.
BUYS_FROM = (Kind.ROLL, Kind.BUY_BOON)


def _buy_offer(rolled: dad6.Result, sheet: Dad6Sheet) -> FollowUp:
    """The purchase, saying what it costs and what it leaves: a bane in play progresses or a
    new one is added, and the roll succeeds or stays short."""
    after = dad6.buy_boon(rolled)
    leaves = (
        "a success"
        if after.success
        else f"still a failure ({after.boons} of {after.difficulty} boons)"
    )
    if bane := _progressed_bane(rolled, sheet):
        return FollowUp("buy_boon", f"Buy a boon: “{bane}” activates and progresses — {leaves}")
    return FollowUp(
        "buy_boon",
        f"Buy a boon with a new bane — {leaves}",
        asks="The bane you accept",
        asks_max=NAME_MAX_LENGTH,
    )


def _progressed_bane(rolled: dad6.Result, sheet: Dad6Sheet) -> str | None:
    """The bane the next purchase of ``rolled`` activates and progresses (the engine's
    :func:`dad6.bane_accepted`): the one last put in play — the GM narrates how it worsens, and
    may edit the sheet's banes — or None when the purchase adds a new bane."""
    bane = sheet.banes.order_by("-pk").first()
    accepted = dad6.bane_accepted(rolled, banes_in_play=int(bane is not None))
    return bane.description if bane is not None and accepted == dad6.BANE_PROGRESSES else None


def _punch_offers(entry: RollEntry) -> list[FollowUp]:
    """While a puncher's chance runs: re-roll the dice that scored, or stop. Nothing else follows
    one (Decision): its boons count against the Difficulty, none is bought or spent."""
    state = punch.state(entry)
    if state is None or state.over:
        return []
    labels = punch.offer_labels(state)
    return [
        FollowUp(punch.FOLLOW_UP, labels[punch.REROLL], value=punch.REROLL),
        FollowUp(punch.FOLLOW_UP, labels[punch.STOP], value=punch.STOP, secondary=True),
    ]


def _punch_refusal(entry: RollEntry, name: str) -> str:
    if name != punch.FOLLOW_UP:
        return (
            "A puncher's chance counts its banked boons against the Difficulty, nothing more: "
            "no boon is bought with a bane or spent after it."
        )
    state = punch.state(entry)
    if state is None:
        return ""
    try:
        dad6.punch_stop(state)
    except ValueError as exc:
        return str(exc)
    return ""


def refusal(entry: RollEntry, name: str) -> str:
    if punch.is_punch(entry):
        return _punch_refusal(entry, name)
    if name == "buy_boon" and entry.kind in BUYS_FROM:
        rolled = _rolled(entry)
        # Unreadable or missing options (an entry not made by the DAD6 panel): no reason of the
        # engine's to give; the generic refusal says the follow-up isn't offered.
        return "" if rolled is None else dad6.beyond_reach(rolled)
    return ""


def value_refusal(name: str, sheet: Dad6Sheet) -> str:
    if name == punch.FOLLOW_UP:
        return f"Choose “{punch.REROLL}” or “{punch.STOP}”."
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


def _rolled(entry: RollEntry) -> dad6.Result | None:
    """The roll as it stands at ``entry``: its root's dice read again with the boons bought so
    far (a purchase's own entry carries no dice), or None for options no DAD6 panel wrote."""
    root = (entry.root if entry.kind == Kind.BUY_BOON else None) or entry
    try:
        rolled = dad6.resolve([die["face"] for die in root.faces], **dad6_reading(entry.options))
        for _ in range(entry.result.get("bought_boons", 0) if root is not entry else 0):
            rolled = dad6.buy_boon(rolled)
    except (ValueError, KeyError, TypeError):
        return None
    return rolled


def buy_boon(entry: RollEntry, sheet: Dad6Sheet, rng: RandomSource, value: str) -> Outcome:
    rolled = _rolled(entry)
    if rolled is None:
        raise Refused(NOT_A_DAD6_ROLL)
    try:
        result = dad6.buy_boon(rolled)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    if bane := _progressed_bane(rolled, sheet):
        # Book: the bane already in play activates and progresses; none is added.
        accepted, changes = f"“{bane}” activates and progresses", {}
    else:
        description = " ".join(value.split()) or DAD6_DEFAULT_BANE
        if len(description) > NAME_MAX_LENGTH:
            raise Refused(f"Describe the bane in at most {NAME_MAX_LENGTH} characters.")
        # The bane is put in play on the locked sheet, in the same transaction as the entry.
        sheet.banes.create(description=description)
        accepted, changes = f"new bane: “{description}”", {"banes": 1}
    return Outcome(
        kind=Kind.BUY_BOON,
        options=entry.options,
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=[],
        outcome=result.outcome,
        detail=f"{dad6_detail(result)}; {accepted}",
        result=dad6_result(result) | {"bane": accepted},
        odds=CERTAIN,
        resource_changes=changes,
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


def punch_follow_up(entry: RollEntry, sheet: Dad6Sheet, rng: RandomSource, value: str) -> Outcome:
    """A puncher's chance re-rolled (its own proven dice) or stopped."""
    try:
        return punch.follow(entry, rng, value)
    except ValueError as exc:
        raise Refused(str(exc)) from None


FOLLOW_UPS: SystemFollowUps = FollowUps(
    offers=offers,
    refusal=refusal,
    value_refusal=value_refusal,
    actions={"buy_boon": buy_boon, "extra_boon": extra_boon, punch.FOLLOW_UP: punch_follow_up},
    not_offered={
        punch.FOLLOW_UP: punch.NOT_A_PUNCH,
        "buy_boon": "Only a failed DAD6 roll can buy a boon with a bane.",
        "extra_boon": "Only a DAD6 success with boons above its Difficulty has extra boons to spend.",
    },
)
