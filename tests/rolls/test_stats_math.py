"""rolls.log.statistics without a database: the chi-square survival function against published table values,
the fairness test, the luck figure and the chart geometry."""

import math

import pytest

from rolls.log.statistics import (
    Tally,
    chi_square_sf,
    fairness_test,
    regularized_gamma_q,
    success_chance,
)

SUCCESS = frozenset({"success", "critical_success", "costly_success"})


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [
        # Critical values from standard chi-square tables.
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (16.919, 9, 0.05),
        (21.666, 9, 0.01),
        (27.877, 9, 0.001),
        (2.706, 1, 0.10),
        (4.351, 5, 0.50),  # the median of chi-square(5)
        (8.343, 9, 0.50),
        (124.342, 100, 0.05),
    ],
)
def test_chi_square_matches_tables(statistic, df, p):
    assert chi_square_sf(statistic, df) == pytest.approx(p, rel=2e-3)


def test_chi_square_closed_forms_and_extremes():
    # df = 2: the survival function is exactly exp(−x/2).
    for x in (0.1, 1.0, 5.0, 30.0, 200.0):
        assert chi_square_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    # df = 1: erfc(√(x/2)).
    for x in (0.01, 0.5, 3.0, 10.0, 50.0):
        assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10)
    assert chi_square_sf(0, 5) == 1.0
    assert chi_square_sf(-3, 5) == 1.0
    assert chi_square_sf(1e-9, 9) == pytest.approx(1.0)
    assert 0 < chi_square_sf(500, 5) < 1e-100
    assert chi_square_sf(1e6, 9) == 0.0
    assert regularized_gamma_q(1, 0) == 1.0


def test_chi_square_refuses_nonsense():
    with pytest.raises(ValueError, match="Degrees"):
        chi_square_sf(3, 0)
    with pytest.raises(ValueError, match="positive"):
        regularized_gamma_q(0, 1)
    with pytest.raises(ValueError, match="negative"):
        regularized_gamma_q(1, -1)


def test_fairness_test_on_known_counts():
    # 60 d6: faces 1…6 seen 5, 8, 9, 8, 10, 20 times; expected 10 each.
    test = fairness_test("d6", {1: 5, 2: 8, 3: 9, 4: 8, 5: 10, 6: 20}, 6)
    assert test.total == 60
    assert test.df == 5
    assert test.statistic == pytest.approx((25 + 4 + 1 + 4 + 0 + 100) / 10)
    assert test.p_value == pytest.approx(chi_square_sf(13.4, 5))
    assert test.p_value == pytest.approx(0.0199, abs=1e-4)
    assert [row.difference for row in test.rows] == [-5, -2, -1, -2, 0, 10]
    assert not test.too_few
    assert "Unusual" in test.reading


def test_fairness_test_warns_on_small_counts_and_handles_none():
    small = fairness_test("d10", {1: 3, 7: 2}, 10)
    assert small.too_few and small.dice_needed == 50
    empty = fairness_test("d6", {}, 6)
    assert empty.statistic is None and empty.p_value is None
    assert empty.reading == "No dice of this kind yet."
    perfect = fairness_test("d6", dict.fromkeys(range(1, 7), 10), 6)
    assert perfect.statistic == 0 and perfect.p_value == 1.0
    assert perfect.reading == "Consistent with fair dice."


def test_success_chance_sums_success_bands():
    table = {
        "critical_success": "1/10",
        "success": "3/10",
        "costly_success": "1/5",
        "failure": "2/5",
    }
    assert success_chance(table, SUCCESS) == pytest.approx(0.6)
    assert success_chance({}, SUCCESS) is None
    assert success_chance(None, SUCCESS) is None


def d6(*faces):
    return [{"kind": "d6", "face": f, "reading": "win" if f >= 4 else "loss"} for f in faces]


def test_tally_counts_trials_only_and_computes_luck():
    tally = Tally(SUCCESS)
    half = {"success": "1/2", "failure": "1/2"}
    quarter = {"success": "1/4", "failure": "3/4"}
    tally.add("roll", "success", half, d6(4, 5))
    tally.add("roll", "success", quarter, d6(6))
    tally.add("roll", "failure", half, d6(1, 2))
    tally.add("correct", "success", quarter, d6(3))
    # A destiny re-reads the same dice: neither a new trial nor new faces.
    tally.add("destiny", "success", half, d6(1, 2))
    tally.add("auto_pass", "success", {}, [])
    # An old roll without an odds table counts, but not toward expected and luck.
    tally.add("roll", "failure", {}, d6(2))
    summary = tally.summary()
    assert summary.rolls == 5
    assert summary.successes == 3
    assert summary.measured == 4
    assert summary.unmeasured == 1
    assert summary.expected_successes == pytest.approx(0.5 + 0.25 + 0.5 + 0.25)
    assert summary.observed_rate == pytest.approx(3 / 4)
    assert summary.expected_rate == pytest.approx(1.5 / 4)
    variance = 0.25 + 0.1875 + 0.25 + 0.1875
    assert summary.luck == pytest.approx((3 - 1.5) / math.sqrt(variance))
    assert summary.luck_words.startswith("1.6 standard deviations luckier than expected")
    (test,) = summary.fairness
    assert test.key == "d6"
    assert [row.observed for row in test.rows] == [1, 2, 1, 1, 1, 1]


def test_luck_words():
    tally = Tally(SUCCESS)
    assert tally.summary().luck is None
    assert tally.summary().luck_words == "No rolls with recorded odds yet."
    tally.add("roll", "success", {"success": "1/1"}, [])
    assert tally.summary().luck_words.startswith("Every roll was certain")
    unlucky = Tally(SUCCESS)
    for _ in range(100):
        unlucky.add("roll", "failure", {"success": "1/2", "failure": "1/2"}, [])
    assert unlucky.summary().luck == pytest.approx(-10)
    assert unlucky.summary().luck_words == (
        "10.0 standard deviations unluckier than expected — remarkable: rarer than 1 in 300."
    )


def test_cold_stars_dice_pool_as_d10_and_per_kind():
    tally = Tally(SUCCESS)
    faces = [
        {"kind": k, "face": f, "reading": "blank"}
        for k, f in [("ability", 1), ("ability", 10), ("skill", 10), ("risk", 5)]
    ]
    tally.add("roll", "choice", {"choice": "1/1"}, faces)
    keys = [test.key for test in tally.summary().fairness]
    assert keys == ["d10", "ability", "skill", "risk"]
    pooled = tally.summary().fairness[0]
    assert pooled.total == 4 and pooled.rows[9].observed == 2 and pooled.sides == 10


def test_chart_geometry():
    test = fairness_test("d6", {1: 5, 2: 8, 3: 9, 4: 8, 5: 10, 6: 20}, 6)
    chart = test.chart
    assert len(chart.bars) == 6
    tallest = max(chart.bars, key=lambda bar: bar.height)
    assert tallest.face == 6
    # The axis tops out at a round 20; expected 10 sits halfway up.
    assert chart.ticks[-1].value == 20
    assert chart.expected_y == pytest.approx((chart.baseline + chart.ticks[-1].y) / 2)
    assert all(bar.y + bar.height == pytest.approx(chart.baseline) for bar in chart.bars)
    assert all(chart.left <= bar.x < chart.right for bar in chart.bars)
