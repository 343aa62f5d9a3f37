"""DAD6 Skills: pools of d6 where each die gets competence + task modifiers; a modified 6+ is a boon.

Sources are marked as in RULES.md: Seed (the DAD6 Skills basics page), Book (the DAD6 core framework),
Decision (ours; one constant each).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from ._common import (
    RandomSource,
    binomial_weights,
    check_choice,
    check_faces,
    check_int,
    draw,
    memoised,
    to_fractions,
)
from .creation import Budget, CreationCheck

SIDES = 6
BOON_TARGET = 6  # Book: "the target number is always six"; a modified 7+ counts too

COMPETENCES = ("unfamiliar", "familiar", "trained", "expert", "master")  # Seed
COMPETENCE_BONUS: dict[str, int] = {  # Seed: bonus added to each die
    "unfamiliar": 0,
    "familiar": 0,
    "trained": 1,
    "expert": 2,
    "master": 3,
}
TASKS = ("mundane", "specialized", "expert")  # Seed
TASK_MODIFIER: dict[str, int] = {"mundane": 0, "specialized": -1, "expert": -2}  # Seed

# Seed: class skills are Trained at levels 1–3, Expert from level 4, Master from level 8.
EXPERT_FROM_LEVEL = 4
MASTER_FROM_LEVEL = 8
# Decision: the seed sets no top level; 20 covers any campaign and bounds the pool.
LEVEL_MIN, LEVEL_MAX = 1, 20
# Decision: extra dice (tools, helpers, advantages, doubled time) are counted one by one; 30 is a
# generous ceiling that keeps requests sane.
EXTRA_DICE_MAX = 30
UNFAMILIAR_MIN_DICE = 1  # Decision: halving rounds down, but never below one die
DICE_PER_TRADED_BOON = 8  # Book: every eight dice may be traded for one automatic boon
MAX_POOL = LEVEL_MAX + EXTRA_DICE_MAX
# Decision: difficulty is boons required, default 1, +1 per significant obstacle; 10 is far beyond
# any obstacle count a referee would stack.
DIFFICULTY_MIN, DIFFICULTY_MAX = 1, 10
# Book: the referee adds +1 boon per significant obstacle, active opposition among them.
BOONS_PER_OPPOSING_FACTOR = 1

# Book: failure scope by margin (6 − the closest modified die); 5 or more is "DUCK!".
SEVERITY: dict[int, str] = {1: "Almost!", 2: "Close!", 3: "A miss!", 4: "Lookout!", 5: "DUCK!"}
# Book ("Sell Boons"): a failed Character buys a boon by accepting a bane, one boon per bane; a
# roll still short after one purchase may buy again ("with each transaction, another bane is
# added to the board or advanced").
BOUGHT_BOONS_PER_BANE = 1
# What accepting the bane does (Book: "If a bane is already in play, activate it and progress
# it … If not, create a new bane and put it in play"). Decision: that is the first purchase of a
# roll; each further purchase on the same roll adds another bane.
BANE_PROGRESSES, BANE_ADDED = "progresses", "added"

# Decision (rules at the table): a boon rolled forward from an earlier roll's extra boons adds one
# automatic boon to the character's next roll; a sheet holds at most this many.
BONUS_BOONS_MAX = 10
# Book: extra boons (boons above the Difficulty) can be spent; each spend is one extra boon.
EXTRA_BOON_SPENDS: dict[str, str] = {
    "pay_down_bane": "Pay down a bane",
    "cut_time": "Cut the time taken",
    "roll_forward": "Roll a boon forward",
}


def _check_competence(competence: object) -> str:
    return check_choice(competence, name="Competence", choices=COMPETENCES)


def _check_task(task: object) -> str:
    return check_choice(task, name="Task", choices=TASKS)


def _check_level(level: object) -> int:
    return check_int(level, name="Class level", low=LEVEL_MIN, high=LEVEL_MAX)


def class_skill_competence(level: int) -> str:
    """Seed: the competence a class skill has at this class level."""
    _check_level(level)
    if level >= MASTER_FROM_LEVEL:
        return "master"
    if level >= EXPERT_FROM_LEVEL:
        return "expert"
    return "trained"


def pool_size(*, level: int, competence: str, extra_dice: int = 0) -> int:
    """Seed: class level + extra dice; Unfamiliar halves the final pool (rounded down, at least 1)."""
    _check_level(level)
    _check_competence(competence)
    check_int(extra_dice, name="Extra dice", low=0, high=EXTRA_DICE_MAX)
    dice = level + extra_dice
    if competence == "unfamiliar":
        dice = max(UNFAMILIAR_MIN_DICE, dice // 2)
    return dice


def die_modifier(*, competence: str, task: str = "mundane") -> int:
    """What is added to every die: the competence bonus plus the task modifier."""
    return COMPETENCE_BONUS[_check_competence(competence)] + TASK_MODIFIER[_check_task(task)]


def max_traded_boons(pool: int) -> int:
    return pool // DICE_PER_TRADED_BOON


def dice_rolled(pool: int, *, traded_boons: int = 0) -> int:
    """How many dice are left to roll after trading ``traded_boons`` × 8 dice for boons."""
    check_int(pool, name="Dice pool", low=0, high=MAX_POOL)
    check_int(traded_boons, name="Traded boons", low=0)
    if traded_boons > max_traded_boons(pool):
        raise ValueError(
            f"Trading a boon costs {DICE_PER_TRADED_BOON} dice; a pool of {pool} can trade at most "
            f"{max_traded_boons(pool)}, not {traded_boons}."
        )
    return pool - traded_boons * DICE_PER_TRADED_BOON


def pool_figures(
    pool: int,
    *,
    competence: str,
    task: str = "mundane",
    traded_boons: int = 0,
    bonus_boons: int = 0,
) -> dict[str, int | str]:
    """A pool's figures as every place that shows one gives them (the API's targets list and
    target detail, a roll's entry): the dice before trading, the dice rolled, the boons traded
    and rolled forward, the competence and what is added to each die."""
    return {
        "dice": pool,
        "rolled": dice_rolled(pool, traded_boons=traded_boons),
        "traded_boons": traded_boons,
        "bonus_boons": check_int(bonus_boons, name="Rolled-forward boons", low=0),
        "competence": _check_competence(competence),
        "die_modifier": die_modifier(competence=competence, task=task),
    }


def severity(margin_of_failure: int) -> str:
    """Book: the failure-scope label for a margin of failure (1 or more)."""
    check_int(margin_of_failure, name="Margin of failure", low=1)
    return SEVERITY[min(margin_of_failure, max(SEVERITY))]


@dataclass(frozen=True, slots=True)
class Result:
    faces: tuple[int, ...]
    modified: tuple[int, ...]  # each face + competence bonus + task modifier
    competence: str
    task: str
    difficulty: int
    traded_boons: int
    boons: int  # rolled boons + traded ones
    success: bool
    margin_of_failure: int | None  # None on success
    severity: str | None  # None on success
    bought_boons: int = 0  # boons bought by accepting a bane (see buy_boon)
    bonus_boons: int = 0  # automatic boons rolled forward from an earlier roll
    # The roll's odds of success were 0 (see beyond_reach): its failure has no scope ("Almost!"
    # would say it nearly worked), so margin_of_failure and severity are None.
    beyond: bool = False

    @property
    def extra_boons(self) -> int:
        """Book: the boons above the Difficulty, each of which can be spent (0 on a failure)."""
        return max(0, self.boons - self.difficulty)

    @property
    def outcome(self) -> str:
        """The :func:`odds` band: ``"success"`` or ``"failure"``."""
        return "success" if self.success else "failure"

    @property
    def boon_dice(self) -> tuple[bool, ...]:
        """Per rolled die, whether its modified result scored a boon."""
        return tuple(value >= BOON_TARGET for value in self.modified)


def resolve(
    faces: Iterable[int],
    *,
    competence: str,
    task: str = "mundane",
    difficulty: int = 1,
    traded_boons: int = 0,
    bonus_boons: int = 0,
) -> Result:
    """Read the dice actually rolled (after any trade) against a difficulty in boons.
    ``bonus_boons`` are automatic boons rolled forward from an earlier roll."""
    rolled = check_faces(faces, sides=SIDES)
    if len(rolled) > MAX_POOL:
        raise ValueError(f"A pool has at most {MAX_POOL} dice; {len(rolled)} were given.")
    modifier = die_modifier(competence=competence, task=task)
    check_int(difficulty, name="Difficulty", low=DIFFICULTY_MIN, high=DIFFICULTY_MAX)
    check_int(traded_boons, name="Traded boons", low=0, high=MAX_POOL // DICE_PER_TRADED_BOON)
    check_int(bonus_boons, name="Rolled-forward boons", low=0, high=BONUS_BOONS_MAX)
    modified = tuple(face + modifier for face in rolled)
    boons = traded_boons + bonus_boons + sum(1 for value in modified if value >= BOON_TARGET)
    success = boons >= difficulty
    most = _most_boons(len(rolled), modifier, traded_boons + bonus_boons)
    beyond = most < difficulty
    margin = None
    if not success and not beyond:
        # Book: "use the closest roll" — the best die that did not already score a boon. A
        # possible roll that failed has one: had every die scored, it was beyond reach.
        margin = BOON_TARGET - max(value for value in modified if value < BOON_TARGET)
    return Result(
        faces=rolled,
        modified=modified,
        competence=competence,
        task=task,
        difficulty=difficulty,
        traded_boons=traded_boons,
        bonus_boons=bonus_boons,
        boons=boons,
        success=success,
        margin_of_failure=margin,
        severity=None if margin is None else severity(margin),
        beyond=beyond,
    )


def _most_boons(dice: int, modifier: int, automatic: int) -> int:
    """The most boons a roll can score: its automatic boons plus one per rolled die that can
    reach the target after ``modifier``."""
    return automatic + (dice if _boon_faces(modifier) else 0)


def beyond_reach(result: Result) -> str:
    """Rules at the table (Decision, from the Book's "The challenge is simply beyond them"): a boon
    can be bought with a bane only when the task was possible, i.e. the roll's odds of success were
    above 0. The most the roll could have scored is its traded boons plus one per rolled die that
    can reach the target; when that is below the Difficulty, this returns the reason a GM reads,
    otherwise ``""``."""
    if not isinstance(result, Result):
        raise ValueError(f"beyond_reach takes a Result, not {result!r}.")
    modifier = die_modifier(competence=result.competence, task=result.task)
    most = _most_boons(len(result.faces), modifier, result.traded_boons + result.bonus_boons)
    if most >= result.difficulty:
        return ""
    return (
        f"The challenge was beyond this roll: it could score at most {most} of the "
        f"{result.difficulty} boons needed, so no boon can be bought with a bane."
    )


def bane_accepted(result: Result, *, banes_in_play: int) -> str:
    """What the bane accepted for the next boon ``result`` buys does: the first purchase of a roll
    activates and progresses a bane already in play (:data:`BANE_PROGRESSES`); with none in play,
    and on every further purchase, a new bane is added (:data:`BANE_ADDED`)."""
    if result.bought_boons == 0 and banes_in_play > 0:
        return BANE_PROGRESSES
    return BANE_ADDED


def buy_boon(result: Result) -> Result:
    """Book: a failed Character may buy a boon by accepting a bane: one boon per purchase, the roll
    read again with it (a success if that reaches the difficulty). A roll still short may buy
    again. Refused on a success and when the task was impossible (see :func:`beyond_reach`)."""
    if not isinstance(result, Result):
        raise ValueError(f"buy_boon takes a Result, not {result!r}.")
    if problem := beyond_reach(result):
        raise ValueError(problem)
    if result.success:
        raise ValueError("Only a failed roll can buy a boon with a bane.")
    boons = result.boons + BOUGHT_BOONS_PER_BANE
    success = boons >= result.difficulty
    return replace(
        result,
        boons=boons,
        success=success,
        margin_of_failure=None if success else result.margin_of_failure,
        severity=None if success else result.severity,
        bought_boons=result.bought_boons + BOUGHT_BOONS_PER_BANE,
    )


def _boon_faces(modifier: int) -> int:
    """How many of a d6's faces reach the target after ``modifier``."""
    return max(0, min(SIDES, SIDES - (BOON_TARGET - modifier) + 1))


@memoised
def odds(
    pool: int,
    *,
    competence: str,
    task: str = "mundane",
    difficulty: int = 1,
    traded_boons: int = 0,
    bonus_boons: int = 0,
) -> dict[str, Fraction]:
    """Exact chances of ``"success"`` and ``"failure"``. ``pool`` is the size before trading;
    ``bonus_boons`` (rolled forward) count as boons already scored."""
    rolled = dice_rolled(pool, traded_boons=traded_boons)
    modifier = die_modifier(competence=competence, task=task)
    check_int(difficulty, name="Difficulty", low=DIFFICULTY_MIN, high=DIFFICULTY_MAX)
    check_int(bonus_boons, name="Rolled-forward boons", low=0, high=BONUS_BOONS_MAX)
    needed = difficulty - traded_boons - bonus_boons
    weights = binomial_weights(rolled, _boon_faces(modifier), SIDES)
    success = sum(weights[max(0, needed) :])
    denominator = SIDES**rolled
    return to_fractions({"success": success, "failure": denominator - success}, denominator)


def spend_extra_boon(extra_boons: int, spend: str) -> int:
    """Book: spend one extra boon on ``spend`` (a key of :data:`EXTRA_BOON_SPENDS`); returns how
    many extra boons remain. Refused when none is left."""
    check_choice(spend, name="Extra boon spend", choices=tuple(EXTRA_BOON_SPENDS))
    check_int(extra_boons, name="Extra boons", low=0)
    if extra_boons < 1:
        raise ValueError(
            "No extra boons are left to spend: the roll needs boons above its Difficulty."
        )
    return extra_boons - 1


def opposed_difficulty(difficulty: int = DIFFICULTY_MIN, *, opposition: int) -> int:
    """Book: opposition adds difficulty, +1 boon per opposing factor the referee counts."""
    check_int(difficulty, name="Difficulty", low=DIFFICULTY_MIN, high=DIFFICULTY_MAX)
    check_int(opposition, name="Opposing factors", low=0, high=DIFFICULTY_MAX - DIFFICULTY_MIN)
    raised = difficulty + opposition * BOONS_PER_OPPOSING_FACTOR
    if raised > DIFFICULTY_MAX:
        raise ValueError(
            f"Difficulty {difficulty} with {opposition} opposing factors is {raised} boons; "
            f"the most is {DIFFICULTY_MAX}."
        )
    return raised


def roll(pool: int, rng: RandomSource, *, traded_boons: int = 0) -> tuple[int, ...]:
    """Roll the pool with the injected ``rng``, leaving out 8 dice per traded boon."""
    return draw((("d6", dice_rolled(pool, traded_boons=traded_boons), SIDES),), rng)[0]


# Book (dad6_skill.md, "Giving a puncher's chance"): at the referee's discretion a Character rolls
# their dice as normal and each **natural** six scores a boon (no competence or task modifier
# counts); those boons' dice may be re-rolled for further boons, again and again, until the
# player stops (every banked boon counts against the Difficulty) or a re-roll scores no boon
# ("they lose all the boons they had banked").
NATURAL_SIX = 6


@dataclass(frozen=True, slots=True)
class Punch:
    """A puncher's chance as it stands after one throw (the first roll or a re-roll), or after
    the player stopped."""

    difficulty: int
    faces: tuple[int, ...]  # this throw's dice (none after a stop)
    scored: int  # this throw's natural sixes: the dice the next re-roll throws
    banked: int  # every boon banked so far; 0 once lost
    throws: int  # 1 for the first roll, +1 per re-roll
    lost: bool = False  # a re-roll scored no boon: every banked boon is lost
    stopped: bool = False  # the player stopped: the banked boons count

    @property
    def over(self) -> bool:
        """Nothing more to throw: stopped, lost, or a first roll without a natural six."""
        return self.stopped or self.scored == 0

    @property
    def reroll_dice(self) -> int:
        """How many dice the next re-roll throws: the ones that just scored (0 when over)."""
        return 0 if self.over else self.scored

    @property
    def success(self) -> bool:
        """Whether the banked boons meet the Difficulty, were the player to stop now."""
        return self.banked >= self.difficulty

    @property
    def outcome(self) -> str:
        return "success" if self.success else "failure"


def _naturals(faces: tuple[int, ...]) -> int:
    return sum(1 for face in faces if face == NATURAL_SIX)


def punch(faces: Iterable[int], *, difficulty: int = 1) -> Punch:
    """Book: the puncher's chance's first roll — the pool as normal, each natural six a boon."""
    rolled = check_faces(faces, sides=SIDES)
    if not rolled or len(rolled) > MAX_POOL:
        raise ValueError(f"A puncher's chance rolls 1 to {MAX_POOL} dice, not {len(rolled)}.")
    check_int(difficulty, name="Difficulty", low=DIFFICULTY_MIN, high=DIFFICULTY_MAX)
    scored = _naturals(rolled)
    return Punch(difficulty, rolled, scored, scored, throws=1)


def _check_punch(previous: object, what: str) -> Punch:
    if not isinstance(previous, Punch):
        raise ValueError(f"{what} takes a puncher's chance, not {previous!r}.")
    if previous.stopped:
        raise ValueError("The player stopped this puncher's chance: its boons are counted.")
    if previous.over:
        raise ValueError("This puncher's chance is over: the last throw scored no boon.")
    return previous


def punch_again(previous: Punch, faces: Iterable[int]) -> Punch:
    """Book: re-roll the dice that just scored. Each natural six banks one more boon; a re-roll
    with none loses every boon banked."""
    previous = _check_punch(previous, "A re-roll")
    rolled = check_faces(faces, sides=SIDES)
    if len(rolled) != previous.reroll_dice:
        raise ValueError(
            f"A re-roll throws the {previous.reroll_dice} dice that scored, not {len(rolled)}."
        )
    scored = _naturals(rolled)
    if scored == 0:
        return replace(
            previous, faces=rolled, scored=0, banked=0, throws=previous.throws + 1, lost=True
        )
    return replace(
        previous,
        faces=rolled,
        scored=scored,
        banked=previous.banked + scored,
        throws=previous.throws + 1,
    )


def punch_stop(previous: Punch) -> Punch:
    """Book: the player stops; every banked boon counts against the Difficulty."""
    previous = _check_punch(previous, "Stopping")
    return replace(previous, faces=(), scored=0, stopped=True)


def punch_chance(dice: int) -> Fraction:
    """The exact chance that a re-roll of ``dice`` dice scores at least one boon (a natural six):
    1 − (5/6)^dice."""
    check_int(dice, name="Re-rolled dice", low=1, high=MAX_POOL)
    return 1 - Fraction(SIDES - 1, SIDES) ** dice


@memoised
def punch_odds(dice: int, *, difficulty: int = 1, banked: int = 0) -> dict[str, Fraction]:
    """Exact chances of where a throw of ``dice`` dice leaves a puncher's chance with ``banked``
    boons: ``"success"`` when it scores at least one natural six and the boons then banked meet
    the Difficulty (were the player to stop there), ``"failure"`` otherwise — a throw without a
    six loses everything."""
    check_int(dice, name="Dice", low=1, high=MAX_POOL)
    check_int(difficulty, name="Difficulty", low=DIFFICULTY_MIN, high=DIFFICULTY_MAX)
    check_int(banked, name="Banked boons", low=0)
    needed = max(1, difficulty - banked)
    weights = binomial_weights(dice, 1, SIDES)
    success = sum(weights[needed:])
    denominator = SIDES**dice
    return to_fractions({"success": success, "failure": denominator - success}, denominator)


def punch_roll(dice: int, rng: RandomSource) -> tuple[int, ...]:
    """Throw ``dice`` d6 for a puncher's chance (its first roll or a re-roll)."""
    check_int(dice, name="Dice", low=1, high=MAX_POOL)
    return draw((("d6", dice, SIDES),), rng)[0]


# Character creation. The Seed and the Book set no number of skills: the class decides. The Book's
# sample thief (dad6s_example.md) chooses three class skills at first level; it is shown as an
# example, never checked.
SAMPLE_CLASS_SKILLS = 3


def creation_check(
    *, level: int, class_skills: Sequence[str], other_skills: Sequence[str]
) -> CreationCheck:
    """A new character's class skills and other skills (their competences), as counts and the
    Seed's competence of class skills at this level. DAD6 has no budget to refuse."""
    competence = class_skill_competence(level)
    for other in other_skills:
        check_choice(other, name="Competence", choices=COMPETENCES)
    notes = (
        f"Every roll starts with {level} {'die' if level == 1 else 'dice'}: your class level.",
        f"Class skills at level {level} are {competence.capitalize()} "
        f"(+{COMPETENCE_BONUS[competence]} per die); Expert from level {EXPERT_FROM_LEVEL}, "
        f"Master from level {MASTER_FROM_LEVEL}.",
        f"Your class says how many class skills you take; the rules' sample thief takes "
        f"{SAMPLE_CLASS_SKILLS} at first level.",
    )
    warnings: tuple[str, ...] = ()
    if not class_skills:
        warnings = ("No class skills yet: they are the skills your character is Trained in.",)
    return CreationCheck(
        budgets=(
            Budget("Class skills", len(class_skills)),
            Budget("Other skills", len(other_skills)),
        ),
        warnings=warnings,
        notes=notes,
    )
