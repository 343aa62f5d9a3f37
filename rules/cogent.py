"""Cogent Roleplay: pools of d6, each 4–6 is a win, wins are counted against a Challenge Level.

Sources are marked as in RULES.md: Seed (the seed text), Book (Cogent Roleplay Community Edition),
Decision (ours; one constant each so a GM's request to change it touches one line).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from ._common import (
    RandomSource,
    binomial_weights,
    check_bool,
    check_choice,
    check_faces,
    check_int,
    draw,
    memoised,
    to_fractions,
)

SIDES = 6
BASE_DICE = 3  # Seed: "base three"
WIN_FACE = 4  # Book: 4–6 is a win
DESTINY_WIN_FACE = 3  # Book: destiny spent before the roll makes 3–6 wins

SKILL_MIN, SKILL_MAX = -1, 4  # Book: core skills −1..4; vocations and sub-skills use 0..4
VOCATION_MIN, VOCATION_MAX = 0, 4  # Book
MAX_SUB_SKILLS = 4  # Book: up to four sub-skills per vocation
# Book: 0 average, 1 professional, 2 world-class; the sheet's one "negative box" allows −1, and some
# settings allow more than 2. Decision: −1..4, the same ceiling as skills.
ATTRIBUTE_MIN, ATTRIBUTE_MAX = -1, 4
DESTINY_MAX = 3  # Book: destiny points 0..3, start at 3
DESTINY_COST = 1  # destiny points spent per use, before or after the roll
# Decision: the largest pool the engine rolls or prices. Far above any sheet (3 + 4 + 3×4 + weapon),
# it only guards the server against absurd requests.
MAX_POOL = 100

CL_MIN, CL_MAX = 1, 8
CHALLENGE_LEVELS: dict[int, str] = {  # Book
    1: "Common",
    2: "Uncommon",
    3: "Specialized",
    4: "Difficult",
    5: "Extremely Difficult",
    6: "Unrealistic",
    7: "Virtually Impossible",
    8: "Inconceivable",
}

SPECIALITY_MIN_POOL = 8  # Book: skill speciality needs 8+ dice …
SPECIALITY_MAX_CL = 3  # … against CL 3 or less
ASSIST_MIN_CL = 3  # Book: the CL of an assist starts at three and is never lower
# Decision: one assist waits for a character at a time and its next action takes it; a second
# while one waits is refused. Several helpers make one group assist (Book, assists.tex "Group
# Assists"): one of them rolls the assist, and each further helper adds a die to that *assist
# roll* (group_assist_dice), never to the main roll, so one waiting assist carries them all.
ASSISTS_PER_ROLL = 1
# Decision: at most this many further helpers on one assist. Far above any table; it only guards
# the pool against absurd requests.
GROUP_HELPERS_MAX = 10
# Decision: an assist applies to the assisted character's next *action* (a roll against a CL,
# combat skills included, as the Book's "skill or combat roll"). A conflict's side (a GM contest,
# or a roll marked contested) takes none: the Book prices a conflict as wins against wins and
# says nothing of assists there, and the engine's conflict() has no assist term.
ASSISTS_IN_CONFLICTS = False

ATTRIBUTES = ("Strength", "Reflex", "Intelligence")  # Book
CORE_SKILLS: dict[str, str] = {  # Book: the 15 core skills and their governing attribute
    "Endurance": "Strength",
    "Athletics": "Strength",
    "Grip": "Strength",
    "Swim": "Strength",
    "Throw": "Strength",
    "Perception": "Reflex",
    "Acrobatics": "Reflex",
    "Ride/Pilot": "Reflex",
    "Sleight of Hand": "Reflex",
    "Stealth": "Reflex",
    "General Knowledge": "Intelligence",
    "Deception": "Intelligence",
    "Infiltration": "Intelligence",
    "Persuasion": "Intelligence",
    "Survival": "Intelligence",
}
COMBAT_SKILLS = (  # Book: the fixed list of combat sub-skills
    "Unarmed",
    "Small",
    "Medium",
    "Large",
    "Reach",
    "Short Stringed",
    "Long Stringed",
    "Hand Ballistic",
    "Shoulder Stocked Ballistic",
    "Heavy Ballistic",
)
WEAPON_BONUSES: dict[str, int] = {  # Book: melee weapon bonus dice; ranged modifiers are free-form
    "Unarmed (ungloved)": -1,
    "Unarmed (gloved)": 0,
    "Small": 0,
    "Medium": 1,
    "Large": 2,
    "Reach": 3,
}
DEATHBLOW_VICTORY_LEVELS = 5  # Book: victory levels run from 1 (minor injury) to 5 (deathblow)
# Book (combat_fundamentals.tex): an injury of level n removes n dice from physical checks, and
# injuries stack in dice (two Medium injuries are −4D6); a level-5 result is a deathblow.
INJURY_LEVELS: dict[int, str] = {1: "Minor", 2: "Medium", 3: "Serious", 4: "Fatal", 5: "Deathblow"}
# Decision (rules at the table, from the Book's "−nD6 to all physical-based dice checks"): the
# physical checks are those governed by Strength or Reflex, and every combat pool.
PHYSICAL_ATTRIBUTES = ("Strength", "Reflex")
# Rules at the table (Book combat_modifiers.tex, as RULES.md §5 lists them): circumstances that add
# dice to a combat roll. Dual wielding is not one of them: it depends on the secondary weapon
# (DUAL_WIELD_DICE).
COMBAT_CIRCUMSTANCES: dict[str, tuple[str, int]] = {
    "high_ground": ("High ground", 2),
    "flanking": ("Flanking", 2),
    "charging": ("Charging", 1),
    "defence": ("Defence roll (scores no victory levels)", 2),
}
# The names dual wielding had as a circumstance before RULES.md §8: refused with a pointer to the
# secondary weapon rather than a bare "not one of".
RETIRED_CIRCUMSTANCES = frozenset({"dual_main", "dual_off"})
# Book (combat_modifiers.tex, "Dual Wielding"): the bonus depends on the weight of the secondary
# weapon — small +2D6, medium +1D6 — keyed by the combat skill that weapon is used with. The
# roll itself uses the primary weapon's skill and bonus, never both weapons'.
DUAL_WIELD_DICE: dict[str, int] = {"Small": 2, "Medium": 1}
# Book: "the character must have at least one proficiency point in both of the weapons".
DUAL_WIELD_MIN_SKILL = 1
DEFENCE = "defence"  # Book: a defence roll adds 2 dice and can achieve no level of victory
# Unequal equipment (Book): the narrator adds or removes dice for the tools at hand, on any roll.
# Decision: −5..+5, enough for "no lock picks" to "a master's kit".
EQUIPMENT_MIN, EQUIPMENT_MAX = -5, 5


def _check_pool(pool: object) -> int:
    return check_int(pool, name="Dice pool", low=0, high=MAX_POOL)


def _check_cl(challenge_level: object, *, low: int = CL_MIN) -> int:
    return check_int(challenge_level, name="Challenge Level", low=low, high=CL_MAX)


def _check_destiny(destiny_before: object, destiny_after: object) -> tuple[bool, int]:
    before = check_bool(destiny_before, name="Destiny before the roll")
    after = check_int(destiny_after, name="Destiny points spent after the roll", low=0)
    if int(before) + after > DESTINY_MAX:
        raise ValueError(
            f"A character holds at most {DESTINY_MAX} destiny points, so one roll can't use "
            f"{int(before) + after}."
        )
    return before, after


def _check_modifier(modifier: object) -> int:
    # Seed step 4: modifiers only ever remove dice (injuries, characteristics, situations).
    return check_int(modifier, name="Penalty modifier", low=-MAX_POOL, high=0)


def _check_bonus(bonus_dice: object) -> int:
    return check_int(bonus_dice, name="Bonus dice", low=-MAX_POOL, high=MAX_POOL)


def circumstance_dice(circumstances: Iterable[str]) -> int:
    """The dice the combat circumstances add (Book; ``COMBAT_CIRCUMSTANCES``)."""
    chosen = set()
    for name in circumstances:
        if name in RETIRED_CIRCUMSTANCES:
            raise ValueError(
                "Dual wielding is no longer a circumstance: choose the secondary weapon "
                "(Small +2, Medium +1) instead."
            )
        if name not in COMBAT_CIRCUMSTANCES:
            allowed = ", ".join(COMBAT_CIRCUMSTANCES)
            raise ValueError(f"Combat circumstance must be one of {allowed}; {name!r} is not.")
        chosen.add(name)
    return sum(COMBAT_CIRCUMSTANCES[name][1] for name in chosen)


def dual_wield_dice(secondary: str, *, primary_skill: int, secondary_skill: int) -> int:
    """Book (Dual Wielding): the dice a secondary weapon adds to a combat roll — Small +2,
    Medium +1 (``""``: none) — only with a point or more in the combat skills of both weapons.
    ``primary_skill`` is the rolled combat skill's rating, ``secondary_skill`` the character's
    rating in the secondary weapon's skill (Small or Medium)."""
    if secondary in ("", None):
        return 0
    name = check_choice(secondary, name="Secondary weapon", choices=tuple(DUAL_WIELD_DICE))
    primary = check_int(primary_skill, name="Combat skill", low=VOCATION_MIN, high=VOCATION_MAX)
    second = check_int(
        secondary_skill, name=f"{name} combat skill", low=VOCATION_MIN, high=VOCATION_MAX
    )
    if primary < DUAL_WIELD_MIN_SKILL:
        raise ValueError(
            "Dual wielding needs at least one point in the combat skill of the primary weapon "
            "(the skill rolled); this one has none."
        )
    if second < DUAL_WIELD_MIN_SKILL:
        raise ValueError(
            f"Dual wielding a {name.lower()} weapon needs at least one point in the {name} "
            "combat skill; this character has none."
        )
    return DUAL_WIELD_DICE[name]


def equipment_dice(equipment: int) -> int:
    """Unequal equipment (Book): the dice the narrator adds or removes for the tools at hand."""
    return check_int(equipment, name="Unequal equipment", low=EQUIPMENT_MIN, high=EQUIPMENT_MAX)


def pool_size(*, skill: int, attribute: int, modifier: int = 0, bonus_dice: int = 0) -> int:
    """Seed: base three + skill points + governing attribute points − penalties, never below 0.
    ``bonus_dice`` (Book bonus dice: unequal equipment) may add or remove dice."""
    check_int(skill, name="Skill", low=SKILL_MIN, high=SKILL_MAX)
    check_int(attribute, name="Attribute", low=ATTRIBUTE_MIN, high=ATTRIBUTE_MAX)
    _check_modifier(modifier)
    _check_bonus(bonus_dice)
    return max(0, BASE_DICE + skill + attribute + modifier + bonus_dice)


def combat_pool_size(
    *,
    combat_skill: int,
    attributes: Iterable[int],
    weapon_bonus: int = 0,
    modifier: int = 0,
    bonus_dice: int = 0,
) -> int:
    """Seed/Book: combat pools add *all* attribute points, the combat skill and the weapon bonus."""
    check_int(combat_skill, name="Combat skill", low=VOCATION_MIN, high=VOCATION_MAX)
    try:
        ratings = tuple(attributes)
    except TypeError:
        raise ValueError(f"Attributes must be a list of ratings, not {attributes!r}.") from None
    if len(ratings) > len(ATTRIBUTES):
        raise ValueError(
            f"A Cogent character has {len(ATTRIBUTES)} attributes, not {len(ratings)}."
        )
    for rating in ratings:
        check_int(rating, name="Attribute", low=ATTRIBUTE_MIN, high=ATTRIBUTE_MAX)
    check_int(weapon_bonus, name="Weapon bonus", low=-MAX_POOL, high=MAX_POOL)
    _check_modifier(modifier)
    _check_bonus(bonus_dice)
    return max(0, BASE_DICE + combat_skill + sum(ratings) + weapon_bonus + modifier + bonus_dice)


def auto_success(
    pool: int,
    *,
    challenge_level: int,
    duress: bool = False,
    contested: bool = False,
    reflexive: bool = False,
    combat: bool = False,
) -> bool:
    """Book, skill speciality: 8+ dice against CL ≤ 3 pass without rolling, unless contested,
    reflexive or under duress — "aggression such as combat" too, so never a ``combat`` roll."""
    _check_pool(pool)
    _check_cl(challenge_level)
    flags = [
        check_bool(combat, name="Combat"),
        check_bool(duress, name="Duress"),
        check_bool(contested, name="Contested"),
        check_bool(reflexive, name="Reflexive"),
    ]
    return pool >= SPECIALITY_MIN_POOL and challenge_level <= SPECIALITY_MAX_CL and not any(flags)


# Decision (RULES.md §8; the Book counts "your dice pool for a given skill check" and has the
# unequal-equipment bonus or penalty applied "when rolling against the CL"): unequal-equipment
# dice count towards skill speciality's 8, both ways — good tools can make a specialist, and a
# specialist without the right tools may fall below eight.
EQUIPMENT_COUNTS_FOR_SPECIALITY = True


def speciality_pool(pool: int, *, equipment: int = 0) -> int:
    """The dice of ``pool`` (unequal ``equipment`` included) that count towards skill
    speciality's 8 (``EQUIPMENT_COUNTS_FOR_SPECIALITY``)."""
    dice, tools = _check_pool(pool), equipment_dice(equipment)
    return dice if EQUIPMENT_COUNTS_FOR_SPECIALITY else max(0, dice - tools)


def is_win(face: int, *, destiny_before: bool = False) -> bool:
    """Book: whether one d6 face is a win (4–6, or 3–6 with destiny spent before the roll)."""
    check_faces((face,), sides=SIDES)
    threshold = DESTINY_WIN_FACE if check_bool(destiny_before, name="Destiny before") else WIN_FACE
    return face >= threshold


def _count_wins(faces: tuple[int, ...], destiny_before: bool) -> int:
    threshold = DESTINY_WIN_FACE if destiny_before else WIN_FACE
    return sum(1 for face in faces if face >= threshold)


@dataclass(frozen=True, slots=True)
class ActionResult:
    """An unopposed action read against its Challenge Level."""

    faces: tuple[int, ...]
    challenge_level: int
    rolled_wins: int  # wins on the dice alone
    destiny_before: bool
    destiny_after: int
    assist: int
    wins: int  # final: rolled wins + destiny after + assist, never below 0
    success: bool
    critical_failure: bool  # Book: "no wins": on the dice and destiny after, never the assist
    margin: int  # wins − CL; above 0 rewards scaling checks, below 0 is the shortfall

    @property
    def injury_level(self) -> int:
        """Book: a failed reflexive action inflicts an injury of level CL − wins (0 on success),
        capped at 5 (deathblow)."""
        # Rules at the table: at most 5, a deathblow (a CL 8 roll with no wins would say 8).
        if self.success:
            return 0
        return min(DEATHBLOW_VICTORY_LEVELS, self.challenge_level - self.wins)

    @property
    def challenge_name(self) -> str:
        return CHALLENGE_LEVELS[self.challenge_level]

    @property
    def outcome(self) -> str:
        """The :func:`odds` band this result falls in: ``"success"``, ``"failure"`` or
        ``"critical_failure"``."""
        if self.success:
            return "success"
        return "critical_failure" if self.critical_failure else "failure"


def _check_assist(assist: object) -> int:
    return check_int(assist, name="Assist", low=-CL_MAX, high=CL_MAX)


def resolve(
    faces: Iterable[int],
    *,
    challenge_level: int = 1,
    destiny_before: bool = False,
    destiny_after: int = 0,
    assist: int = 0,
) -> ActionResult:
    """Read a rolled pool. ``assist`` is the signed result of :func:`assist` (Book)."""
    rolled = check_faces(faces, sides=SIDES)
    if len(rolled) > MAX_POOL:
        raise ValueError(f"A pool has at most {MAX_POOL} dice; {len(rolled)} were given.")
    _check_cl(challenge_level)
    before, after = _check_destiny(destiny_before, destiny_after)
    _check_assist(assist)
    rolled_wins = _count_wins(rolled, before)
    wins, band = _band(rolled_wins, after, assist, challenge_level)
    return ActionResult(
        faces=rolled,
        challenge_level=challenge_level,
        rolled_wins=rolled_wins,
        destiny_before=before,
        destiny_after=after,
        assist=assist,
        wins=wins,
        success=band == "success",
        critical_failure=band == "critical_failure",
        margin=wins - challenge_level,
    )


def _band(rolled_wins: int, after: int, assist: int, challenge_level: int) -> tuple[int, str]:
    """The wins counted against the CL and the :func:`odds` band (``resolve`` and ``odds``)."""
    wins = max(0, rolled_wins + after + assist)
    if wins >= challenge_level:
        return wins, "success"
    return wins, "critical_failure" if rolled_wins + after == 0 else "failure"


def check_assist_cl(challenge_level: object) -> int:
    """Book: an assist's CL is 3 or more; the GM-readable refusal otherwise."""
    cl = _check_cl(challenge_level)
    if cl < ASSIST_MIN_CL:
        raise ValueError(
            f"An assist is rolled against CL {ASSIST_MIN_CL} or higher (the Book's floor); "
            f"CL {cl} is too low."
        )
    return cl


def group_assist_dice(further_helpers: object) -> int:
    """Book (Group Assists): "Each additional player adds a single dice to the dice pool of the
    player making the assist roll" — the dice a group assist adds to the *assist roll*, one per
    helper beyond the one who rolls it. The main roll gets the assist's ± wins, never dice."""
    return check_int(further_helpers, name="Further helpers", low=0, high=GROUP_HELPERS_MAX)


def _assist_value(wins: int, challenge_level: int) -> int:
    return max(-challenge_level, min(challenge_level, wins - challenge_level))


def assist(
    faces: Iterable[int],
    *,
    challenge_level: int = ASSIST_MIN_CL,
    destiny_before: bool = False,
    destiny_after: int = 0,
) -> int:
    """Book: an assist roll against CL ≥ 3 adds its wins above the CL to the main roll, or
    subtracts its shortfall; either way never more than the assist's CL. Destiny after the
    assist roll (Book: "after any d6-based roll") adds a win each to the assist roll, so it
    changes the ± wins before the main roll takes them."""
    rolled = check_faces(faces, sides=SIDES)
    _check_cl(challenge_level, low=ASSIST_MIN_CL)
    before, after = _check_destiny(destiny_before, destiny_after)
    return _assist_value(_count_wins(rolled, before) + after, challenge_level)


def assist_odds(
    pool: int,
    *,
    challenge_level: int = ASSIST_MIN_CL,
    destiny_before: bool = False,
    destiny_after: int = 0,
    further_helpers: int = 0,
) -> dict[int, Fraction]:
    """Exact chances of each ± wins an assist roll of ``pool`` dice (plus one die per further
    helper of a group assist) gives the main roll: keys −CL..+CL, zero chances left out."""
    _check_cl(challenge_level, low=ASSIST_MIN_CL)
    before, after = _check_destiny(destiny_before, destiny_after)
    dice = _check_pool(pool) + group_assist_dice(further_helpers)
    _check_pool(dice)
    totals: dict[int, int] = {}
    for wins, weight in enumerate(_win_weights(dice, before)):
        value = _assist_value(wins + after, challenge_level)
        totals[value] = totals.get(value, 0) + weight
    return {value: Fraction(weight, SIDES**dice) for value, weight in sorted(totals.items())}


@dataclass(frozen=True, slots=True)
class ConflictResult:
    faces_a: tuple[int, ...]
    faces_b: tuple[int, ...]
    wins_a: int
    wins_b: int
    winner: str | None  # "a", "b", or None: a tie between aware, active sides is re-rolled
    victory_levels: int  # Book: each win above the opponent's is one victory level

    @property
    def tie(self) -> bool:
        return self.winner is None

    @property
    def deathblow(self) -> bool:
        return self.victory_levels >= DEATHBLOW_VICTORY_LEVELS


def conflict(
    faces_a: Iterable[int],
    faces_b: Iterable[int],
    *,
    destiny_before_a: bool = False,
    destiny_before_b: bool = False,
) -> ConflictResult:
    """Book: both sides roll; more wins wins; a tie is re-rolled (``winner`` is None)."""
    rolled_a = check_faces(faces_a, sides=SIDES)
    rolled_b = check_faces(faces_b, sides=SIDES)
    wins_a = _count_wins(
        rolled_a, check_bool(destiny_before_a, name="Side A's destiny before the roll")
    )
    wins_b = _count_wins(
        rolled_b, check_bool(destiny_before_b, name="Side B's destiny before the roll")
    )
    winner = "a" if wins_a > wins_b else "b" if wins_b > wins_a else None
    return ConflictResult(
        faces_a=rolled_a,
        faces_b=rolled_b,
        wins_a=wins_a,
        wins_b=wins_b,
        winner=winner,
        victory_levels=abs(wins_a - wins_b),
    )


def is_physical(attribute: str | None) -> bool:
    """Whether a check governed by ``attribute`` is physical (``None``: a combat pool, which draws
    on every attribute)."""
    if attribute is None:
        return True
    name = check_choice(
        attribute.capitalize() if isinstance(attribute, str) else attribute,
        name="Attribute",
        choices=ATTRIBUTES,
    )
    return name in PHYSICAL_ATTRIBUTES


def injury_dice(levels: Iterable[int], *, attribute: str | None) -> int:
    """The dice a character's injuries remove from a check governed by ``attribute`` (``None`` for
    a combat pool): the sum of the injury levels on physical checks, none on Intelligence checks."""
    total = 0
    for level in levels:
        total += check_int(
            level, name="Injury level", low=min(INJURY_LEVELS), high=max(INJURY_LEVELS)
        )
    return total if is_physical(attribute) else 0


# Decision (RULES.md §8; the Book's disabling characteristics take dice off "all Strength based
# skills and Strength checks"): a disabling characteristic's dice come off the checks governed by
# its attribute only, never off a combat pool — which draws on every attribute and is no one
# attribute's check (injuries, "all physical-based dice checks", do come off it).
DISABILITY_ON_COMBAT = False


def disability_dice(dice_by_attribute: Mapping[str, int], *, attribute: str | None) -> int:
    """The dice disabling characteristics (``dice_by_attribute``: their dice by the attribute
    they affect) take off a check governed by ``attribute`` (``None``: a combat pool)."""
    for dice in dice_by_attribute.values():
        check_int(dice, name="Disabling characteristic dice", low=0, high=MAX_POOL)
    if attribute is None:
        return sum(dice_by_attribute.values()) if DISABILITY_ON_COMBAT else 0
    return dice_by_attribute.get(attribute, 0)


def _win_weights(pool: int, destiny_before: bool) -> list[int]:
    hit_faces = SIDES - (DESTINY_WIN_FACE if destiny_before else WIN_FACE) + 1
    return binomial_weights(pool, hit_faces, SIDES)


@memoised
def odds(
    pool: int,
    *,
    challenge_level: int = 1,
    destiny_before: bool = False,
    destiny_after: int = 0,
    assist: int = 0,
) -> dict[str, Fraction]:
    """Exact chances of ``"success"``, ``"failure"`` and ``"critical_failure"`` (failure excludes
    critical failure), for the same arguments :func:`resolve` takes."""
    _check_pool(pool)
    _check_cl(challenge_level)
    before, after = _check_destiny(destiny_before, destiny_after)
    _check_assist(assist)
    totals = {"success": 0, "failure": 0, "critical_failure": 0}
    for rolled_wins, weight in enumerate(_win_weights(pool, before)):
        totals[_band(rolled_wins, after, assist, challenge_level)[1]] += weight
    return to_fractions(totals, SIDES**pool)


def conflict_odds(
    pool_a: int,
    pool_b: int,
    *,
    destiny_before_a: bool = False,
    destiny_before_b: bool = False,
) -> dict[str, Fraction]:
    """Exact chances that side ``"a"`` or ``"b"`` wins one exchange of a conflict, or that it is a
    ``"tie"`` to re-roll. Over the re-rolls, a's overall chance is ``a / (a + b)``."""
    _check_pool(pool_a)
    _check_pool(pool_b)
    weights_a = _win_weights(
        pool_a, check_bool(destiny_before_a, name="Side A's destiny before the roll")
    )
    weights_b = _win_weights(
        pool_b, check_bool(destiny_before_b, name="Side B's destiny before the roll")
    )
    # below[k] = total weight of b scoring fewer than k wins.
    below = [0]
    for weight in weights_b:
        below.append(below[-1] + weight)
    a_wins = tie = 0
    for wins, weight in enumerate(weights_a):
        less = below[min(wins, len(weights_b))]
        equal = weights_b[wins] if wins < len(weights_b) else 0
        a_wins += weight * less
        tie += weight * equal
    denominator = SIDES ** (pool_a + pool_b)
    return to_fractions({"a": a_wins, "b": denominator - a_wins - tie, "tie": tie}, denominator)


def win_distribution(pool: int, *, destiny_before: bool = False) -> tuple[Fraction, ...]:
    """Exact chance of rolling exactly 0, 1, …, ``pool`` wins: one side's roll in a conflict,
    priced before the other side's dice are known (the log records the chance of the count rolled)."""
    _check_pool(pool)
    before = check_bool(destiny_before, name="Destiny before the roll")
    return tuple(Fraction(w, SIDES**pool) for w in _win_weights(pool, before))


def roll(pool: int, rng: RandomSource) -> tuple[int, ...]:
    """Roll ``pool`` d6 with the injected ``rng`` (production: ``secrets.SystemRandom()``)."""
    return draw((("d6", _check_pool(pool), SIDES),), rng)[0]
