"""How a chance reads on a page: percentages that never round a possible outcome to 0% or an
uncertain one to 100%, exact fractions, and the odds bands in display order.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from log.models import OUTCOME_LABELS, RollEntry
from rules import OUTCOMES_BEST_FIRST

# Display order of the odds bands, best first.
BAND_ORDER = OUTCOMES_BEST_FIRST


CERTAIN = Fraction(1)


def decimal_text(value: Fraction, places: int = 1) -> str:
    """``value`` with ``places`` decimals, rounded half up on the exact fraction: 71.55 → "71.6".
    A float would not do: 0.7155 is 0.71549999… as a binary float, and "71.5" is one tenth off
    the exact chance (docs/rules.md, "Percents")."""
    scale = 10**places
    scaled = (abs(value) * scale * 2 + 1) // 2  # floor(|v| × 10^places + ½): half up
    sign = "-" if value < 0 and scaled else ""
    whole, part = divmod(int(scaled), scale)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


@lru_cache(maxsize=4096)
def percent(chance: Fraction) -> str:
    """A chance for people: one decimal (rounded half up on the exact fraction), never "0.0%"
    for a possible outcome nor "100.0%" for an uncertain one. The one formatter of a chance:
    pages, the API's strings, Discord and the exports all call it. Remembered: a few chances come
    up again and again (every roll records one, every panel and card shows some), and Fraction
    arithmetic is slow."""
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    value = chance * 100
    if value < Fraction(1, 10):
        return "<0.1%"
    if value > Fraction(999, 10):
        return ">99.9%"
    return f"{decimal_text(value)}%"


def fraction_text(chance: Fraction) -> str:
    return f"{chance.numerator}/{chance.denominator}"


@dataclass(frozen=True)
class Band:
    code: str
    label: str
    chance: Fraction
    x: int  # left edge on a 0–1000 scale, for the SVG bar
    width: int

    @property
    def percent(self) -> str:
        return percent(self.chance)

    @property
    def exact(self) -> str:
        return fraction_text(self.chance)


def bands(odds: dict[str, Fraction]) -> list[Band]:
    """The engine's odds as ordered bands with bar geometry. Edges are rounded cumulatively, so
    the widths always add up to the full bar."""
    return list(_bands(tuple(odds.items())))


# Every panel request draws the bands of its pool's odds, and a Cold Stars panel those of each
# option side by side: the same few distributions over and over, each a run of Fraction sums.
@lru_cache(maxsize=1024)
def _bands(items: tuple[tuple[str, Fraction], ...]) -> tuple[Band, ...]:
    odds = dict(items)
    result, cumulative = [], Fraction(0)
    for code in BAND_ORDER:
        chance = odds.get(code, Fraction(0))
        if not chance:
            continue
        left = round(cumulative * 1000)
        cumulative += chance
        result.append(
            Band(code, OUTCOME_LABELS[code], chance, left, round(cumulative * 1000) - left)
        )
    return tuple(result)


def success_figures(bands: list[Band]) -> tuple[str, str]:
    """The chance of any success (critical, plain or costly) and, when part of it is a Costly
    success, that part ("" when none is): one number never hides a worse outcome (§8)."""
    chance = sum((b.chance for b in bands if b.code in RollEntry.SUCCESS_OUTCOMES), Fraction(0))
    costly = sum((b.chance for b in bands if b.code == "costly_success"), Fraction(0))
    return percent(chance), percent(costly) if costly else ""


def success_words(bands: list[Band]) -> str:
    """ "74.0%, including 52.1% Costly success", or "74.0%" when no success is costly."""
    chance, costly = success_figures(bands)
    return f"{chance}, including {costly} Costly success" if costly else chance


def headline(bands: list[Band]) -> str:
    """A sheet row's figure, in the panel's words and numbers: each way of succeeding on its own
    (a Costly success is never counted as a Success without saying so)."""
    parts = [f"{b.percent} {b.label}" for b in bands if b.code.endswith("success") and b.chance]
    return " · ".join(parts) or f"{percent(Fraction(0))} Success"
