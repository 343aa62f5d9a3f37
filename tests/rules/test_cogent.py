from fractions import Fraction
from math import comb

import pytest

from rules import cogent, cogent_creation


def test_robs_athletics_pool_is_six_dice():
    # Seed example: base three + Athletics 2 + Strength 1.
    assert cogent.pool_size(skill=2, attribute=1) == 6


def test_lock_pick_against_cl_3():
    # Book example: Sleight of Hand 2 + Reflex 1 = 6d6 vs CL 3; four wins open the lock.
    pool = cogent.pool_size(skill=2, attribute=1)
    result = cogent.resolve((6, 5, 4, 4, 1, 2), challenge_level=3)
    assert pool == 6
    assert (result.wins, result.success, result.margin, result.critical_failure) == (
        4,
        True,
        1,
        False,
    )
    assert result.challenge_name == "Specialized"
    # At least 3 of 6 fair coin flips: 42/64.
    assert cogent.odds(pool, challenge_level=3)["success"] == Fraction(21, 32)


def test_negative_points_subtract_and_pool_never_goes_below_zero():
    assert cogent.pool_size(skill=-1, attribute=-1) == 1
    assert cogent.pool_size(skill=0, attribute=0, modifier=-2) == 1
    assert cogent.pool_size(skill=-1, attribute=-1, modifier=-5) == 0


def test_combat_pool_uses_all_attributes_combat_skill_and_weapon():
    assert cogent.combat_pool_size(combat_skill=2, attributes=[1, 1, 0], weapon_bonus=1) == 8
    unarmed = cogent.WEAPON_BONUSES["Unarmed (ungloved)"]
    assert cogent.combat_pool_size(combat_skill=0, attributes=(0, 0, 0), weapon_bonus=unarmed) == 2
    assert cogent.combat_pool_size(combat_skill=1, attributes=[2, 0, 0], modifier=-9) == 0


def test_a_zero_pool_rolls_nothing_and_scores_nothing():
    assert cogent.roll(0, None) == ()
    result = cogent.resolve(())
    assert (result.wins, result.success, result.critical_failure) == (0, False, True)
    assert cogent.odds(0) == {"success": 0, "failure": 0, "critical_failure": 1}


def test_four_to_six_win():
    assert cogent.resolve((1, 2, 3, 4, 5, 6)).wins == 3


def test_critical_failure_is_no_wins_and_there_is_no_critical_success():
    assert cogent.resolve((1, 2, 3), challenge_level=1).critical_failure
    result = cogent.resolve((6, 6, 6, 6, 6, 6, 6, 6), challenge_level=1)
    assert result.margin == 7
    assert not hasattr(result, "critical_success")


def test_destiny_before_makes_threes_win():
    assert cogent.resolve((1, 2, 3, 4), destiny_before=True).wins == 2


def test_destiny_after_adds_a_win_each_and_rescues_a_critical_failure():
    result = cogent.resolve((1, 2, 3), challenge_level=2, destiny_after=2)
    assert (result.rolled_wins, result.wins, result.success, result.critical_failure) == (
        0,
        2,
        True,
        False,
    )


def test_reflexive_injury_level_is_the_shortfall():
    # Book examples: 6d6 vs CL 4 with 3 wins → level 1; 7d6 vs CL 6 with 3 wins → level 3.
    assert cogent.resolve((4, 5, 6, 1, 1, 1), challenge_level=4).injury_level == 1
    assert cogent.resolve((4, 5, 6, 1, 1, 1, 2), challenge_level=6).injury_level == 3
    assert cogent.resolve((4, 5, 6, 1), challenge_level=3).injury_level == 0


@pytest.mark.parametrize(
    ("pool", "cl", "flags", "expected"),
    [
        (8, 3, {}, True),
        (12, 1, {}, True),
        (7, 3, {}, False),
        (8, 4, {}, False),
        (8, 3, {"duress": True}, False),
        (8, 3, {"contested": True}, False),
        (8, 3, {"reflexive": True}, False),
        # Duress is "aggression such as combat" (Book): no combat roll passes automatically.
        (8, 3, {"combat": True}, False),
        (20, 1, {"combat": True}, False),
    ],
)
def test_skill_speciality(pool, cl, flags, expected):
    assert cogent.auto_success(pool, challenge_level=cl, **flags) is expected


def test_conflict_more_wins_wins_with_victory_levels():
    result = cogent.conflict((6, 6, 5, 1), (4, 1, 1))
    assert (result.wins_a, result.wins_b, result.winner, result.victory_levels) == (3, 1, "a", 2)
    assert cogent.conflict((1,), (6, 6)).winner == "b"


def test_conflict_tie_is_rerolled():
    result = cogent.conflict((6, 1), (1, 5))
    assert result.winner is None and result.tie and result.victory_levels == 0


def test_conflict_destiny_before_and_deathblow():
    result = cogent.conflict((3, 3, 3, 3, 3), (1,), destiny_before_a=True)
    assert result.winner == "a" and result.victory_levels == 5 and result.deathblow


@pytest.mark.parametrize(
    ("faces", "cl", "expected"),
    [
        ((4, 4, 4, 1, 1), 3, 0),  # 3 wins vs CL 3 does nothing
        ((4, 4, 4, 4, 1), 3, 1),  # 4 wins: +1
        ((4, 1, 1, 1, 1), 3, -2),  # 1 win: −2
        ((6,) * 8, 3, 3),  # never more than the assist's CL
        ((1,) * 5, 3, -3),
        ((6,) * 8, 4, 4),
    ],
)
def test_assist(faces, cl, expected):
    assert cogent.assist(faces, challenge_level=cl) == expected


def test_assist_example_from_the_book():
    # Martial Artist 7d6 assist at CL 3 scores 5 wins (+2); acrobatics 5d6 scores 4 vs CL 4 → 6 wins.
    bonus = cogent.assist((6, 5, 4, 4, 4, 1, 1), challenge_level=3)
    result = cogent.resolve((4, 4, 5, 6, 1), challenge_level=4, assist=bonus)
    assert (bonus, result.wins, result.success) == (2, 6, True)
    # A negative assist can drive the total down to (but not below) zero.
    assert cogent.resolve((4,), assist=-3).wins == 0


def test_an_assist_cl_is_three_or_more():
    assert cogent.check_assist_cl(3) == 3 and cogent.check_assist_cl(8) == 8
    with pytest.raises(ValueError, match="CL 3 or higher"):
        cogent.check_assist_cl(2)
    with pytest.raises(ValueError, match="Challenge Level"):
        cogent.check_assist_cl(9)


def test_assist_decisions():
    # One waiting assist per roll (further helpers ride on that one assist), and conflicts take
    # none: the engine's conflict has no assist term.
    assert cogent.ASSISTS_PER_ROLL == 1 and cogent.ASSISTS_IN_CONFLICTS is False
    assert "assist" not in cogent.conflict.__code__.co_varnames


def test_each_further_helper_of_a_group_assist_adds_a_die_to_the_assist_roll():
    # RULES.md §8 (Book, assists.tex "Group Assists"): "Each additional player adds a single dice
    # to the dice pool of the player making the assist roll" — the Book's Lucy: 6D6 + Bill and
    # Ted = 8D6, 6 wins vs CL 3 → +3 wins for Gary.
    assert [cogent.group_assist_dice(n) for n in (0, 1, 3)] == [0, 1, 3]
    assert cogent.group_assist_dice(cogent.GROUP_HELPERS_MAX) == cogent.GROUP_HELPERS_MAX
    for bad in (-1, cogent.GROUP_HELPERS_MAX + 1, True, "2", 1.0):
        with pytest.raises(ValueError, match="Further helpers"):
            cogent.group_assist_dice(bad)
    assert cogent.assist((6, 6, 5, 5, 4, 4, 1, 1), challenge_level=3) == 3
    # The assist's ± wins, exactly: 6 dice + 2 helpers are 8 dice on the assist roll.
    lucy = cogent.assist_odds(6, challenge_level=3, further_helpers=2)
    assert lucy == cogent.assist_odds(8, challenge_level=3)
    assert sum(lucy.values()) == 1 and set(lucy) <= set(range(-3, 4))
    assert lucy[3] == sum(Fraction(comb(8, k), 2**8) for k in range(6, 9))
    assert lucy[-3] == Fraction(1, 2**8)  # no win at all: the shortfall, capped at the CL
    # The main roll takes only the ± wins: its pool and its odds are its own dice's.
    gary = cogent.odds(4, challenge_level=3, assist=2)
    assert gary == cogent.odds(4, challenge_level=1)
    with pytest.raises(ValueError, match="Further helpers"):
        cogent.assist_odds(6, further_helpers=cogent.GROUP_HELPERS_MAX + 1)


def test_destiny_after_an_assist_roll_changes_its_wins_before_the_main_roll_takes_them():
    # RULES.md §8 (Book: "after any d6-based roll"): +1 win each on the assist roll, still
    # capped at the assist's CL; at most DESTINY_MAX points in all.
    faces = (4, 4, 1, 1)  # 2 wins vs CL 3: −1
    assert cogent.assist(faces, challenge_level=3) == -1
    assert cogent.assist(faces, challenge_level=3, destiny_after=1) == 0
    assert cogent.assist(faces, challenge_level=3, destiny_after=2) == 1
    assert cogent.assist((6,) * 6, challenge_level=3, destiny_after=1) == 3  # the cap holds
    assert cogent.assist(faces, challenge_level=3, destiny_before=True, destiny_after=2) == 1
    with pytest.raises(ValueError, match="at most 3 destiny points"):
        cogent.assist(faces, destiny_before=True, destiny_after=3)
    odds = cogent.assist_odds(1, challenge_level=3, destiny_after=2)
    assert odds == {-1: Fraction(1, 2), 0: Fraction(1, 2)}


def test_exact_odds_small_pools():
    assert cogent.odds(1) == {
        "success": Fraction(1, 2),
        "failure": 0,
        "critical_failure": Fraction(1, 2),
    }
    assert cogent.odds(3, challenge_level=2) == {
        "success": Fraction(1, 2),
        "failure": Fraction(3, 8),
        "critical_failure": Fraction(1, 8),
    }
    assert cogent.odds(2, destiny_before=True)["critical_failure"] == Fraction(1, 9)
    assert cogent.odds(2, challenge_level=3, destiny_after=1)["success"] == Fraction(1, 4)


def test_conflict_odds():
    assert cogent.conflict_odds(1, 1) == {
        "a": Fraction(1, 4),
        "b": Fraction(1, 4),
        "tie": Fraction(1, 2),
    }
    assert cogent.conflict_odds(0, 0) == {"a": 0, "b": 0, "tie": 1}
    odds = cogent.conflict_odds(5, 2, destiny_before_b=True)
    assert sum(odds.values()) == 1 and odds["a"] > odds["b"]


def test_roll_uses_injected_rng():
    class Script:
        def __init__(self):
            self.calls = []

        def randint(self, a, b):
            self.calls.append((a, b))
            return 4

    rng = Script()
    assert cogent.roll(3, rng) == (4, 4, 4)
    assert rng.calls == [(1, 6)] * 3


def test_reference_tables():
    assert len(cogent.CORE_SKILLS) == 15
    assert set(cogent.CORE_SKILLS.values()) == set(cogent.ATTRIBUTES)
    assert len(cogent.COMBAT_SKILLS) == 10
    assert cogent.CHALLENGE_LEVELS[8] == "Inconceivable"


def test_is_win_per_face():
    assert [cogent.is_win(f) for f in range(1, 7)] == [False] * 3 + [True] * 3
    assert [cogent.is_win(f, destiny_before=True) for f in range(1, 7)] == [False] * 2 + [True] * 4
    with pytest.raises(ValueError, match="1 to 6"):
        cogent.is_win(7)


@pytest.mark.parametrize(
    ("faces", "cl", "expected"),
    [((4, 5, 6), 3, "success"), ((4, 1), 2, "failure"), ((1, 2, 3), 1, "critical_failure")],
)
def test_outcome_names_the_odds_band(faces, cl, expected):
    result = cogent.resolve(faces, challenge_level=cl)
    assert result.outcome == expected
    assert expected in cogent.odds(len(faces), challenge_level=cl)


def test_injury_dice_come_off_physical_checks_only():
    """Rules at the table: injuries stack in dice and hit Strength, Reflex and combat pools."""
    assert cogent.injury_dice([1, 2], attribute="strength") == 3
    assert cogent.injury_dice([1, 2], attribute="Reflex") == 3
    assert cogent.injury_dice([4], attribute=None) == 4  # a combat pool
    assert cogent.injury_dice([1, 2], attribute="intelligence") == 0
    assert cogent.injury_dice([], attribute="strength") == 0
    with pytest.raises(ValueError, match="Injury level"):
        cogent.injury_dice([6], attribute="strength")
    with pytest.raises(ValueError, match="Attribute"):
        cogent.injury_dice([1], attribute="charisma")
    assert cogent.INJURY_LEVELS[5] == "Deathblow" and len(cogent.INJURY_LEVELS) == 5


def test_creation_warnings():
    assert cogent_creation.creation_warnings(core_skill_ratings=[-1, 0, 2], vocations=1) == []
    warnings = cogent_creation.creation_warnings(core_skill_ratings=[-1, -1, 0], vocations=0)
    assert warnings == [
        "2 core skills are at −1; the creation rules allow 1.",
        "No vocation yet; the creation rules give every character at least one.",
    ]


def test_reflexive_injury_level_is_capped_at_a_deathblow():
    result = cogent.resolve((1, 2, 4), challenge_level=8)
    assert result.wins == 1 and result.injury_level == 5  # CL − wins would be 7
    assert cogent.resolve((4, 5), challenge_level=4).injury_level == 2
    assert cogent.resolve((4, 5), challenge_level=2).injury_level == 0


def test_combat_circumstances_and_equipment_add_dice():
    assert cogent.circumstance_dice([]) == 0
    assert cogent.circumstance_dice(["high_ground", "flanking", "charging"]) == 5
    assert cogent.circumstance_dice(["charging", "defence"]) == 3
    for retired in ("dual_main", "dual_off"):  # dual wielding is the secondary weapon's now
        with pytest.raises(ValueError, match="choose the secondary weapon"):
            cogent.circumstance_dice([retired])
    with pytest.raises(ValueError, match="Combat circumstance"):
        cogent.circumstance_dice(["ambush"])
    assert cogent.equipment_dice(-5) == -5 and cogent.equipment_dice(5) == 5
    with pytest.raises(ValueError, match="Unequal equipment"):
        cogent.equipment_dice(6)
    # Bonus dice may add or remove; the pool never goes below 0.
    assert cogent.pool_size(skill=1, attribute=1, bonus_dice=2) == 7
    assert cogent.pool_size(skill=0, attribute=0, bonus_dice=-5) == 0
    assert cogent.combat_pool_size(combat_skill=1, attributes=[1, 0, 0], bonus_dice=3) == 8


def test_dual_wielding_is_by_the_secondary_weapons_weight_with_a_point_in_both_skills():
    # RULES.md §8 (Book, combat_modifiers.tex "Dual Wielding"): small +2D6, medium +1D6.
    assert cogent.dual_wield_dice("Small", primary_skill=2, secondary_skill=1) == 2
    assert cogent.dual_wield_dice("Medium", primary_skill=1, secondary_skill=3) == 1
    assert cogent.dual_wield_dice("", primary_skill=0, secondary_skill=0) == 0
    with pytest.raises(ValueError, match="point in the Small combat skill"):
        cogent.dual_wield_dice("Small", primary_skill=2, secondary_skill=0)
    with pytest.raises(ValueError, match="primary weapon"):
        cogent.dual_wield_dice("Medium", primary_skill=0, secondary_skill=2)
    with pytest.raises(ValueError, match="Secondary weapon must be one of Small, Medium"):
        cogent.dual_wield_dice("Large", primary_skill=2, secondary_skill=2)
    # The Book's Kelvin: base 3 + INT 1 + REF 1 + Medium 2 + rapier +1 + dagger +2 = 10D6, his
    # primary weapon's skill and bonus only.
    dagger = cogent.dual_wield_dice("Small", primary_skill=2, secondary_skill=1)
    kelvin = cogent.combat_pool_size(
        combat_skill=2, attributes=[0, 1, 1], weapon_bonus=1, bonus_dice=dagger
    )
    assert kelvin == 10


def test_unequal_equipment_counts_towards_speciality_a_decision():
    # Decision (RULES.md §8 item 7): the dice pool speciality counts is the one rolled, unequal
    # equipment included, both ways.
    assert cogent.EQUIPMENT_COUNTS_FOR_SPECIALITY is True
    assert cogent.speciality_pool(8, equipment=2) == 8  # 6 dice + good tools: a specialist
    assert cogent.auto_success(cogent.speciality_pool(8, equipment=2), challenge_level=3)
    assert cogent.speciality_pool(7, equipment=-1) == 7  # 8 dice, no lock picks: not one
    assert not cogent.auto_success(cogent.speciality_pool(7, equipment=-1), challenge_level=3)
    with pytest.raises(ValueError, match="Unequal equipment"):
        cogent.speciality_pool(8, equipment=9)


def test_a_disabling_characteristic_takes_no_dice_off_combat_pools_a_decision():
    # Decision (RULES.md §8 item 7): Feeble is "−1 to all Strength based skills and Strength
    # checks"; a combat pool draws on every attribute and is no Strength check.
    feeble = {"strength": 1, "reflex": 0}
    assert cogent.DISABILITY_ON_COMBAT is False
    assert cogent.disability_dice(feeble, attribute="strength") == 1
    assert cogent.disability_dice(feeble, attribute="intelligence") == 0
    assert cogent.disability_dice(feeble, attribute=None) == 0
    with pytest.raises(ValueError, match="Disabling characteristic dice"):
        cogent.disability_dice({"strength": -1}, attribute="strength")


def test_a_critical_failure_reads_the_dice_not_the_assist():
    """RULES §6: "only losses and no wins" on the dice; a shortfall lowers the count against the
    CL but never turns a roll with wins into a critical failure (−2 on 7 dice vs CL 1 said
    29/128); destiny after still rescues one; a good assist can't hide one that fails anyway."""
    assert cogent.odds(7, challenge_level=1, assist=-2)["critical_failure"] == Fraction(1, 128)
    assert cogent.odds(7, challenge_level=1, assist=-2)["failure"] == Fraction(28, 128)
    one_win = cogent.resolve((4, 1, 1), challenge_level=1, assist=-2)
    assert (one_win.wins, one_win.outcome) == (0, "failure")
    rescued = cogent.resolve((1, 1, 1), challenge_level=2, destiny_after=1, assist=-1)
    assert (rescued.wins, rescued.outcome) == (0, "failure")
    no_wins = cogent.resolve((1, 1, 1), challenge_level=3, assist=2)
    assert (no_wins.wins, no_wins.outcome) == (2, "critical_failure")
    assert cogent.resolve((1, 1, 1), challenge_level=2, assist=2).outcome == "success"
