"""Helpers shared by the three systems: input checks with GM-readable messages, and dice arithmetic.

Odds are computed with integer weights over a common denominator and turned into one
``Fraction`` at the end, because ``Fraction`` arithmetic inside the inner loops is what
would make odds expensive (the UI recomputes them on every option change).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache, wraps
from math import comb
from typing import Protocol, runtime_checkable


class IntSource(Protocol):
    """A source of one die at a time: ``random.Random`` and ``secrets.SystemRandom`` fit."""

    def randint(self, a: int, b: int) -> int: ...


# A roll's dice as groups of (kind, count, sides), in the order they are drawn and stored.
Groups = tuple[tuple[str, int, int], ...]


@runtime_checkable
class PoolSource(Protocol):
    """A source that must see a roll's whole pool before its first die: the server's verifiable
    dice take the pool as part of their input (docs/verifiable-dice.md)."""

    def draw(self, groups: Groups) -> tuple[tuple[int, ...], ...]: ...


# What ``roll`` takes as its ``rng``: either kind of source.
RandomSource = IntSource | PoolSource


def check_int(value: object, *, name: str, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` if it is a whole number within ``[low, high]``; raise ``ValueError`` if not."""
    # bool is an int subclass; True as a rating is always a caller's mistake.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}.")
    if low is not None and high is not None and not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}; {value} is out of range.")
    if low is not None and value < low:
        raise ValueError(f"{name} must be at least {low}; {value} is too low.")
    if high is not None and value > high:
        raise ValueError(f"{name} must be at most {high}; {value} is too high.")
    return value


def check_bool(value: object, *, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}.")
    return value


def check_choice(value: object, *, name: str, choices: Sequence[str]) -> str:
    # The choices are strings, so a value among them is a string: the isinstance check only lets
    # the type checker see it.
    if not isinstance(value, str) or value not in choices:
        allowed = ", ".join(choices)
        raise ValueError(f"{name} must be one of {allowed}; {value!r} is not.")
    return value


def check_faces(faces: Iterable[object], *, sides: int, name: str = "die") -> tuple[int, ...]:
    """Turn rolled faces into a tuple, refusing anything a real d``sides`` cannot show."""
    if isinstance(faces, str | bytes):
        raise ValueError(f"Faces must be a list of numbers, not {faces!r}.")
    try:
        items = tuple(faces)
    except TypeError:
        raise ValueError(f"Faces must be a list of numbers, not {faces!r}.") from None
    checked: list[int] = []
    for face in items:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise ValueError(f"A d{sides} {name} shows 1 to {sides}; {face!r} is not a face.")
        checked.append(face)
    return tuple(checked)


def binomial_weights(n: int, hit_faces: int, sides: int) -> list[int]:
    """Integer weights of 0..n hits on n dice where ``hit_faces`` of ``sides`` faces hit.

    ``weights[k] / sides**n`` is the chance of exactly k hits.
    """
    miss_faces = sides - hit_faces
    return [comb(n, k) * hit_faces**k * miss_faces ** (n - k) for k in range(n + 1)]


def memoised[**P](func: Callable[P, dict[str, Fraction]]) -> Callable[P, dict[str, Fraction]]:
    """``func`` (a system's odds) with its result remembered per arguments and handed out as a
    new dict on each call. The odds are a function of a few small numbers that a panel and its
    roll ask for again and again, and making their fractions is most of what they cost.

    Arguments are told apart by type as well as value (``True`` is not ``1``), so a wrong type
    is still refused; an argument that can't be a key (unhashable) skips the memory, and
    ``func`` says what is wrong with it. Bounded: 4,096 argument sets per function."""
    cached: Callable[..., dict[str, Fraction]] = lru_cache(maxsize=4096, typed=True)(func)

    @wraps(func)
    def odds(*args: P.args, **kwargs: P.kwargs) -> dict[str, Fraction]:
        try:
            return dict(cached(*args, **kwargs))
        except TypeError:  # unhashable, or func refused a type: func says why
            return func(*args, **kwargs)

    return odds


def to_fractions(weights: dict[str, int], denominator: int) -> dict[str, Fraction]:
    return {key: Fraction(weight, denominator) for key, weight in weights.items()}


def roll_dice(count: int, sides: int, rng: IntSource) -> tuple[int, ...]:
    return tuple(rng.randint(1, sides) for _ in range(count))


def draw(groups: Groups, rng: RandomSource) -> tuple[tuple[int, ...], ...]:
    """Every die of one roll, group by group: all at once from a :class:`PoolSource`, one by one
    from any other source."""
    if isinstance(rng, PoolSource):
        return rng.draw(groups)
    return tuple(roll_dice(count, sides, rng) for _, count, sides in groups)
