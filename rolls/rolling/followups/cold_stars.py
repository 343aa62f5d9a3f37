"""Cold Stars follow-ups: Correct (step 6: the same pool re-rolled for Momentum, once) and the
player's choice on an all-blank result."""

from __future__ import annotations

from log.models import OUTCOME_LABELS, Kind, RollEntry
from rolls.rolling import choosers
from rolls.rolling.display import CERTAIN, percent
from rolls.rolling.followups import FollowUp, FollowUps, SystemFollowUps
from rolls.rolling.outcomes import SUCCESS_OUTCOMES, Outcome, cold_stars_detail, cold_stars_faces
from rules import RandomSource, cold_stars
from sheets.models import ColdStarsSheet


def offers(entry: RollEntry, sheet: ColdStarsSheet) -> list[FollowUp]:
    if entry.contest_id is not None:
        # A passive contest's acting roll: Correct or Keep before the verdict, on the prompt.
        return []
    found = []
    if entry.kind == Kind.ROLL:
        momentum = -cold_stars.CORRECT_COST.momentum
        problem = (
            ""
            if sheet.momentum >= momentum
            else f"Correct needs {momentum} Momentum; you have {sheet.momentum}."
        )
        found.append(
            FollowUp(
                "correct",
                correct_label(entry, momentum),
                problem=problem,
                secondary=entry.outcome in SUCCESS_OUTCOMES,
            )
        )
    if entry.kind in (Kind.ROLL, Kind.CORRECT) and entry.outcome == "choice":
        found += [
            FollowUp("choice", "Take a Costly Success", value="costly_success"),
            FollowUp("choice", "Take a Failure", value="failure"),
        ]
    return found


def correct_label(entry: RollEntry, momentum: int) -> str:
    """Correct's label: what it costs and what it does to this roll — the whole pool rolled
    again, its result replacing this one whatever it is: the exact chances of a better, the same
    and a worse result (§8, "Odds wording"), one line a Discord button holds (80 characters)."""
    cost = f"Correct ({momentum} Momentum)"
    try:
        pool = cold_stars.Pool(entry.pool["ability"], entry.pool["skill"], entry.pool["risk"])
        chances = cold_stars.correct_odds(pool, entry.outcome)
    except (KeyError, TypeError, ValueError):
        return f"{cost}: re-roll the pool"
    # An all-blank result is compared as the Costly success the player can make of it.
    current = OUTCOME_LABELS["costly_success" if entry.outcome == "choice" else entry.outcome]
    better, same, worse = (percent(chances[key]) for key in ("better", "same", "worse"))
    return f"{cost}: {better} better, {same} same, {worse} worse than {current}"


def refusal(entry: RollEntry, name: str) -> str:
    if entry.contest_id is not None:
        return "This roll is one side of a contest: what follows it is on the contest's prompt."
    return ""


def value_refusal(name: str, sheet: ColdStarsSheet) -> str:
    return "Choose a Costly Success or a Failure."


def correct_outcome(
    entry: RollEntry, sheet: ColdStarsSheet, rng: RandomSource, value: str = ""
) -> Outcome:
    """Cold Stars step 6 on a roll read the ordinary way: the same pool re-rolled for 1 Momentum
    (also a passive contest's acting roll, from the contest's prompt)."""
    changes = sheet.apply(cold_stars.CORRECT_COST)
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


def _chooser(entry: RollEntry) -> str:
    """Who made the all-blank choice, as the log says it (rolls/rolling/choosers.py)."""
    character = entry.character
    return "The player" if character and choosers.player_chooses(character, entry) else "The GM"


def choice(entry: RollEntry, sheet: ColdStarsSheet, rng: RandomSource, value: str) -> Outcome:
    return Outcome(
        kind=Kind.CHOICE,
        options=entry.options | {"choice": value},
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=[],
        outcome=value,
        detail=f"{_chooser(entry)} took a {OUTCOME_LABELS[value]} for the all-blank roll.",
        result={},
        odds=CERTAIN,
        resource_changes={},
    )


FOLLOW_UPS: SystemFollowUps = FollowUps(
    offers=offers,
    refusal=refusal,
    value_refusal=value_refusal,
    actions={"correct": correct_outcome, "choice": choice},
    not_offered={
        "correct": "Correct re-rolls a Cold Stars roll, once.",
        "choice": "Only an all-blank Ability + Skill result lets the player choose.",
    },
)
