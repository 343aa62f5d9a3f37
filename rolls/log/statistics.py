"""Roll statistics: success rate against the odds, a luck figure, and a dice-fairness test.

Pure Python, no Django import (like the rules engine): the views stream rows into
:class:`Tally` and render what it returns. The definitions are documented in docs/log-tools.md;
keep the two in step.

The chi-square survival function is the regularized upper incomplete gamma function
``Q(k/2, x/2)``, computed with its power series where that converges fast (``x < a + 1``) and with
a Lentz continued fraction elsewhere (Numerical Recipes, §6.2) — no SciPy for one function.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from log.models.kinds import kinds_where

# Iteration limits and tolerance of the incomplete gamma evaluations: both converge in well under a
# hundred steps for every df and statistic a roll log produces; the limits only guard bad input.
_MAX_ITERATIONS = 10_000
_EPSILON = 1e-15
_TINY = 1e-300

# Below this expected count per face the chi-square approximation is unreliable (Cochran's rule).
MIN_EXPECTED_PER_FACE = 5

# Entry kinds that throw fresh dice with their own odds (``counts_as_roll``): each is one trial.
# Destiny, choice and a bought boon re-read dice already thrown (their faces repeat the roll's), so
# they are no new trial. Only the app's own kinds count (``register_kind``), so this is fixed.
TRIAL_KINDS = kinds_where(lambda info: info.counts_as_roll)

# The faces of each die kind. All three Cold Stars kinds are fair d10s, so they also pool as "d10".
DIE_SIDES = {"d6": 6, "ability": 10, "skill": 10, "risk": 10}
DIE_GROUP = {"d6": "d6", "ability": "d10", "skill": "d10", "risk": "d10"}
GROUP_SIDES = {"d6": 6, "d10": 10}
DIE_KIND_NAMES = {
    "d6": "d6",
    "d10": "d10 (all kinds)",
    "ability": "d10 Ability dice",
    "skill": "d10 Skill dice",
    "risk": "d10 Risk dice",
}


# ---------------------------------------------------------------------------------------------
# Chi-square
# ---------------------------------------------------------------------------------------------


def regularized_gamma_q(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function (a > 0, x ≥ 0)."""
    if a <= 0:
        raise ValueError("a must be positive.")
    if x < 0:
        raise ValueError("x must not be negative.")
    if x == 0:
        return 1.0
    log_prefactor = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        # Series for P(a, x); Q = 1 − P. Here Q is not tiny, so the subtraction loses nothing.
        term = total = 1.0 / a
        denominator = a
        for _ in range(_MAX_ITERATIONS):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * _EPSILON:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefactor))
    # Continued fraction for Q(a, x), modified Lentz.
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPSILON:
            break
    return min(1.0, math.exp(log_prefactor) * h)


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X ≥ statistic) for X chi-square distributed with ``df`` degrees of freedom: the p-value."""
    if df < 1:
        raise ValueError("Degrees of freedom must be at least 1.")
    if statistic <= 0:
        return 1.0
    return regularized_gamma_q(df / 2, statistic / 2)


@dataclass(frozen=True)
class FaceRow:
    face: int
    observed: int
    expected: float

    @property
    def difference(self) -> float:
        return self.observed - self.expected


@dataclass(frozen=True)
class FairnessTest:
    """Observed face counts of one die kind against the uniform expectation."""

    key: str  # "d6", "d10", "ability", "skill", "risk"
    name: str
    sides: int
    rows: tuple[FaceRow, ...]
    total: int
    statistic: float | None  # Pearson's chi-square; None without any die
    df: int
    p_value: float | None

    @property
    def too_few(self) -> bool:
        """Fewer than 5 expected per face: the p-value is only a rough guide."""
        return self.total < MIN_EXPECTED_PER_FACE * self.sides

    @property
    def dice_needed(self) -> int:
        return MIN_EXPECTED_PER_FACE * self.sides

    @property
    def reading(self) -> str:
        """The p-value in plain words."""
        if self.p_value is None:
            return "No dice of this kind yet."
        if self.p_value < 0.001:
            return "Very unlikely from fair dice (p < 0.001): worth a closer look."
        if self.p_value < 0.05:
            return "Unusual for fair dice (p < 0.05), though 1 fair set in 20 looks like this."
        return "Consistent with fair dice."

    @property
    def chart(self) -> FairnessChart:
        return FairnessChart.for_test(self)


def fairness_test(key: str, counts: Mapping[int, int], sides: int) -> FairnessTest:
    total = sum(counts.get(face, 0) for face in range(1, sides + 1))
    expected = total / sides
    rows = tuple(FaceRow(face, counts.get(face, 0), expected) for face in range(1, sides + 1))
    df = sides - 1
    if total == 0:
        return FairnessTest(key, DIE_KIND_NAMES.get(key, key), sides, rows, 0, None, df, None)
    statistic = sum((row.observed - expected) ** 2 / expected for row in rows)
    return FairnessTest(
        key,
        DIE_KIND_NAMES.get(key, key),
        sides,
        rows,
        total,
        statistic,
        df,
        chi_square_sf(statistic, df),
    )


# ---------------------------------------------------------------------------------------------
# The chart: geometry for a server-side SVG (the template only draws what this computes)
# ---------------------------------------------------------------------------------------------

# The chart's own units. An SVG scales its text with it, so the drawing is about as wide as a
# phone's column (358 px at 390 px): at 11 units the axis labels stay at 12 px or more there, and
# the laptop layout caps the chart's width (static/css/poolside.css) so they don't grow huge.
CHART_WIDTH = 320
CHART_HEIGHT = 180
CHART_LEFT = 34  # room for the count axis labels
CHART_RIGHT = 6
CHART_TOP = 10
CHART_BOTTOM = 24  # room for the face labels


@dataclass(frozen=True)
class ChartBar:
    face: int
    observed: int
    x: float
    y: float
    width: float
    height: float
    label_x: float


@dataclass(frozen=True)
class ChartTick:
    value: int
    y: float


@dataclass(frozen=True)
class FairnessChart:
    width: int
    height: int
    left: int
    right: float
    baseline: float
    label_y: float
    bars: tuple[ChartBar, ...]
    expected_y: float
    ticks: tuple[ChartTick, ...]

    @classmethod
    def for_test(cls, test: FairnessTest) -> FairnessChart:
        plot_width = CHART_WIDTH - CHART_LEFT - CHART_RIGHT
        plot_height = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM
        baseline = CHART_TOP + plot_height
        expected = test.total / test.sides
        top = _nice_ceiling(max([row.observed for row in test.rows] + [expected, 1]))

        def y_of(value: float) -> float:
            return round(baseline - plot_height * value / top, 2)

        slot = plot_width / test.sides
        bars = tuple(
            ChartBar(
                face=row.face,
                observed=row.observed,
                x=round(CHART_LEFT + i * slot + slot * 0.15, 2),
                y=y_of(row.observed),
                width=round(slot * 0.7, 2),
                height=round(baseline - y_of(row.observed), 2),
                label_x=round(CHART_LEFT + (i + 0.5) * slot, 2),
            )
            for i, row in enumerate(test.rows)
        )
        ticks = tuple(ChartTick(value, y_of(value)) for value in _ticks(top))
        return cls(
            width=CHART_WIDTH,
            height=CHART_HEIGHT,
            left=CHART_LEFT,
            right=CHART_WIDTH - CHART_RIGHT,
            baseline=baseline,
            label_y=baseline + 16,
            bars=bars,
            expected_y=y_of(expected),
            ticks=ticks,
        )


def _nice_ceiling(value: float) -> int:
    """The smallest 1, 2 or 5 × 10ⁿ at or above ``value``: a round top for the count axis."""
    magnitude = 10 ** max(0, math.floor(math.log10(value)))
    for step in (1, 2, 5, 10):
        if step * magnitude >= value:
            return int(step * magnitude)
    raise AssertionError("unreachable")  # pragma: no cover


def _ticks(top: int) -> list[int]:
    """Four or five round ticks from 0 to ``top`` (which _nice_ceiling made round)."""
    for parts in (5, 4, 2, 1):
        if top % parts == 0:
            return [top * i // parts for i in range(parts + 1)]
    return [0, top]  # pragma: no cover - every nice ceiling divides by 1


# ---------------------------------------------------------------------------------------------
# Success against the odds, and luck
# ---------------------------------------------------------------------------------------------


def success_chance(
    odds_table: Mapping[str, str] | None, success_outcomes: Iterable[str]
) -> Fraction | None:
    """The chance of a success at roll time: the sum of the success bands of the stored odds table
    (``{band: "num/den"}``); None when the entry has no table."""
    if not odds_table:
        return None
    wanted = set(success_outcomes)
    return sum(
        (Fraction(chance) for band, chance in odds_table.items() if band in wanted), Fraction(0)
    )


@dataclass
class Tally:
    """Streams entries (kind, outcome, odds table, faces) once and keeps only running totals, so a
    million entries never sit in memory together."""

    success_outcomes: frozenset[str]
    rolls: int = 0  # trials: roll and correct entries
    successes: int = 0
    measured: int = 0  # trials with an odds table: the ones that enter expected and luck
    measured_successes: int = 0
    expected: float = 0.0  # Σp over measured trials
    variance: float = 0.0  # Σp(1−p)
    faces: dict[str, dict[int, int]] = field(default_factory=dict)

    def add(
        self, kind: str, outcome: str, odds_table: Mapping[str, str] | None, faces: Any
    ) -> None:
        if kind not in TRIAL_KINDS:
            return
        self.rolls += 1
        success = outcome in self.success_outcomes
        self.successes += success
        chance = success_chance(odds_table, self.success_outcomes)
        if chance is not None:
            p = float(chance)
            self.measured += 1
            self.measured_successes += success
            self.expected += p
            self.variance += p * (1 - p)
        for die in faces or ():
            kind_counts = self.faces.setdefault(die.get("kind", ""), {})
            kind_counts[die["face"]] = kind_counts.get(die["face"], 0) + 1

    def summary(self) -> Summary:
        return Summary(
            rolls=self.rolls,
            successes=self.successes,
            measured=self.measured,
            measured_successes=self.measured_successes,
            expected_successes=self.expected,
            variance=self.variance,
            fairness=self._fairness(),
        )

    def _fairness(self) -> tuple[FairnessTest, ...]:
        tests = []
        pooled: dict[str, dict[int, int]] = {}
        for kind, counts in self.faces.items():
            group = DIE_GROUP.get(kind)
            if group is None:
                continue
            target = pooled.setdefault(group, {})
            for face, n in counts.items():
                target[face] = target.get(face, 0) + n
        for group in ("d6", "d10"):
            if group in pooled:
                tests.append(fairness_test(group, pooled[group], GROUP_SIDES[group]))
        # Per Cold Stars die kind too, when more than one kind was thrown.
        d10_kinds = [k for k in ("ability", "skill", "risk") if k in self.faces]
        if len(d10_kinds) > 1:
            tests.extend(fairness_test(k, self.faces[k], DIE_SIDES[k]) for k in d10_kinds)
        return tuple(tests)


@dataclass(frozen=True)
class Summary:
    rolls: int
    successes: int
    measured: int
    measured_successes: int
    expected_successes: float
    variance: float
    fairness: tuple[FairnessTest, ...]

    @property
    def observed_rate(self) -> float | None:
        """Success rate over the measured rolls (the ones with an odds table)."""
        return self.measured_successes / self.measured if self.measured else None

    @property
    def expected_rate(self) -> float | None:
        return self.expected_successes / self.measured if self.measured else None

    @property
    def unmeasured(self) -> int:
        return self.rolls - self.measured

    @property
    def luck(self) -> float | None:
        """z = (successes − Σp) / √Σp(1−p) over the measured rolls; None when no roll was uncertain."""
        if self.variance <= 0:
            return None
        return (self.measured_successes - self.expected_successes) / math.sqrt(self.variance)

    @property
    def luck_words(self) -> str:
        z = self.luck
        if z is None:
            if self.measured:
                return "Every roll was certain, so there is no luck to measure."
            return "No rolls with recorded odds yet."
        if abs(z) < 0.05:
            return "Exactly as lucky as expected."
        size = f"{abs(z):.1f} standard deviation{'' if f'{abs(z):.1f}' == '1.0' else 's'}"
        direction = "luckier" if z > 0 else "unluckier"
        if abs(z) < 1:
            verdict = "well within ordinary chance"
        elif abs(z) < 2:
            verdict = "noticeable, but not unusual"
        elif abs(z) < 3:
            verdict = "unusual: fewer than 1 table in 20 sees this by chance"
        else:
            verdict = "remarkable: rarer than 1 in 300"
        return f"{size} {direction} than expected — {verdict}."
