"""A DAD6 puncher's chance in words and figures (Book, dad6_skill.md; rules: ``rules.dad6.punch``):
what its throws record in the log, what its card says, and what the re-roll and stop offers say —
each re-roll offer with the exact chance, from the engine, that it scores at least one boon.

A puncher's chance is a DAD6 roll whose options say ``punchers_chance``: its first throw is the
roll's own entry, each re-roll and the stop a linked ``punch`` follow-up. Each entry records where
the chance stands (``result``), so the next one reads it from the entry it follows.
"""

from __future__ import annotations

from fractions import Fraction

from log.models import Kind, RollEntry
from rolls.rolling.display import CERTAIN, fraction_text, percent
from rolls.rolling.outcomes import Headline, Outcome, dad6_headline, plural
from rules import RandomSource, dad6

OPTION = "punchers_chance"  # the roll panel's option, and the roll's: this roll is one
ALLOWED = "allow_punchers_chance"  # a GM's call's preset: the panel offers the option
REROLL, STOP = "reroll", "stop"  # the follow-up's values

NOT_A_PUNCH = "Only a DAD6 puncher's chance that scored boons is re-rolled or stopped."


FOLLOW_UP = "punch"  # the follow-up's name (the entry's kind too)


def is_punch(entry: RollEntry) -> bool:
    return bool(entry.options.get(OPTION))


def state(entry: RollEntry) -> dad6.Punch | None:
    """Where the puncher's chance stands at ``entry`` (its first throw or a follow-up), as the
    entry recorded it; None for any other entry, or figures no puncher's chance wrote."""
    if not is_punch(entry):
        return None
    r = entry.result
    try:
        return dad6.Punch(
            difficulty=int(entry.options["difficulty"]),
            faces=tuple(int(die["face"]) for die in entry.faces),
            scored=int(r["scored"]),
            banked=int(r["banked"]),
            throws=int(r["throws"]),
            lost=bool(r["lost"]),
            stopped=bool(r["stopped"]),
        )
    except (KeyError, TypeError, ValueError):
        return None


def chance_words(chance: Fraction) -> str:
    """The exact chance as the panel shows it: the engine's fraction and its percent."""
    return f"{fraction_text(chance)} ({percent(chance)})"


def faces(rolled: tuple[int, ...]) -> list[dict[str, object]]:
    """Each die as the log stores it: only a natural six is a boon."""
    return [
        {
            "kind": "d6",
            "face": face,
            "value": face,
            "reading": "boon" if face == dad6.NATURAL_SIX else "no_boon",
        }
        for face in rolled
    ]


def figures(punch: dad6.Punch) -> dict[str, object]:
    return {
        "boons": punch.banked,
        "banked": punch.banked,
        "scored": punch.scored,
        "throws": punch.throws,
        "lost": punch.lost,
        "stopped": punch.stopped,
    }


def detail(punch: dad6.Punch) -> str:
    """The entry's outcome in words, what it leaves to do included."""
    needed = f"of {punch.difficulty} needed"
    if punch.stopped:
        return f"Puncher's chance stopped: {plural(punch.banked, 'boon')} {needed} counted: {_band(punch)}"
    if punch.lost:
        return "Puncher's chance: the re-roll scored no natural six, every banked boon is lost: failure"
    if punch.over:
        return "Puncher's chance: no natural six, no boon: failure"
    return (
        f"Puncher's chance: {punch.scored} natural six{'' if punch.scored == 1 else 'es'}, "
        f"{plural(punch.banked, 'boon')} banked {needed}; re-roll {plural(punch.reroll_dice, 'die')} "
        f"({chance_words(dad6.punch_chance(punch.reroll_dice))} chance of a boon) or stop"
    )


def _count(boons: int) -> str:
    return f"{plural(boons, 'boon')} {'counts' if boons == 1 else 'count'}"


def _band(punch: dad6.Punch) -> str:
    return "success" if punch.success else "failure"


def outcome(
    punch: dad6.Punch,
    odds: dict[str, Fraction] | None,
    *,
    kind: str,
    options: dict[str, object],
    pool: dict[str, object],
    breakdown: str,
) -> Outcome:
    """The entry of one throw (with its ``odds``) or of the stop (``odds`` None: certain)."""
    return Outcome(
        kind=kind,
        options=options,
        pool=pool,
        breakdown=breakdown,
        faces=faces(punch.faces),
        outcome=punch.outcome,
        detail=detail(punch),
        result=figures(punch),
        odds=odds[punch.outcome] if odds else CERTAIN,
        odds_table=odds,
        resource_changes={},
    )


def throw_pool(dice: int, competence: str) -> dict[str, object]:
    """A throw's pool figures (the shape of every DAD6 pool): nothing traded or rolled forward,
    and nothing added to a die — only a natural six scores."""
    pool: dict[str, object] = dict(dad6.pool_figures(dice, competence=competence))
    return pool | {"die_modifier": 0}


def follow(entry: RollEntry, rng: RandomSource, value: str) -> Outcome:
    """Re-roll the dice that scored, or stop (the follow-up's ``value``); ValueError (the
    engine's words) when the chance is over."""
    before = state(entry)
    if before is None:
        raise ValueError(NOT_A_PUNCH)
    options = entry.options | {"punch": value}
    if value == STOP:
        after = dad6.punch_stop(before)
        return outcome(
            after,
            None,
            kind=Kind.PUNCH,
            options=options,
            pool=entry.pool,
            breakdown=entry.breakdown,
        )
    dice = before.reroll_dice
    dad6.punch_stop(before)  # refuses, in the engine's words, a chance that is over
    after = dad6.punch_again(before, dad6.punch_roll(dice, rng))
    breakdown = (
        f"Puncher's chance re-roll: the {plural(dice, 'die')} that scored, "
        f"{plural(before.banked, 'boon')} banked vs Difficulty {before.difficulty}"
    )
    return outcome(
        after,
        dad6.punch_odds(dice, difficulty=before.difficulty, banked=before.banked),
        kind=Kind.PUNCH,
        options=options,
        pool=throw_pool(dice, str(entry.options.get("competence", "familiar"))),
        breakdown=breakdown,
    )


def offer_labels(punch: dad6.Punch) -> dict[str, str]:
    """The two choices while the chance runs: re-roll (with its exact chance) or stop."""
    dice = punch.reroll_dice
    chance = chance_words(dad6.punch_chance(dice))
    stop_leaves = (
        "a success" if punch.success else f"a failure ({punch.banked} of {punch.difficulty} boons)"
    )
    return {
        REROLL: f"Re-roll {plural(dice, 'die')}: {chance} chance of a boon; "
        f"none loses all {punch.banked}",
        STOP: f"Stop: {_count(punch.banked)} against Difficulty {punch.difficulty} — {stop_leaves}",
    }


def card_headline(entry: RollEntry) -> Headline:
    """A DAD6 entry's headline (the system's ``headline_path``): a puncher's chance's own, any
    other roll's as outcomes words it."""
    if entry.kind in (Kind.ROLL, Kind.PUNCH) and is_punch(entry):
        return headline(entry, entry.outcome_label)
    return dad6_headline(entry)


def headline(entry: RollEntry, title: str) -> Headline:
    """The card's headline of a puncher's chance entry."""
    punch = state(entry)
    if punch is None:
        return Headline(title)
    figure = f"{plural(punch.banked, 'boon')} banked vs Difficulty {punch.difficulty}"
    if punch.stopped:
        meaning = "You stopped: the banked boons count. " + (
            "You do it." if punch.success else "Not enough: you don't do it."
        )
    elif punch.lost:
        meaning = "The re-roll scored no natural six: every banked boon is lost. Cave pugil!"
    elif punch.over:
        meaning = "No natural six: the puncher's chance scored nothing."
    else:
        chance = chance_words(dad6.punch_chance(punch.reroll_dice))
        meaning = (
            f"Re-roll the {plural(punch.reroll_dice, 'die')} that scored for more boons — "
            f"a {chance} chance of at least one; a re-roll without one loses them all — or "
            "stop and count them."
        )
    return Headline(title, figure, meaning)
