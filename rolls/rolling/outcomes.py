"""What a roll becomes: the refusal a player reads, the plan a form makes, and the outcome whose
fields go into a log entry (faces, detail, result), worded per system from the engine's results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypedDict

from log.models import OUTCOME_LABELS, Kind, RollEntry
from rolls.rolling.display import fraction_text, percent, success_figures
from rules import cogent, cold_stars, dad6

if TYPE_CHECKING:
    from rolls.rolling.display import Band

SUCCESS_OUTCOMES = RollEntry.SUCCESS_OUTCOMES


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

    @property
    def success_chance(self) -> str:
        """The headline odds beside the Roll button: the chance of any success (critical,
        plain or costly), as the panel words a chance."""
        return success_figures(self.bands)[0]

    @property
    def costly_chance(self) -> str:
        """How much of ``success_chance`` is a Costly success ("" when none), said beside it."""
        return success_figures(self.bands)[1]


@dataclass
class Outcome:
    """The fields of one new log entry, apart from campaign, character, user and chain."""

    kind: str
    options: dict[str, object]
    pool: dict[str, object]
    breakdown: str
    faces: list[dict[str, object]]
    outcome: str
    detail: str
    result: dict[str, object]
    odds: Fraction
    resource_changes: dict[str, int]
    # Every outcome's chance at roll time; None for outcomes that were certain (no dice rolled).
    odds_table: dict[str, Fraction] | None = None

    def fields(self) -> dict[str, object]:
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


class OddsFields(TypedDict):
    """An entry's odds columns, as ``odds_fields`` fills them."""

    odds: str
    odds_display: str
    odds_table: dict[str, str]


def odds_fields(chance: Fraction, table: dict[str, Fraction]) -> OddsFields:
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


def cogent_faces(result: cogent.ActionResult) -> list[dict[str, object]]:
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


def assist_effect(value: int) -> str:
    """What an assist's ± wins do: "no change", "+1 win", "−2 wins"."""
    return "no change" if not value else f"{value:+d} win{'' if abs(value) == 1 else 's'}"


def assist_detail(
    cl: int, name: str, *, helpers: int, rolled_wins: int, value: int, after: int = 0
) -> str:
    """An assist entry's detail (Book): its wins against its CL and the ± wins they give the
    assisted character's (``name``) next action; a group assist's helpers rolled with it."""
    wins = plural(rolled_wins, "win")
    if after:
        wins += f" + {after} destiny"
    detail = f"{wins} vs assist CL {cl}: {assist_effect(value)} for {name}'s next action"
    if helpers:
        detail += f" (a group assist: {plural(helpers, 'more helper')} rolled with it)"
    return detail


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


def dad6_reading(options: dict[str, object]) -> dict[str, Any]:
    """The options a DAD6 roll is read with, as ``resolve`` and ``odds`` take them."""
    reading = {key: options[key] for key in ("competence", "task", "difficulty", "traded_boons")}
    # Entries from before rolled-forward boons existed carry none.
    return reading | {"bonus_boons": options.get("forward_boons", 0)}


def dad6_faces(result: dad6.Result) -> list[dict[str, object]]:
    return [
        {"kind": "d6", "face": face, "value": value, "reading": "boon" if boon else "no_boon"}
        for face, value, boon in zip(result.faces, result.modified, result.boon_dice, strict=True)
    ]


# A roll whose odds of success were 0 has no failure scope (rules.dad6.Result.beyond).
DAD6_BEYOND = "beyond the character (no chance of success)"


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
    if result.beyond:
        return words + f": failure, {DAD6_BEYOND}"
    return words + f": failure, {result.severity} (missed by {result.margin_of_failure})"


def dad6_result(result: dad6.Result) -> dict[str, object]:
    return {
        "boons": result.boons,
        "margin_of_failure": result.margin_of_failure,
        "severity": result.severity,
        "bought_boons": result.bought_boons,
        "extra_boons": result.extra_boons,
        "beyond": result.beyond,
    }


def cold_stars_faces(faces: cold_stars.Faces) -> list[dict[str, object]]:
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


# --- The result card's headline ------------------------------------------------------------------
# Worded when the card is shown, from the entry's stored fields: the words stored in the log are
# hashed into its chain (docs/roll-log.md), so a clearer wording here never touches what was written.


@dataclass(frozen=True)
class Headline:
    """What a result says first: the outcome, its figure ("3 wins vs CL 4") and what it means in
    play ("You fall short by 1.")."""

    title: str
    figure: str = ""
    meaning: str = ""


CONTEST_ROLL_MEANING = "One side of a contest: the verdict compares it with the other side's roll."


def _common_headline(entry: RollEntry) -> Headline | None:
    """The headline of an entry every system words alike, or None."""
    if entry.outcome == "contest_roll":
        return Headline(entry.outcome_label, "", CONTEST_ROLL_MEANING)
    if entry.kind in (Kind.CONTEST, Kind.REVEAL):
        return Headline(entry.outcome_label)  # its detail line says who won, or what was revealed
    return None


def cogent_headline(entry: RollEntry) -> Headline:
    common = _common_headline(entry)
    if common is not None:
        return common
    o, r, title = entry.options, entry.result, entry.outcome_label
    cl = o.get("challenge_level")
    if entry.kind == Kind.AUTO_PASS:
        return Headline(
            title,
            f"{entry.pool.get('dice', 0)}d6 vs CL {cl}",
            "Skill speciality: a pool this big passes a task this easy without rolling.",
        )
    if "wins" not in r or cl is None:
        return Headline(title)
    figure = f"{plural(r['wins'], 'win')} vs CL {cl}"
    if "assist" in r and "assist_for" in o:  # an assist, or destiny spent after it
        who = o["assist_for"]
        effect = assist_effect(r["assist"])
        return Headline(title, figure, f"The assist gives {effect} to {who}'s next action.")
    margin = r.get("margin", r["wins"] - cl)
    if entry.outcome == "success":
        if margin <= 0:
            return Headline(title, figure, "You do it, with no win to spare.")
        return Headline(
            title,
            figure,
            f"You do it with {plural(margin, 'win')} to spare: a scaling check rewards each one.",
        )
    short = f"You fall short by {plural(-margin, 'win')}."
    if entry.outcome == "critical_failure":
        short = "Not a single win: it goes wrong, not merely short."
    level = r.get("injury_level")
    if level:
        name = cogent.INJURY_LEVELS.get(level, "")
        if level >= cogent.DEATHBLOW_VICTORY_LEVELS:
            short += f" Reflexive: the injury is level {level}, a deathblow."
        else:
            short += (
                f" Reflexive: you take a level-{level} injury ({name.lower()}), "
                f"{plural(level, 'die')} off your physical checks."
            )
    return Headline(title, figure, short)


# Book: the failure scope's labels, worst last, as the meaning line explains them.
DAD6_SCOPE = "from Almost! (missed by 1) to DUCK! (missed by 5 or more)"


def dad6_headline(entry: RollEntry) -> Headline:
    common = _common_headline(entry)
    if common is not None:
        return common
    o, r, title = entry.options, entry.result, entry.outcome_label
    if entry.kind == Kind.EXTRA_BOON:
        left = r.get("extra_boons_left", 0)
        return Headline(
            title,
            "",
            f"{plural(left, 'extra boon')} left to spend."
            if left
            else "Every extra boon of this roll is spent.",
        )
    if "boons" not in r or "difficulty" not in o:
        return Headline(title)
    figure = f"{plural(r['boons'], 'boon')} vs Difficulty {o['difficulty']}"
    if entry.outcome == "success":
        extra = r.get("extra_boons") or 0
        meaning = "You do it."
        if r.get("bought_boons"):
            meaning = "You do it, at the price of the bane you accepted."
        if extra:
            meaning += (
                f" {plural(extra, 'extra boon')} to spend: pay down a bane, cut the time taken, "
                "or roll it forward to your next roll."
            )
        return Headline(title, figure, meaning)
    if _dad6_beyond(entry):
        return Headline(
            title,
            figure,
            "Beyond the character: this roll had no chance of success, so the miss has no "
            "scope and no boon can be bought with a bane. The GM may offer a puncher's chance.",
        )
    missed, scope = r.get("margin_of_failure"), r.get("severity")
    if not missed or not scope:
        return Headline(title, figure, "You don't do it.")
    return Headline(
        title,
        figure,
        f"{scope} You missed by {missed}. The failure's scope runs {DAD6_SCOPE}: "
        "the worse the miss, the harder the GM makes it land.",
    )


def _dad6_beyond(entry: RollEntry) -> bool:
    """Were the roll's odds of success 0? Its own figure, or — written before it recorded one —
    its odds table without a success band (a roll's or a bought boon's: the root's table)."""
    if "beyond" in entry.result:
        return bool(entry.result["beyond"])
    table = entry.odds_table if entry.kind == Kind.ROLL else {}
    return bool(table) and "success" not in table


COLD_STARS_MEANINGS: dict[str, str] = {  # Seed: "Result Bands"
    "critical_success": "You succeed and gain a boon: you get what you want, and something extra "
    "breaks your way.",
    "success": "You succeed cleanly: you achieve your immediate goal.",
    "costly_success": "You succeed, but the GM adds a cost: a complication, consequence or price.",
    "failure": "You don't achieve your goal.",
    "critical_failure": "You fail, and something goes wrong beyond an ordinary failure.",
    "choice": "All blanks and no Risk dice: choose a Costly success (you succeed, the GM adds a "
    "cost) or a Failure.",
}


def cold_stars_headline(entry: RollEntry) -> Headline:
    common = _common_headline(entry)
    if common is not None:
        return common
    title, outcome = entry.outcome_label, entry.outcome
    meaning = COLD_STARS_MEANINGS.get(outcome, "")
    if entry.kind == Kind.CHOICE:
        meaning = (
            "You took the cost: you succeed, and the GM adds a complication, consequence or price."
            if outcome == "costly_success"
            else "You chose to fall short rather than pay a cost."
        )
    elif outcome == "costly_success" and entry.pool.get("risk"):
        meaning += " Risk dice were rolled, so the cost is not optional."
    elif entry.kind == Kind.SKIP and outcome == "costly_success":
        meaning += " Your training couldn't cancel all the Risk."
    return Headline(title, "", meaning)
