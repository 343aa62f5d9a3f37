"""Cogent follow-ups: destiny after the roll, one win per point, up to the rules' limit."""

from __future__ import annotations

from log.models import Kind, RollEntry
from rolls.rolling.display import CERTAIN
from rolls.rolling.followups import FollowUp, FollowUps, SystemFollowUps
from rolls.rolling.outcomes import SUCCESS_OUTCOMES, Outcome, cogent_detail, cogent_result
from rules import RandomSource, cogent
from sheets.models import CogentSheet, Refused


def offers(entry: RollEntry, sheet: CogentSheet) -> list[FollowUp]:
    if entry.kind not in (Kind.ROLL, Kind.DESTINY):
        return []
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
        "" if sheet.destiny_points >= cogent.DESTINY_COST else "You have no destiny points left."
    )
    after_success = entry.outcome in SUCCESS_OUTCOMES
    return [FollowUp("destiny", destiny_label(entry), problem=problem, secondary=after_success)]


def destiny_label(entry: RollEntry) -> str:
    """The destiny follow-up's label: +1 win and what that win does to this roll. After a
    success it still counts (Book: +1 win each; the margin rewards scaling checks), so the label
    says so instead of offering a point as if it could rescue the roll."""
    plain = "Spend destiny: +1 win"
    o, r = entry.options, entry.result
    try:
        now = _reread(entry, r.get("destiny_after", 0))
        then = _reread(entry, r.get("destiny_after", 0) + cogent.DESTINY_COST)
    except (KeyError, ValueError):
        return plain
    if then.success and not now.success:
        return f"{plain}: turns it into a success"
    if now.success:
        return f"{plain}: margin {now.margin} → {then.margin}"
    if o.get("reflexive") and then.injury_level < now.injury_level:
        return f"{plain}: injury level {now.injury_level} → {then.injury_level}"
    if now.critical_failure:
        return f"{plain}: no longer a critical failure, short by {-then.margin}"
    return f"{plain}: short by {-then.margin} instead of {-now.margin}"


def _reread(entry: RollEntry, destiny_after: int) -> cogent.ActionResult:
    o = entry.options
    return cogent.resolve(
        [die["face"] for die in entry.faces],
        challenge_level=o["challenge_level"],
        destiny_before=o["destiny_before"],
        destiny_after=destiny_after,
        assist=o.get("assist", {}).get("wins", 0),
    )


def refusal(entry: RollEntry, name: str) -> str:
    if name == "destiny" and entry.contest_id is not None:
        # Rules at the table: a conflict takes destiny before each side's roll, never after.
        return (
            "Destiny after the roll isn't used in a conflict; a side spends it before its roll, "
            "on the contest's prompt."
        )
    return ""


def value_refusal(name: str, sheet: CogentSheet) -> str:
    return "That isn't on offer."


def destiny(entry: RollEntry, sheet: CogentSheet, rng: RandomSource, value: str) -> Outcome:
    o = entry.options
    after = entry.result.get("destiny_after", 0) + cogent.DESTINY_COST
    try:
        result = cogent.resolve(
            [die["face"] for die in entry.faces],
            challenge_level=o["challenge_level"],
            destiny_before=o["destiny_before"],
            destiny_after=after,
            # The assist the roll took stays in it (the roll form records it in the options).
            assist=o.get("assist", {}).get("wins", 0),
        )
    except ValueError as exc:
        raise Refused(str(exc)) from None
    detail = cogent_detail(result, reflexive=o["reflexive"])
    if result.assist:
        detail += f" ({result.assist:+d} from {o['assist']['by']}'s assist)"
    changes = sheet.spend_destiny("You have no destiny points left.")
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
        resource_changes=changes,
    )


FOLLOW_UPS: SystemFollowUps = FollowUps(
    offers=offers,
    refusal=refusal,
    value_refusal=value_refusal,
    actions={"destiny": destiny},
    not_offered={"destiny": "Destiny after the roll applies to Cogent rolls."},
)
