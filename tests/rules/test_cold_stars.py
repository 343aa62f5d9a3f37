from fractions import Fraction

import pytest

from rules import cold_stars as cs
from rules.cold_stars import Faces, Pool


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"ability": 3, "skill": 2, "risk": 0}, Pool(3, 2, 0)),
        ({"ability": 3, "skill": 2, "risk": 3}, Pool(3, 0, 1)),
        ({"ability": 2, "skill": 2, "risk": 2}, Pool(2, 0, 0)),
        # Untrained: +1 Risk.
        ({"ability": 2, "skill": 0, "risk": 1, "trained": False}, Pool(2, 0, 2)),
        ({"ability": 2, "skill": 0, "risk": 0, "trained": False}, Pool(2, 0, 1)),
        # Trained at 0 avoids the penalty.
        ({"ability": 2, "skill": 0, "risk": 1}, Pool(2, 0, 1)),
        # Domain skill rank 4 outside every domain counts as 2 before cancellation.
        (
            {"ability": 1, "skill": 4, "risk": 1, "domain_skill": True, "in_domain": False},
            Pool(1, 1, 0),
        ),
        (
            {"ability": 1, "skill": 4, "risk": 1, "domain_skill": True, "in_domain": True},
            Pool(1, 3, 0),
        ),
        # Exactly rank 3 is where the cap starts (Seed: "rated 3+").
        (
            {"ability": 1, "skill": 3, "risk": 0, "domain_skill": True, "in_domain": False},
            Pool(1, 2, 0),
        ),
        (
            {"ability": 1, "skill": 3, "risk": 0, "domain_skill": True, "in_domain": True},
            Pool(1, 3, 0),
        ),
        # Ranks 0–2 of a domain skill work like any other skill.
        (
            {"ability": 1, "skill": 2, "risk": 0, "domain_skill": True, "in_domain": False},
            Pool(1, 2, 0),
        ),
    ],
)
def test_build_pool(kwargs, expected):
    assert cs.build_pool(**kwargs) == expected


def test_contest_pool_builds_at_risk_zero_without_the_untrained_penalty():
    assert cs.contest_pool(ability=2, skill=0, trained=False) == Pool(2, 0, 0)
    assert cs.contest_pool(ability=2, skill=3) == Pool(2, 3, 0)
    assert cs.contest_pool(ability=2, skill=5, domain_skill=True, in_domain=False) == Pool(2, 2, 0)


def test_press_adds_risk_that_cancels_a_skill_die_first():
    assert cs.modify(Pool(2, 2, 0), press=True) == Pool(2, 1, 0)
    assert cs.modify(Pool(2, 0, 0), press=True) == Pool(2, 0, 1)
    assert cs.modify(Pool(2, 0, 1), press=True) == Pool(2, 0, 2)


def test_brace_removes_a_risk_die_only_when_there_is_one():
    assert cs.modify(Pool(2, 0, 2), brace=True) == Pool(2, 0, 1)
    with pytest.raises(ValueError, match="has none"):
        cs.modify(Pool(2, 1, 0), brace=True)


def test_willpower_upgrades_ability_dice_to_skill_dice():
    assert cs.modify(Pool(3, 1, 0), willpower=2) == Pool(1, 3, 0)
    with pytest.raises(ValueError, match="Risk dice"):
        cs.modify(Pool(3, 0, 1), willpower=1)
    with pytest.raises(ValueError, match="this pool has 3"):
        cs.modify(Pool(3, 0, 0), willpower=4)


def test_only_one_modification():
    with pytest.raises(ValueError, match="Only one"):
        cs.modify(Pool(2, 0, 2), press=True, brace=True)
    with pytest.raises(ValueError, match="Only one"):
        cs.modify(Pool(2, 0, 0), press=True, willpower=1)
    assert cs.modify(Pool(2, 0, 0)) == Pool(2, 0, 0)


def test_resource_costs():
    assert cs.modification_cost(press=True) == cs.ResourceChange(momentum=1)
    assert cs.modification_cost(brace=True) == cs.ResourceChange(momentum=-2)
    assert cs.modification_cost(willpower=3) == cs.ResourceChange(willpower=-3)
    assert cs.modification_cost() == cs.ResourceChange()
    assert cs.ResourceChange(momentum=-1) == cs.CORRECT_COST


def test_face_table():
    assert [cs.symbol("ability", f) for f in range(1, 11)] == ["blank"] * 5 + ["success"] * 5
    assert [cs.symbol("skill", f) for f in range(1, 11)] == (
        ["blank"] * 3 + ["success"] * 6 + ["critical_success"]
    )
    assert [cs.symbol("risk", f) for f in range(1, 11)] == (
        ["blank"] * 5 + ["failure"] * 4 + ["critical_failure"]
    )


@pytest.mark.parametrize(
    ("faces", "result"),
    [
        (Faces(ability=(1, 1), skill=(10,)), "critical_success"),
        (Faces(ability=(6,), risk=(10, 6)), "critical_failure"),
        (Faces(ability=(1,), skill=(4,)), "success"),
        (Faces(ability=(6,), skill=(1,)), "success"),
        (Faces(ability=(1, 5), skill=(3,)), "choice"),
        (Faces(ability=(6,)), "success"),  # Ability dice alone read as Ability + Skill
        (Faces(ability=(5,)), "choice"),
        (Faces(ability=(6,), risk=(1,)), "success"),
        (Faces(ability=(1,), risk=(6,)), "failure"),
        (Faces(ability=(6,), risk=(9,)), "costly_success"),
        (Faces(ability=(5,), risk=(5,)), "costly_success"),  # all blanks under Risk
    ],
)
def test_resolve(faces, result):
    assert cs.resolve(faces) == result


def test_skip():
    assert cs.skip(Pool(2, 1, 0)) == "success"
    assert cs.skip(Pool(2, 0, 1)) == "costly_success"
    assert cs.skip(Pool(2, 0, 2)) == "costly_success"
    with pytest.raises(ValueError, match="can't be skipped"):
        cs.skip(Pool(2, 0, 3))
    with pytest.raises(ValueError, match="contested"):
        cs.skip(Pool(2, 0, 0), contested=True)
    assert not cs.can_skip(Pool(2, 0, 3)) and cs.can_skip(Pool(2, 0, 0))


def test_skip_is_decided_before_any_step_4_choice():
    """Rules at the table: Press, Brace or Willpower means the dice are rolled."""
    for built in (Pool(2, 0, 0), Pool(2, 0, 1), Pool(2, 1, 0)):
        assert cs.can_skip(built)
        assert not cs.can_skip(built, modified=True)
        with pytest.raises(ValueError, match="after Press, Brace or Willpower"):
            cs.skip(built, modified=True)
    # Brace would take a Risk-3 pool down to 2, but the built pool decides: no skip.
    assert cs.modify(Pool(2, 0, 3), brace=True) == Pool(2, 0, 2)
    assert not cs.can_skip(Pool(2, 0, 3))


def test_passive_risk_is_the_higher_of_ability_and_skill():
    assert cs.passive_risk(ability=3, skill=1) == 3
    assert cs.passive_risk(ability=2, skill=4) == 4
    pool = cs.build_pool(ability=2, skill=2, risk=cs.passive_risk(ability=3, skill=1))
    assert pool == Pool(2, 0, 1)


def test_contest_cancels_successes():
    result = cs.contest(Faces(ability=(6, 7), skill=(10,)), Faces(ability=(9,), skill=(2,)))
    assert (result.successes_a, result.successes_b, result.winner, result.band, result.margin) == (
        3,
        1,
        "a",
        "critical_success",
        2,
    )
    plain = cs.contest(Faces(ability=(1,)), Faces(ability=(6,), skill=(4,)))
    assert (plain.winner, plain.band) == ("b", "success")
    even = cs.contest(Faces(ability=(6,)), Faces(skill=(10,)))
    assert (even.winner, even.band, even.margin) == (None, None, 0)


def test_contest_refuses_risk_dice():
    with pytest.raises(ValueError, match="Risk 0"):
        cs.contest(Faces(ability=(6,), risk=(1,)), Faces(ability=(6,)))
    with pytest.raises(ValueError, match="Risk 0"):
        cs.contest_odds(Pool(1, 0, 0), Pool(1, 0, 1))


def test_exact_odds():
    assert cs.odds(Pool(1, 0, 0)) == {"success": Fraction(1, 2), "choice": Fraction(1, 2)}
    assert cs.odds(Pool(0, 1, 0)) == {
        "critical_success": Fraction(1, 10),
        "success": Fraction(6, 10),
        "choice": Fraction(3, 10),
    }
    assert cs.odds(Pool(1, 0, 1)) == {
        "success": Fraction(1, 4),
        "costly_success": Fraction(9, 20),
        "failure": Fraction(1, 5),
        "critical_failure": Fraction(1, 10),
    }


def test_contest_odds_single_dice():
    assert cs.contest_odds(Pool(1, 0, 0), Pool(1, 0, 0)) == {
        "a": Fraction(1, 4),
        "b": Fraction(1, 4),
        "even": Fraction(1, 2),
    }


def test_roll_draws_every_die_type_from_the_rng():
    class Counter:
        def __init__(self):
            self.n = 0

        def randint(self, a, b):
            assert (a, b) == (1, 10)
            self.n += 1
            return self.n

    faces = cs.roll(Pool(2, 0, 3), Counter())
    assert faces == Faces(ability=(1, 2), risk=(3, 4, 5))
    assert faces.pool == Pool(2, 0, 3)


def test_pool_describe():
    assert Pool(3, 2, 0).describe() == "3 Ability + 2 Skill"
    assert Pool(2, 0, 1).describe() == "2 Ability + 1 Risk"


def test_counted_skill_caps_a_domain_skill_at_3_plus_outside_every_domain():
    # Literals, not the module's constants: a test comparing against OUTSIDE_DOMAIN_SKILL_CAP
    # passes whatever the constant says (mutation testing found it did).
    assert cs.counted_skill(3, domain_skill=True, in_domain=False) == 2
    assert cs.counted_skill(5, domain_skill=True, in_domain=False) == 2
    assert cs.counted_skill(5, domain_skill=True, in_domain=True) == 5
    assert cs.counted_skill(2, domain_skill=True, in_domain=False) == 2
    assert cs.counted_skill(5, domain_skill=False, in_domain=False) == 5


def test_passive_risk_counts_a_domain_skill_outside_its_domains_as_at_most_2():
    assert cs.passive_risk(ability=1, skill=4, domain_skill=True, in_domain=False) == 2
    assert cs.passive_risk(ability=3, skill=4, domain_skill=True, in_domain=False) == 3
    assert cs.passive_risk(ability=1, skill=4, domain_skill=True, in_domain=True) == 4
    with pytest.raises(ValueError, match="In domain"):
        cs.passive_risk(ability=1, skill=4, domain_skill=True, in_domain="no")


@pytest.mark.parametrize(
    ("rank", "outside", "inside", "plain"),
    [
        # Seed: "a domain skill rated 3+ … counts as at most 2 outside every declared domain".
        # Every rank, so the boundary (2 counts as 2 on its own, 3 is the first rank capped) and
        # the cap's value are both pinned: a cap starting at 4 or a cap of 3 fails a row. (One
        # starting at 2 changes no count, min(2, 2) = 2; the sheet's "rank 3+ needs a domain"
        # shows it: tests/sheets/test_forms.py::test_cold_stars_skill_form.)
        (0, 0, 0, 0),
        (1, 1, 1, 1),
        (2, 2, 2, 2),
        (3, 2, 3, 3),
        (4, 2, 4, 4),
        (5, 2, 5, 5),
    ],
)
def test_counted_skill_at_every_rank(rank, outside, inside, plain):
    assert cs.counted_skill(rank, domain_skill=True, in_domain=False) == outside
    assert cs.counted_skill(rank, domain_skill=True, in_domain=True) == inside
    assert cs.counted_skill(rank, domain_skill=False, in_domain=False) == plain


def test_the_domain_cap_starts_at_rank_3_for_both_sides_of_a_contest():
    # The acting side's pool and the passive side's Risk read the same cap (counted_skill).
    assert cs.contest_pool(ability=1, skill=2, domain_skill=True, in_domain=False) == Pool(1, 2, 0)
    assert cs.contest_pool(ability=1, skill=3, domain_skill=True, in_domain=False) == Pool(1, 2, 0)
    assert cs.contest_pool(ability=1, skill=3, domain_skill=True, in_domain=True) == Pool(1, 3, 0)
    assert cs.passive_risk(ability=1, skill=2, domain_skill=True, in_domain=False) == 2
    assert cs.passive_risk(ability=1, skill=3, domain_skill=True, in_domain=False) == 2
    assert cs.passive_risk(ability=1, skill=3, domain_skill=True, in_domain=True) == 3


@pytest.mark.parametrize("pool", [Pool(1, 0, 1), Pool(2, 0, 1), Pool(1, 1, 0), Pool(1, 2, 0)])
@pytest.mark.parametrize("current", cs.RESULTS)
def test_correct_odds_count_every_face_against_the_result_it_replaces(pool, current):
    """Correct's offer (§8 "Odds wording"): better, the same, worse than the current result, by
    enumerating every face of the re-roll; an all-blank result ranks as a Costly success."""
    from itertools import product

    rank = {"critical_success": 0, "success": 1, "costly_success": 2, "choice": 2}
    rank |= {"failure": 3, "critical_failure": 4}
    counts = {"better": 0, "same": 0, "worse": 0}
    dice = [range(1, 11)] * (pool.ability + pool.skill + pool.risk)
    for faces in product(*dice):
        a, s = pool.ability, pool.ability + pool.skill
        got = cs.resolve(Faces(faces[:a], faces[a:s], faces[s:]))
        diff = rank[got] - rank[current]
        counts["better" if diff < 0 else "same" if diff == 0 else "worse"] += 1
    total = 10 ** len(dice)
    expected = {key: Fraction(n, total) for key, n in counts.items()}
    assert cs.correct_odds(pool, current) == expected
    assert sum(expected.values()) == 1


def test_correct_odds_refuse_an_unknown_result():
    with pytest.raises(ValueError, match="not a Cold Stars result"):
        cs.correct_odds(Pool(1, 0, 1), "victory")
