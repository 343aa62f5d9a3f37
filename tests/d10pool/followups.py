"""D10 Pool's one follow-up: push a failed roll — re-roll its failed dice for one grit."""

from __future__ import annotations

from typing import Any

from log.models import Kind, RollEntry
from rolls.rolling.followups import FollowUp, FollowUps, SystemFollowUps
from rolls.rolling.outcomes import Outcome
from rules import RandomSource
from sheets.models import Refused
from tests.d10pool import rules
from tests.d10pool.forms import detail_of, faces_of


def offers(entry: RollEntry, sheet: Any) -> list[FollowUp]:
    if entry.kind != Kind.ROLL or entry.outcome != "failure":
        return []
    problem = "" if sheet.grit >= rules.PUSH_COST else "You have no grit left."
    return [FollowUp("push", "Push: re-roll the failed dice (1 grit)", problem=problem)]


def refusal(entry: RollEntry, name: str) -> str:
    return ""


def value_refusal(name: str, sheet: Any) -> str:
    return "That isn't on offer."


def push(entry: RollEntry, sheet: Any, rng: RandomSource, value: str) -> Outcome:
    if sheet.grit < rules.PUSH_COST:
        raise Refused("You have no grit left.")
    sheet.grit -= rules.PUSH_COST
    sheet.save(update_fields=["grit"])
    need = entry.options["need"]
    pushed = rules.Result(rules.push(tuple(d["face"] for d in entry.faces), rng), need)
    table = rules.odds(len(pushed.faces), need=need)
    return Outcome(
        kind=Kind.CORRECT,
        options=entry.options | {"pushed": True},
        pool=entry.pool,
        breakdown=entry.breakdown + "; pushed",
        faces=faces_of(pushed),
        outcome=pushed.outcome,
        detail=detail_of(pushed),
        result={"successes": pushed.successes},
        odds=table[pushed.outcome],
        resource_changes={"grit": -rules.PUSH_COST},
        odds_table=table,
    )


FOLLOW_UPS: SystemFollowUps = FollowUps(
    offers=offers,
    refusal=refusal,
    value_refusal=value_refusal,
    actions={"push": push},
    not_offered={"push": "Only a failed D10 Pool roll can be pushed."},
)
