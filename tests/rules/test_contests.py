"""Engine additions for the GM table's contests: per-side distributions and DAD6 opposition."""

import itertools
from fractions import Fraction

import pytest

from rules import cogent, cold_stars, dad6
from rules.cold_stars import Faces, Pool


@pytest.mark.parametrize(("pool", "before"), [(0, False), (1, False), (3, False), (3, True)])
def test_cogent_win_distribution_matches_enumeration(pool, before):
    counts = [0] * (pool + 1)
    for faces in itertools.product(range(1, 7), repeat=pool):
        counts[sum(cogent.is_win(f, destiny_before=before) for f in faces)] += 1
    expected = tuple(Fraction(c, 6**pool) for c in counts)
    assert cogent.win_distribution(pool, destiny_before=before) == expected
    assert sum(expected) == 1


def test_cogent_win_distribution_refuses_bad_pools():
    with pytest.raises(ValueError, match="pool"):
        cogent.win_distribution(-1)


@pytest.mark.parametrize("pool", [Pool(1, 0, 0), Pool(2, 1, 0), Pool(0, 2, 0)])
def test_cold_stars_success_distribution_matches_enumeration(pool):
    counts = [0] * (pool.size + 1)
    for faces in itertools.product(range(1, 11), repeat=pool.size):
        rolled = Faces(ability=faces[: pool.ability], skill=faces[pool.ability :])
        counts[cold_stars.successes(rolled)] += 1
    expected = tuple(Fraction(c, 10**pool.size) for c in counts)
    assert cold_stars.success_distribution(pool) == expected


def test_cold_stars_success_distribution_needs_risk_zero():
    with pytest.raises(ValueError, match="Risk"):
        cold_stars.success_distribution(Pool(2, 0, 1))
    with pytest.raises(ValueError, match="Faces"):
        cold_stars.successes((1, 2))


def test_cold_stars_successes_counts_criticals():
    assert cold_stars.successes(Faces(ability=(6, 1), skill=(10, 3))) == 2


@pytest.mark.parametrize(
    ("difficulty", "opposition", "expected"), [(1, 0, 1), (1, 2, 3), (2, 1, 3), (4, 6, 10)]
)
def test_dad6_opposition_adds_a_boon_per_factor(difficulty, opposition, expected):
    assert dad6.opposed_difficulty(difficulty, opposition=opposition) == expected


def test_dad6_opposition_beyond_the_scale_is_refused():
    with pytest.raises(ValueError, match="the most is 10"):
        dad6.opposed_difficulty(5, opposition=6)
    with pytest.raises(ValueError, match="Opposing factors"):
        dad6.opposed_difficulty(1, opposition=-1)
