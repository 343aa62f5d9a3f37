"""Odds checked against brute force: every face combination of small pools, resolved one by one.

This ties ``odds`` to ``resolve`` exactly, so the closed forms can't drift from the rules.
"""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rules import cogent, cold_stars, dad6
from rules.cold_stars import Faces, Pool


def _frequencies(outcomes: Counter, total: int) -> dict:
    return {key: Fraction(n, total) for key, n in outcomes.items()}


def _nonzero(odds: dict) -> dict:
    return {k: v for k, v in odds.items() if v}


@pytest.mark.parametrize("pool", range(5))
@pytest.mark.parametrize("cl", [1, 2, 4])
@pytest.mark.parametrize(
    ("before", "after", "assist"), [(False, 0, 0), (True, 0, 0), (False, 2, -1), (True, 1, 2)]
)
def test_cogent_odds_match_enumeration(pool, cl, before, after, assist):
    outcomes = Counter()
    for faces in product(range(1, 7), repeat=pool):
        r = cogent.resolve(
            faces, challenge_level=cl, destiny_before=before, destiny_after=after, assist=assist
        )
        outcomes[
            "success" if r.success else "critical_failure" if r.critical_failure else "failure"
        ] += 1
    odds = cogent.odds(
        pool, challenge_level=cl, destiny_before=before, destiny_after=after, assist=assist
    )
    assert _nonzero(odds) == _frequencies(outcomes, 6**pool)


@pytest.mark.parametrize(("pool_a", "pool_b"), [(0, 2), (1, 1), (2, 3), (3, 1)])
@pytest.mark.parametrize(("before_a", "before_b"), [(False, False), (True, False)])
def test_cogent_conflict_odds_match_enumeration(pool_a, pool_b, before_a, before_b):
    outcomes = Counter()
    for fa in product(range(1, 7), repeat=pool_a):
        for fb in product(range(1, 7), repeat=pool_b):
            winner = cogent.conflict(
                fa, fb, destiny_before_a=before_a, destiny_before_b=before_b
            ).winner
            outcomes[winner or "tie"] += 1
    odds = cogent.conflict_odds(
        pool_a, pool_b, destiny_before_a=before_a, destiny_before_b=before_b
    )
    assert _nonzero(odds) == _frequencies(outcomes, 6 ** (pool_a + pool_b))


@pytest.mark.parametrize("pool", range(1, 5))
@pytest.mark.parametrize("competence", dad6.COMPETENCES)
@pytest.mark.parametrize("task", dad6.TASKS)
@pytest.mark.parametrize("difficulty", [1, 2, 3])
def test_dad6_odds_match_enumeration(pool, competence, task, difficulty):
    outcomes = Counter()
    for faces in product(range(1, 7), repeat=pool):
        r = dad6.resolve(faces, competence=competence, task=task, difficulty=difficulty)
        outcomes["success" if r.success else "failure"] += 1
    odds = dad6.odds(pool, competence=competence, task=task, difficulty=difficulty)
    assert _nonzero(odds) == _frequencies(outcomes, 6**pool)


@pytest.mark.parametrize("pool", range(1, 4))
@pytest.mark.parametrize("task", dad6.TASKS)
@pytest.mark.parametrize("bonus", [1, 2])
@pytest.mark.parametrize("difficulty", [1, 2, 4])
def test_dad6_odds_with_rolled_forward_boons_match_enumeration(pool, task, bonus, difficulty):
    reading = {"competence": "familiar", "task": task, "difficulty": difficulty}
    outcomes = Counter()
    for faces in product(range(1, 7), repeat=pool):
        r = dad6.resolve(faces, bonus_boons=bonus, **reading)
        outcomes["success" if r.success else "failure"] += 1
    odds = dad6.odds(pool, bonus_boons=bonus, **reading)
    assert _nonzero(odds) == _frequencies(outcomes, 6**pool)


SMALL_POOLS = [
    Pool(a, s, r)
    for a in range(4)
    for s in range(3)
    for r in range(3)
    if not (s and r) and 0 < a + s + r <= 4
]


@pytest.mark.parametrize("pool", SMALL_POOLS, ids=str)
def test_cold_stars_odds_match_enumeration(pool):
    outcomes = Counter()
    for faces in product(range(1, 11), repeat=pool.size):
        split = Faces(
            ability=faces[: pool.ability],
            skill=faces[pool.ability : pool.ability + pool.skill],
            risk=faces[pool.ability + pool.skill :],
        )
        outcomes[cold_stars.resolve(split)] += 1
    assert cold_stars.odds(pool) == _frequencies(outcomes, 10**pool.size)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (Pool(1, 0, 0), Pool(0, 1, 0)),
        (Pool(2, 1, 0), Pool(1, 0, 0)),
        (Pool(1, 1, 0), Pool(1, 1, 0)),
    ],
)
def test_cold_stars_contest_odds_match_enumeration(a, b):
    outcomes = Counter()
    for fa in product(range(1, 11), repeat=a.size):
        for fb in product(range(1, 11), repeat=b.size):
            result = cold_stars.contest(
                Faces(ability=fa[: a.ability], skill=fa[a.ability :]),
                Faces(ability=fb[: b.ability], skill=fb[b.ability :]),
            )
            outcomes[result.winner or "even"] += 1
    assert _nonzero(cold_stars.contest_odds(a, b)) == _frequencies(
        outcomes, 10 ** (a.size + b.size)
    )
