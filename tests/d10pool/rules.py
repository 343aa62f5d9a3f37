"""The D10 Pool engine (no Django): roll a pool of d10s; each die showing TARGET or more is a
success; the roll succeeds with at least ``need`` successes. Exact odds are binomial."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from rules import RandomSource, draw

SIDES = 10  # Decision: d10s
TARGET = 7  # Decision: a die showing 7 or more is a success
DICE_MIN, DICE_MAX = 1, 10  # Decision: a skill's pool
NEED_MIN, NEED_MAX = 1, 5  # Decision: the successes a task needs
BONUS_MAX = 5  # Decision: extra dice the situation adds
PUSH_COST = 1  # Decision: a push (re-roll the failed dice) spends one grit
GRIT_MAX = 5  # Decision: the most grit a sheet holds
HIT = Fraction(SIDES - TARGET + 1, SIDES)


@dataclass(frozen=True)
class Result:
    faces: tuple[int, ...]
    need: int

    @property
    def successes(self) -> int:
        return sum(face >= TARGET for face in self.faces)

    @property
    def outcome(self) -> str:
        return "success" if self.successes >= self.need else "failure"


def check_pool(dice: int, *, need: int, bonus: int = 0) -> int:
    if not NEED_MIN <= need <= NEED_MAX:
        raise ValueError(f"Successes needed is {NEED_MIN} to {NEED_MAX}.")
    if not 0 <= bonus <= BONUS_MAX:
        raise ValueError(f"Bonus dice are 0 to {BONUS_MAX}.")
    pool = dice + bonus
    if not DICE_MIN <= pool <= DICE_MAX + BONUS_MAX:
        raise ValueError(f"A pool is {DICE_MIN} to {DICE_MAX + BONUS_MAX} dice.")
    return pool


def roll(pool: int, rng: RandomSource) -> tuple[int, ...]:
    return draw((("d10", pool, SIDES),), rng)[0]


@cache
def distribution(pool: int) -> tuple[Fraction, ...]:
    """The chance of each count of successes, 0 to ``pool``."""
    return tuple(comb(pool, k) * HIT**k * (1 - HIT) ** (pool - k) for k in range(pool + 1))


def odds(pool: int, *, need: int) -> dict[str, Fraction]:
    success = sum(distribution(pool)[need:], Fraction(0))
    return {"success": success, "failure": 1 - success}


def push(faces: tuple[int, ...], rng: RandomSource) -> tuple[int, ...]:
    """Re-roll every failed die once; the successes stand."""
    return tuple(face if face >= TARGET else rng.randint(1, SIDES) for face in faces)


def contest(successes_a: int, successes_b: int) -> str | None:
    """More successes wins; a tie is a new round."""
    if successes_a == successes_b:
        return None
    return "a" if successes_a > successes_b else "b"
