"""Cogent follow-ups: destiny after the roll, one win per point, up to the rules' limit — on
actions and on assist rolls (Book: "after any d6-based roll"; RULES.md §8), never on conflicts."""

from __future__ import annotations

import live
from log.models import Kind, RollEntry
from rolls.models import Assist
from rolls.rolling.display import CERTAIN
from rolls.rolling.followups import FollowUp, FollowUps, SystemFollowUps
from rolls.rolling.outcomes import (
    SUCCESS_OUTCOMES,
    Outcome,
    assist_detail,
    assist_effect,
    cogent_detail,
    cogent_result,
)
from rules import RandomSource, cogent
from sheets.models import CogentSheet, Refused

# Decision (RULES.md §8, against the Book's "after any d6-based roll"): no destiny after the roll
# on a conflict side's roll, because both sides could otherwise answer each other point for point
# without end. Each side spends destiny before its roll instead.
CONFLICT_REFUSAL = (
    "Destiny after the roll isn't used in a conflict — our Decision (the Book allows it after "
    "any roll), because both sides could otherwise answer each other without end; a side spends "
    "it before its roll, on the contest's prompt."
)


def is_assist(entry: RollEntry) -> bool:
    """An assist roll, or destiny spent after one (it keeps the assist's options)."""
    return entry.kind in (Kind.ASSIST, Kind.DESTINY) and "assist_for" in entry.options


def the_assist(entry: RollEntry) -> Assist | None:
    """The assist row an assist chain's entry belongs to (its first entry is the assist roll)."""
    first: RollEntry | None = entry
    while first is not None and first.kind != Kind.ASSIST:
        first = first.follows  # at most DESTINY_MAX steps: each is a destiny point
    return Assist.objects.filter(entry=first).first() if first is not None else None


def _assist_problem(entry: RollEntry) -> str:
    """Why destiny can't change this assist now: the main roll took it, or it was dropped."""
    assist = the_assist(entry)
    if assist is None or assist.used_by_id is not None:
        return "The assisted roll has already taken this assist; destiny can't change it now."
    if assist.dropped_at is not None:
        return "This assist was dropped; destiny can't change it now."
    if assist.wins >= entry.options["challenge_level"]:
        return f"The assist already gives its most, {assist.wins_text} (at most its CL)."
    return ""


def offers(entry: RollEntry, sheet: CogentSheet) -> list[FollowUp]:
    if entry.kind not in (Kind.ROLL, Kind.DESTINY, Kind.ASSIST):
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
    if is_assist(entry):
        problem = _assist_problem(entry) or problem
        return [FollowUp("destiny", assist_destiny_label(entry), problem=problem)]
    after_success = entry.outcome in SUCCESS_OUTCOMES
    return [FollowUp("destiny", destiny_label(entry), problem=problem, secondary=after_success)]


def _assist_value(entry: RollEntry, destiny_after: int) -> int:
    o = entry.options
    return cogent.assist(
        [die["face"] for die in entry.faces],
        challenge_level=o["challenge_level"],
        destiny_before=o["destiny_before"],
        destiny_after=destiny_after,
    )


def assist_destiny_label(entry: RollEntry) -> str:
    """On an assist roll, +1 win changes what the assist gives the assisted roll."""
    after = entry.result.get("destiny_after", 0)
    now, then = _assist_value(entry, after), _assist_value(entry, after + cogent.DESTINY_COST)
    return f"Spend destiny: +1 win on the assist: {assist_effect(now)} → {assist_effect(then)}"


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
        return CONFLICT_REFUSAL
    return ""


def value_refusal(name: str, sheet: CogentSheet) -> str:
    return "That isn't on offer."


def destiny(entry: RollEntry, sheet: CogentSheet, rng: RandomSource, value: str) -> Outcome:
    if is_assist(entry):
        return destiny_on_assist(entry, sheet)
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
    figures = cogent_result(result, reflexive=o["reflexive"])
    return _destiny_entry(entry, result.outcome, detail, figures, changes)


def _destiny_entry(
    entry: RollEntry,
    outcome: str,
    detail: str,
    figures: dict[str, object],
    changes: dict[str, int],
) -> Outcome:
    """A destiny follow-up's entry: the same dice, read again with one more win."""
    return Outcome(
        kind=Kind.DESTINY,
        options=entry.options,
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=entry.faces,
        outcome=outcome,
        detail=detail,
        result=figures,
        odds=CERTAIN,
        resource_changes=changes,
    )


def destiny_on_assist(entry: RollEntry, sheet: CogentSheet) -> Outcome:
    """Destiny after an assist roll (RULES.md §8): +1 win on the assist roll, so its ± wins (at
    most its CL) change before the assisted roll takes them. The waiting assist is locked and
    changed in the follow-up's transaction; a roll taking it meanwhile is refused (actions.py)."""
    o = entry.options
    after = entry.result.get("destiny_after", 0) + cogent.DESTINY_COST
    first = the_assist(entry)
    row = first and Assist.objects.select_for_update().waiting().filter(pk=first.pk).first()
    if row is None:
        raise Refused(_assist_problem(entry))
    try:
        faces = [die["face"] for die in entry.faces]
        cl, before = o["challenge_level"], o["destiny_before"]
        result = cogent.resolve(
            faces, challenge_level=cl, destiny_before=before, destiny_after=after
        )
        value = cogent.assist(faces, challenge_level=cl, destiny_before=before, destiny_after=after)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    changes = sheet.spend_destiny("You have no destiny points left.")
    Assist.objects.filter(pk=row.pk).update(wins=value)
    live.publish(entry.campaign_id, "sheet", row.assisted_id)
    detail = assist_detail(
        cl,
        o["assist_for"],
        helpers=o.get("further_helpers", 0),
        rolled_wins=result.rolled_wins,
        value=value,
        after=after,
    )
    figures = cogent_result(result, reflexive=False) | {"assist": value}
    return _destiny_entry(entry, result.outcome, detail, figures, changes)


FOLLOW_UPS: SystemFollowUps = FollowUps(
    offers=offers,
    refusal=refusal,
    value_refusal=value_refusal,
    actions={"destiny": destiny},
    not_offered={"destiny": "Destiny after the roll applies to Cogent rolls."},
)
