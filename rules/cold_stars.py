"""Cold Stars: Ability, Skill and Risk dice on d10s, built, modified once, rolled, corrected once
and resolved in seven steps.

The seed is the only source; everything it leaves open is a Decision (marked), each in one constant
or one function so a GM's request to change it touches one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ._common import RandomSource, check_bool, check_faces, check_int, draw, memoised
from .creation import Budget, CreationCheck, Problem

SIDES = 10

ABILITIES = ("Strength", "Agility", "Intellect", "Presence", "Perception", "Will")  # Seed
ABILITY_MIN, ABILITY_MAX = 1, 5  # Seed
SKILL_MIN, SKILL_MAX = 0, 5  # Seed: trained skills are rated 0–5
RISK_MIN, RISK_MAX = 0, 6  # Seed: the GM sets Risk 0–6
UNTRAINED_RISK = 1  # Seed: untrained adds +1 Risk
DOMAIN_FROM_RANK = 3  # Seed: a domain skill at rank 3+ must declare a domain …
OUTSIDE_DOMAIN_SKILL_CAP = 2  # … and counts as at most 2 outside every declared domain
SKIP_MAX_RISK = 2  # Seed: skipping is allowed with remaining Risk 0–2, not 3+

# Bounds of a Pool, whatever built it: Ability dice only shrink (Willpower turns them into Skill
# dice); Skill dice grow by Willpower up to Ability + Skill; Risk grows by untrained and Press.
POOL_MAX_ABILITY = ABILITY_MAX
POOL_MAX_SKILL = SKILL_MAX + ABILITY_MAX
POOL_MAX_RISK = RISK_MAX + UNTRAINED_RISK + 1

# Resources (Seed for Press, Brace and Correct; Decision for the Willpower rate).
PRESS_MOMENTUM_GAIN = 1
BRACE_MOMENTUM_COST = 2
CORRECT_MOMENTUM_COST = 1
WILLPOWER_COST_PER_DIE = 1

# Decision: the d10 face table (the seed names symbols, not faces).
BLANK, SUCCESS, CRITICAL_SUCCESS, FAILURE, CRITICAL_FAILURE = (
    "blank",
    "success",
    "critical_success",
    "failure",
    "critical_failure",
)
FACE_TABLE: dict[str, tuple[str, ...]] = {
    # index 0 is face 1 … index 9 is face 10
    "ability": (BLANK,) * 5 + (SUCCESS,) * 5,
    "skill": (BLANK,) * 3 + (SUCCESS,) * 6 + (CRITICAL_SUCCESS,),
    "risk": (BLANK,) * 5 + (FAILURE,) * 4 + (CRITICAL_FAILURE,),
}

RESULTS = ("critical_success", "success", "costly_success", "failure", "critical_failure", "choice")


def symbol(kind: str, face: int) -> str:
    """The symbol a die of ``kind`` ("ability", "skill", "risk") shows on a d10 ``face``."""
    if kind not in FACE_TABLE:
        raise ValueError(f"A die is an ability, skill or risk die, not {kind!r}.")
    check_faces((face,), sides=SIDES, name=f"{kind} die")
    return FACE_TABLE[kind][face - 1]


@dataclass(frozen=True, slots=True)
class Pool:
    """Dice to roll. Seed: the pool holds Skill dice or Risk dice, never both."""

    ability: int
    skill: int
    risk: int

    def __post_init__(self) -> None:
        check_int(self.ability, name="Ability dice", low=0, high=POOL_MAX_ABILITY)
        check_int(self.skill, name="Skill dice", low=0, high=POOL_MAX_SKILL)
        check_int(self.risk, name="Risk dice", low=0, high=POOL_MAX_RISK)
        if self.skill and self.risk:
            raise ValueError("A pool never holds Skill and Risk dice together; they cancel first.")
        if not self.ability + self.skill + self.risk:
            raise ValueError("A pool needs at least one die.")

    @property
    def size(self) -> int:
        return self.ability + self.skill + self.risk

    def describe(self) -> str:
        """E.g. "3 Ability + 2 Skill"."""
        parts = [(self.ability, "Ability"), (self.skill, "Skill"), (self.risk, "Risk")]
        return " + ".join(f"{count} {name}" for count, name in parts if count)


def build_pool(
    *,
    ability: int,
    skill: int,
    risk: int,
    trained: bool = True,
    domain_skill: bool = False,
    in_domain: bool = True,
) -> Pool:
    """Seed, step 3: Ability dice; +1 Risk if untrained; the domain cap; then Skill and Risk cancel
    one for one and the remainder becomes Skill dice or Risk dice."""
    check_int(ability, name="Ability", low=ABILITY_MIN, high=ABILITY_MAX)
    check_int(skill, name="Skill rating", low=SKILL_MIN, high=SKILL_MAX)
    check_int(risk, name="Risk", low=RISK_MIN, high=RISK_MAX)
    check_bool(trained, name="Trained")
    check_bool(domain_skill, name="Domain skill")
    check_bool(in_domain, name="In domain")
    if not trained and skill:
        raise ValueError("An untrained skill has no rating; use a Skill rating of 0.")
    effective_skill = counted_skill(skill, domain_skill=domain_skill, in_domain=in_domain)
    effective_risk = risk + (0 if trained else UNTRAINED_RISK)
    net = effective_skill - effective_risk
    return Pool(ability=ability, skill=max(0, net), risk=max(0, -net))


def counted_skill(skill: int, *, domain_skill: bool = False, in_domain: bool = True) -> int:
    """Seed: a domain skill at rank 3+ counts as at most 2 outside every declared domain, with no
    untrained penalty (the character is trained). Every pool and the passive side's Risk read it."""
    check_int(skill, name="Skill rating", low=SKILL_MIN, high=SKILL_MAX)
    domain_skill = check_bool(domain_skill, name="Domain skill")
    outside = not check_bool(in_domain, name="In domain")
    if domain_skill and outside and skill >= DOMAIN_FROM_RANK:
        return min(skill, OUTSIDE_DOMAIN_SKILL_CAP)
    return skill


@dataclass(frozen=True, slots=True)
class ResourceChange:
    """What a modification does to the character's resources (negative = spent)."""

    momentum: int = 0
    willpower: int = 0


def _check_modification(press: object, brace: object, willpower: object) -> tuple[bool, bool, int]:
    press = check_bool(press, name="Press")
    brace = check_bool(brace, name="Brace")
    willpower = check_int(willpower, name="Willpower dice", low=0)
    if press + brace + bool(willpower) > 1:
        raise ValueError("Only one pre-roll modification per roll: Press, Brace or Willpower.")
    return press, brace, willpower


def modify(pool: Pool, *, press: bool = False, brace: bool = False, willpower: int = 0) -> Pool:
    """Seed, step 4: at most one of Press, Brace or a Willpower upgrade of ``willpower`` dice."""
    if not isinstance(pool, Pool):
        raise ValueError(f"modify takes a Pool, not {pool!r}.")
    press, brace, willpower = _check_modification(press, brace, willpower)
    if press:
        # Decision: +1 Risk applies to the built pool, so it cancels a Skill die if there is one.
        if pool.skill:
            return Pool(ability=pool.ability, skill=pool.skill - 1, risk=0)
        return Pool(ability=pool.ability, skill=0, risk=pool.risk + 1)
    if brace:
        if not pool.risk:
            raise ValueError("Brace removes a Risk die, and this pool has none.")
        return Pool(ability=pool.ability, skill=0, risk=pool.risk - 1)
    if willpower:
        # Decision: only without Risk dice (keeps "never both"), at most one die per Ability die.
        if pool.risk:
            raise ValueError("Willpower can't upgrade dice while the pool holds Risk dice.")
        if willpower > pool.ability:
            raise ValueError(
                f"Willpower upgrades Ability dice; this pool has {pool.ability}, not {willpower}."
            )
        return Pool(ability=pool.ability - willpower, skill=pool.skill + willpower, risk=0)
    return pool


def modification_cost(
    *, press: bool = False, brace: bool = False, willpower: int = 0
) -> ResourceChange:
    """The resources one step-4 choice gains or spends, from the constants above."""
    press, brace, willpower = _check_modification(press, brace, willpower)
    if press:
        return ResourceChange(momentum=PRESS_MOMENTUM_GAIN)
    if brace:
        return ResourceChange(momentum=-BRACE_MOMENTUM_COST)
    return ResourceChange(willpower=-WILLPOWER_COST_PER_DIE * willpower)


CORRECT_COST = ResourceChange(momentum=-CORRECT_MOMENTUM_COST)  # Seed, step 6


@dataclass(frozen=True, slots=True)
class Faces:
    """The d10 faces rolled, per die type."""

    ability: tuple[int, ...] = field(default=())
    skill: tuple[int, ...] = field(default=())
    risk: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        for kind in ("ability", "skill", "risk"):
            object.__setattr__(
                self, kind, check_faces(getattr(self, kind), sides=SIDES, name=f"{kind} die")
            )
        if self.skill and self.risk:
            raise ValueError("A roll never holds Skill and Risk dice together.")
        if len(self.ability) > POOL_MAX_ABILITY or len(self.skill) > POOL_MAX_SKILL:
            raise ValueError("More dice than any Cold Stars pool can hold.")
        if len(self.risk) > POOL_MAX_RISK:
            raise ValueError("More Risk dice than any Cold Stars pool can hold.")
        if not (self.ability or self.skill or self.risk):
            raise ValueError("A roll needs at least one die.")

    def symbols(self) -> dict[str, tuple[str, ...]]:
        return {
            kind: tuple(FACE_TABLE[kind][face - 1] for face in getattr(self, kind))
            for kind in ("ability", "skill", "risk")
        }

    @property
    def pool(self) -> Pool:
        return Pool(ability=len(self.ability), skill=len(self.skill), risk=len(self.risk))


def _successes(faces: Faces) -> int:
    symbols = faces.symbols()
    return sum(s in (SUCCESS, CRITICAL_SUCCESS) for s in symbols["ability"] + symbols["skill"])


def resolve(faces: Faces) -> str:
    """Seed, step 7: criticals first, then read by pool type."""
    if not isinstance(faces, Faces):
        raise ValueError(f"resolve takes Faces, not {faces!r}.")
    symbols = faces.symbols()
    if CRITICAL_SUCCESS in symbols["skill"]:
        return "critical_success"
    if CRITICAL_FAILURE in symbols["risk"]:
        return "critical_failure"
    successes = _successes(faces)
    if faces.risk:
        failures = symbols["risk"].count(FAILURE)
        if successes and failures:
            return "costly_success"
        if successes:
            return "success"
        if failures:
            return "failure"
        return "costly_success"  # all blanks under Risk: inaction under pressure is not free
    # Ability + Skill, and (Decision) Ability dice alone.
    return "success" if successes else "choice"


def skip(pool: Pool, *, contested: bool = False, modified: bool = False) -> str:
    """Seed: the player may skip the roll once the pool is known: remaining Risk 0 → Success,
    1–2 → Costly Success; never at Risk 3+ or in a contest (active or passive).

    Decision (rules at the table): skipping is decided on the pool *as built* (step 3), before any
    step-4 choice. ``modified`` says a step-4 choice (Press, Brace, Willpower) was made: then the
    dice are rolled, so Press never yields a free Momentum and Brace never turns a Risk-3 pool
    into a skippable one."""
    if not isinstance(pool, Pool):
        raise ValueError(f"skip takes a Pool, not {pool!r}.")
    if check_bool(contested, name="Contested"):
        raise ValueError("A contested roll can't be skipped: the dice always come out.")
    if check_bool(modified, name="Modified"):
        raise ValueError(
            "A roll can't be skipped after Press, Brace or Willpower: choosing one means "
            "the dice are rolled."
        )
    if pool.risk > SKIP_MAX_RISK:
        raise ValueError(
            f"With {pool.risk} Risk dice left the roll can't be skipped; "
            f"skipping needs {SKIP_MAX_RISK} or fewer."
        )
    return "success" if pool.risk == 0 else "costly_success"


def can_skip(pool: Pool, *, contested: bool = False, modified: bool = False) -> bool:
    try:
        skip(pool, contested=contested, modified=modified)
    except ValueError:
        return False
    return True


def passive_risk(
    *, ability: int, skill: int, domain_skill: bool = False, in_domain: bool = True
) -> int:
    """Seed: the passive side's higher Ability or Skill becomes the acting roll's Risk.

    Decision (contests outside a domain): the passive side's Skill is the one it would roll, so a
    domain skill at rank 3+ outside every declared domain counts as at most 2 here too
    (:func:`counted_skill`)."""
    check_int(ability, name="Passive side's Ability", low=ABILITY_MIN, high=ABILITY_MAX)
    check_int(skill, name="Passive side's Skill", low=SKILL_MIN, high=SKILL_MAX)
    return max(ability, counted_skill(skill, domain_skill=domain_skill, in_domain=in_domain))


@dataclass(frozen=True, slots=True)
class ContestResult:
    successes_a: int
    successes_b: int
    winner: str | None  # "a", "b", or None when exactly even (the initiator chooses)
    band: str | None  # the winner's "critical_success" or "success"; None when even
    margin: int  # successes left to the winner after cancelling


def contest(a: Faces, b: Faces) -> ContestResult:
    """Seed: active vs active. Both roll at Risk 0; successes cancel one for one; the side with
    successes left wins. Decision: the winner's band is Critical Success if it rolled one."""
    for side, faces in (("A", a), ("B", b)):
        if not isinstance(faces, Faces):
            raise ValueError(f"contest takes Faces for side {side}, not {faces!r}.")
        if faces.risk:
            raise ValueError(
                f"Side {side} rolled Risk dice; both sides of a contest roll at Risk 0."
            )
    successes_a, successes_b = _successes(a), _successes(b)
    if successes_a == successes_b:
        return ContestResult(successes_a, successes_b, winner=None, band=None, margin=0)
    winner, faces = ("a", a) if successes_a > successes_b else ("b", b)
    critical = CRITICAL_SUCCESS in faces.symbols()["skill"]
    return ContestResult(
        successes_a,
        successes_b,
        winner=winner,
        band="critical_success" if critical else "success",
        margin=abs(successes_a - successes_b),
    )


# --- exact odds --------------------------------------------------------------------------------
# Per-die face counts out of 10, straight from FACE_TABLE so the table stays the one source.
def _count(kind: str, *symbols: str) -> int:
    return sum(FACE_TABLE[kind].count(s) for s in symbols)


_A_SUCCESS = _count("ability", SUCCESS)
_S_CRIT = _count("skill", CRITICAL_SUCCESS)
_S_HIT = _count("skill", SUCCESS, CRITICAL_SUCCESS)
_R_BLANK = _count("risk", BLANK)
_R_NOT_CRIT = SIDES - _count("risk", CRITICAL_FAILURE)


@memoised
def odds(pool: Pool) -> dict[str, Fraction]:
    """Exact chance of each :func:`resolve` result for this pool (zero-chance results omitted).

    Closed forms, each an independent-dice count over 10**size:
    * Ability + Skill: critical success unless every Skill die avoids 10; "choice" when every die
      is blank; success otherwise.
    * Ability + Risk: critical failure unless every Risk die avoids 10; among the rest, the
      Ability dice either show a success or not, and the Risk dice either show a failure or not.
    """
    if not isinstance(pool, Pool):
        raise ValueError(f"odds takes a Pool, not {pool!r}.")
    a, s, r = pool.ability, pool.skill, pool.risk
    total = SIDES ** (a + s + r)
    a_all_blank = (SIDES - _A_SUCCESS) ** a
    a_any_success = SIDES**a - a_all_blank
    if not r:
        no_crit = (SIDES - _S_CRIT) ** s
        all_blank = a_all_blank * (SIDES - _S_HIT) ** s
        weights = {
            "critical_success": (SIDES**s - no_crit) * SIDES**a,
            "success": no_crit * SIDES**a - all_blank,
            "choice": all_blank,
        }
    else:
        not_crit = _R_NOT_CRIT**r
        no_failure = _R_BLANK**r
        some_failure = not_crit - no_failure
        weights = {
            "success": a_any_success * no_failure,
            "costly_success": a_any_success * some_failure + a_all_blank * no_failure,
            "failure": a_all_blank * some_failure,
            "critical_failure": (SIDES**r - not_crit) * SIDES**a,
        }
    return {key: Fraction(w, total) for key, w in weights.items() if w}


# Decision: how Correct's offer compares a re-roll with the result it replaces (§8, "Odds
# wording"): by the order the bands read, best first; an all-blank result ranks as a Costly
# Success, the best the player can make of it (the step-7 choice).
RESULT_RANK = {
    "critical_success": 0,
    "success": 1,
    "costly_success": 2,
    "choice": 2,
    "failure": 3,
    "critical_failure": 4,
}


def correct_odds(pool: Pool, current: str) -> dict[str, Fraction]:
    """Correct (step 6) against the result it would replace: the exact chances that re-rolling
    ``pool`` does ``"better"``, the ``"same"`` (by :data:`RESULT_RANK`) or ``"worse"``; the
    three sum to 1."""
    if current not in RESULT_RANK:
        raise ValueError(f"{current!r} is not a Cold Stars result.")
    found = dict.fromkeys(("better", "same", "worse"), Fraction(0))
    for result, chance in odds(pool).items():
        rank, against = RESULT_RANK[result], RESULT_RANK[current]
        found["better" if rank < against else "same" if rank == against else "worse"] += chance
    return found


def _success_distribution(pool: Pool) -> list[int]:
    """Weights (over 10**size) of 0..n successes for a pool at Risk 0."""
    weights = [1]
    for hits, count in ((_A_SUCCESS, pool.ability), (_S_HIT, pool.skill)):
        for _ in range(count):
            nxt = [0] * (len(weights) + 1)
            for k, w in enumerate(weights):
                nxt[k] += w * (SIDES - hits)
                nxt[k + 1] += w * hits
            weights = nxt
    return weights


def success_distribution(pool: Pool) -> tuple[Fraction, ...]:
    """Exact chance of exactly 0, 1, …, n successes (critical ones included) for one side of an
    active contest, whose pool holds no Risk dice."""
    if not isinstance(pool, Pool):
        raise ValueError(f"success_distribution takes a Pool, not {pool!r}.")
    if pool.risk:
        raise ValueError("A contest pool has no Risk dice; both sides build at Risk 0.")
    total = SIDES**pool.size
    return tuple(Fraction(w, total) for w in _success_distribution(pool))


def successes(faces: Faces) -> int:
    """Successes and Critical Successes rolled: what cancels one for one in a contest."""
    if not isinstance(faces, Faces):
        raise ValueError(f"successes takes Faces, not {faces!r}.")
    return _successes(faces)


def contest_odds(a: Pool, b: Pool) -> dict[str, Fraction]:
    """Exact chances that side ``"a"`` or ``"b"`` wins an active contest, or that it is ``"even"``."""
    for side, pool in (("A", a), ("B", b)):
        if not isinstance(pool, Pool):
            raise ValueError(f"contest_odds takes a Pool for side {side}, not {pool!r}.")
        if pool.risk:
            raise ValueError(
                f"Side {side}'s pool has Risk dice; both sides of a contest build at Risk 0."
            )
    dist_a, dist_b = _success_distribution(a), _success_distribution(b)
    below = [0]
    for w in dist_b:
        below.append(below[-1] + w)
    a_wins = even = 0
    for k, w in enumerate(dist_a):
        a_wins += w * below[min(k, len(dist_b))]
        even += w * (dist_b[k] if k < len(dist_b) else 0)
    total = SIDES ** (a.size + b.size)
    return {
        "a": Fraction(a_wins, total),
        "b": Fraction(total - a_wins - even, total),
        "even": Fraction(even, total),
    }


def roll(pool: Pool, rng: RandomSource) -> Faces:
    """Roll each die type of ``pool`` with the injected ``rng``."""
    if not isinstance(pool, Pool):
        raise ValueError(f"roll takes a Pool, not {pool!r}.")
    ability, skill, risk = draw(
        (
            ("ability", pool.ability, SIDES),
            ("skill", pool.skill, SIDES),
            ("risk", pool.risk, SIDES),
        ),
        rng,
    )
    return Faces(ability=ability, skill=skill, risk=risk)


def contest_pool(
    *,
    ability: int,
    skill: int,
    trained: bool = True,
    domain_skill: bool = False,
    in_domain: bool = True,
) -> Pool:
    """Seed: in an active contest both sides build at Risk 0 — "pure Ability + Skill dice".
    Decision: so an untrained side rolls its Ability alone, without the +1 Risk. ``in_domain``:
    the GM's word on whether this side acts inside one of its declared domains (the cap of
    :func:`counted_skill` applies outside every one)."""
    pool = build_pool(
        ability=ability,
        skill=skill,
        risk=0,
        trained=trained,
        domain_skill=domain_skill,
        in_domain=in_domain,
    )
    return Pool(ability=pool.ability, skill=pool.skill, risk=0)


# Character creation. The Seed sets no budget for Abilities or Skills; it describes what ratings
# mean, and the rare ones are worth the GM's eye (soft warnings, never refusals).
RARE_ABILITY = 5  # Seed: "A 5 is rare enough that it defines whoever has it"
RARE_SKILL = 5  # Seed: "A 5 is vanishingly rare"


@dataclass(frozen=True)
class SkillChoice:
    """One skill of a new character: untrained (``rating`` None) or trained at ``rating``."""

    key: str  # the caller's name for it, given back in a Problem
    name: str
    rating: int | None
    domain_skill: bool = False
    domains: int = 0


def creation_check(*, abilities: Mapping[str, int], skills: Sequence[SkillChoice]) -> CreationCheck:
    """A new character's Abilities and Skills against the Seed: domain skills rated 3 or more
    name a domain; rare ratings are pointed out. Problems name the skill's ``key``."""
    problems: list[Problem] = []
    warnings: list[str] = []
    for ability, rating in abilities.items():
        check_int(rating, name=ability, low=ABILITY_MIN, high=ABILITY_MAX)
        if rating >= RARE_ABILITY:
            warnings.append(
                f"{ability} {rating} is rare enough to define whoever has it: agree it with your GM."
            )
    trained = [skill for skill in skills if skill.rating is not None]
    for skill in skills:
        if skill.rating is None:
            if skill.domains:
                problems.append(
                    Problem(skill.key, f"{skill.name} is untrained: train it to give it a domain.")
                )
            continue
        check_int(skill.rating, name=skill.name, low=SKILL_MIN, high=SKILL_MAX)
        if skill.domain_skill and skill.rating >= DOMAIN_FROM_RANK and not skill.domains:
            problems.append(
                Problem(
                    skill.key,
                    f"{skill.name} is rated {skill.rating}: from {DOMAIN_FROM_RANK} a domain skill "
                    "needs a domain, a narrower focus.",
                )
            )
        if skill.rating >= RARE_SKILL:
            warnings.append(
                f"{skill.name} {skill.rating} is vanishingly rare (a handful of people alive): "
                "agree it with your GM."
            )
    return CreationCheck(
        budgets=(
            Budget("Ability points", sum(abilities.values())),
            Budget("Trained skills", len(trained)),
            Budget("Skill ranks", sum(skill.rating or 0 for skill in trained)),
        ),
        problems=tuple(problems),
        warnings=tuple(warnings),
        notes=(
            "Most people sit at 1 or 2 in an Ability; 3 or 4 is genuine distinction.",
            "Untrained skills add 1 Risk to their rolls; trained at 0 avoids that. Most working "
            "professionals sit at 1 or 2.",
        ),
    )
