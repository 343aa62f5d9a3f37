"""What a roll becomes: the refusal a player reads, the plan a form makes, and the outcome whose
fields go into a log entry (faces, detail, result), worded per system from the engine's results.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.conf import settings

from rolls.models import OUTCOME_LABELS
from rolls.rolling.display import fraction_text, percent
from rolls.rules import RandomSource, cogent, cold_stars, dad6, system_rng

if TYPE_CHECKING:
    from rolls.rolling.display import Band


@dataclass(frozen=True)
class Action:
    name: str  # "roll", "auto_pass", "skip": the value of the submit button
    label: str
    primary: bool = True


@dataclass(frozen=True)
class Choice:
    """One Cold Stars step-4 option in the side-by-side comparison."""

    value: str
    label: str
    cost: str
    pool: str
    bands: list[Band]
    problem: str  # why it can't be chosen now; empty when it can


@dataclass
class Plan:
    """What the panel shows before the roll, and everything the entry will record."""

    options: dict[str, Any]
    pool: dict[str, Any]
    breakdown: str
    bands: list[Band]
    actions: list[Action]
    notes: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)


@dataclass
class Outcome:
    """The fields of one new log entry, apart from campaign, character, user and chain."""

    kind: str
    options: dict[str, Any]
    pool: dict[str, Any]
    breakdown: str
    faces: list[dict[str, Any]]
    outcome: str
    detail: str
    result: dict[str, Any]
    odds: Fraction
    resource_changes: dict[str, int]
    # Every outcome's chance at roll time; None for outcomes that were certain (no dice rolled).
    odds_table: dict[str, Fraction] | None = None

    def fields(self) -> dict[str, Any]:
        table = self.odds_table or {self.outcome: self.odds}
        return {
            "kind": self.kind,
            "options": self.options,
            "pool": self.pool,
            "breakdown": self.breakdown,
            "faces": self.faces,
            "outcome": self.outcome,
            "outcome_label": OUTCOME_LABELS[self.outcome],
            "detail": self.detail,
            "result": self.result,
            **odds_fields(self.odds, table),
            "resource_changes": {k: v for k, v in self.resource_changes.items() if v},
        }


def odds_fields(chance: Fraction, table: dict[str, Fraction]) -> dict[str, Any]:
    """The chance of what happened and the whole distribution it came from (``odds_table``)."""
    return {
        "odds": fraction_text(chance),
        "odds_display": percent(chance),
        "odds_table": {key: fraction_text(p) for key, p in table.items() if p},
    }


def pool_terms(parts: list[tuple[int, str]]) -> str:
    """[(3, "base"), (2, "Athletics"), (-1, "injury")] → "3 base + 2 Athletics − 1 injury"."""
    words = ""
    for i, (value, name) in enumerate(parts):
        if i and not value:
            continue
        sign = "−" if value < 0 else "+"
        words += f"{value} {name}" if not i else f" {sign} {abs(value)} {name}"
    return words


def plural(count: int, word: str) -> str:
    """3 wins, 1 win, 2 Ability dice, 1 Risk die."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word[: -len('die')] + 'dice' if word.endswith('die') else word + 's'}"


def cogent_faces(result: cogent.ActionResult) -> list[dict[str, Any]]:
    return [
        {
            "kind": "d6",
            "face": face,
            "reading": "win"
            if cogent.is_win(face, destiny_before=result.destiny_before)
            else "loss",
        }
        for face in result.faces
    ]


def cogent_detail(result: cogent.ActionResult, *, reflexive: bool) -> str:
    wins = plural(result.wins, "win")
    if result.destiny_after:
        wins += f" ({result.rolled_wins} rolled + {result.destiny_after} destiny)"
    # The outcome itself is the entry's headline; the detail says by how much.
    words = f"{wins} vs CL {result.challenge_level}"
    if result.success:
        words += f", margin {result.margin}"
    elif not result.critical_failure:  # a critical failure is no wins at all: nothing to add
        words += f", short by {-result.margin}"
    if reflexive and not result.success:
        level = result.injury_level
        words += f". Injury level {level} ({cogent.INJURY_LEVELS[level].lower()})"
    return words


def cogent_result(result: cogent.ActionResult, *, reflexive: bool) -> dict[str, Any]:
    figures = {
        "wins": result.wins,
        "rolled_wins": result.rolled_wins,
        "destiny_after": result.destiny_after,
        "margin": result.margin,
    }
    if reflexive and not result.success:
        figures["injury_level"] = result.injury_level
    return figures


def dad6_reading(options: dict[str, Any]) -> dict[str, Any]:
    """The options a DAD6 roll is read with, as ``resolve`` and ``odds`` take them."""
    reading = {key: options[key] for key in ("competence", "task", "difficulty", "traded_boons")}
    # Entries from before rolled-forward boons existed carry none.
    return reading | {"bonus_boons": options.get("forward_boons", 0)}


def dad6_faces(result: dad6.Result) -> list[dict[str, Any]]:
    return [
        {"kind": "d6", "face": face, "value": value, "reading": "boon" if boon else "no_boon"}
        for face, value, boon in zip(result.faces, result.modified, result.boon_dice, strict=True)
    ]


def dad6_detail(result: dad6.Result) -> str:
    words = f"{plural(result.boons, 'boon')} of {result.difficulty} needed"
    extras = []
    if result.traded_boons:
        extras.append(f"{result.traded_boons} traded for dice")
    if result.bought_boons:
        extras.append(f"{result.bought_boons} bought with a bane")
    if result.bonus_boons:
        extras.append(f"{result.bonus_boons} rolled forward")
    if extras:
        words += f" ({', '.join(extras)})"
    if result.success:
        return words + ": success"
    return words + f": failure, {result.severity} (missed by {result.margin_of_failure})"


def dad6_result(result: dad6.Result) -> dict[str, Any]:
    return {
        "boons": result.boons,
        "margin_of_failure": result.margin_of_failure,
        "severity": result.severity,
        "bought_boons": result.bought_boons,
        "extra_boons": result.extra_boons,
    }


def cold_stars_faces(faces: cold_stars.Faces) -> list[dict[str, Any]]:
    symbols = faces.symbols()
    return [
        {"kind": kind, "face": face, "reading": symbol}
        for kind in ("ability", "skill", "risk")
        for face, symbol in zip(getattr(faces, kind), symbols[kind], strict=True)
    ]


def cold_stars_detail(faces: cold_stars.Faces, outcome: str) -> str:
    symbols = faces.symbols()
    shown = symbols["ability"] + symbols["skill"] + symbols["risk"]
    counts = [
        plural(shown.count(s), name)
        for s, name in (
            ("critical_success", "critical success"),
            ("success", "success"),
            ("failure", "failure"),
            ("critical_failure", "critical failure"),
            ("blank", "blank"),
        )
        if shown.count(s)
    ]
    words = ", ".join(counts).replace("successs", "successes")
    if outcome == "choice":
        words += ": choose a Costly Success or a Failure"
    return words


def dice_rng() -> RandomSource:
    """Production: the OS CSPRNG. Tests set ROLLS_RNG_SEED (never from the environment)."""
    seed = getattr(settings, "ROLLS_RNG_SEED", None)
    return system_rng() if seed is None else random.Random(seed)
