from fractions import Fraction

import pytest

from rules import dad6


@pytest.mark.parametrize(
    ("level", "competence"),
    [(1, "trained"), (3, "trained"), (4, "expert"), (7, "expert"), (8, "master"), (20, "master")],
)
def test_class_skill_competence_by_level(level, competence):
    assert dad6.class_skill_competence(level) == competence


def test_pool_is_level_plus_extra_dice():
    assert dad6.pool_size(level=3, competence="familiar") == 3
    assert dad6.pool_size(level=3, competence="trained", extra_dice=2) == 5


@pytest.mark.parametrize(
    ("level", "extra", "expected"), [(5, 0, 2), (4, 1, 2), (1, 0, 1), (3, 0, 1), (6, 2, 4)]
)
def test_unfamiliar_halves_the_final_pool_rounding_down_to_at_least_one(level, extra, expected):
    assert dad6.pool_size(level=level, competence="unfamiliar", extra_dice=extra) == expected


def test_book_check_figures_for_three_plain_dice():
    # Book: "roughly 42%" at Difficulty 1 and about 7.5% at Difficulty 2.
    one = dad6.odds(3, competence="familiar", difficulty=1)["success"]
    two = dad6.odds(3, competence="familiar", difficulty=2)["success"]
    assert one == Fraction(91, 216) and round(float(one) * 100) == 42
    assert two == Fraction(16, 216) and abs(float(two) - 0.075) < 0.002


def test_competence_and_task_modify_every_die_and_seven_plus_is_a_boon():
    trained = dad6.resolve((5, 4, 1), competence="trained")
    assert trained.modified == (6, 5, 2) and trained.boons == 1 and trained.success
    master = dad6.resolve((6, 4), competence="master")
    assert master.modified == (9, 7) and master.boons == 2
    expert_task = dad6.resolve((6, 6), competence="familiar", task="expert")
    assert expert_task.boons == 0 and not expert_task.success


def test_a_familiar_character_cannot_pass_an_expert_task_without_trading():
    assert dad6.odds(10, competence="familiar", task="expert")["success"] == 0
    assert dad6.odds(10, competence="familiar", task="expert", traded_boons=1)["success"] == 1


@pytest.mark.parametrize(
    ("faces", "margin", "label"),
    [
        ((1, 2, 5), 1, "Almost!"),
        ((4,), 2, "Close!"),
        ((3, 1), 3, "A miss!"),
        ((2,), 4, "Lookout!"),
        ((1,), 5, "DUCK!"),
    ],
)
def test_failure_scope_uses_the_closest_die(faces, margin, label):
    result = dad6.resolve(faces, competence="familiar")
    assert (result.success, result.margin_of_failure, result.severity) == (False, margin, label)


def test_margin_of_five_or_more_is_duck():
    result = dad6.resolve((1, 1), competence="trained", task="specialized")
    assert (
        result.modified == (1, 1) and result.margin_of_failure == 5 and result.severity == "DUCK!"
    )


@pytest.mark.parametrize(
    ("faces", "options"),
    [
        # Familiar on an Expert task: every die is −2, none can reach 6 (a 6 reads "Close!").
        ((6,), {"competence": "familiar", "task": "expert"}),
        ((5, 6), {"competence": "familiar", "task": "specialized"}),
        # Two dice can score two boons at most: Difficulty 3 is beyond them.
        ((6, 5), {"competence": "familiar", "difficulty": 3}),
        # Everything traded and still short.
        ((), {"competence": "familiar", "difficulty": 3, "traded_boons": 2}),
    ],
)
def test_a_roll_beyond_the_character_has_no_failure_scope(faces, options):
    """Issue 48: "Almost!" on a roll whose odds of success were 0 said it nearly worked."""
    result = dad6.resolve(faces, **options)
    pool = len(faces) + result.traded_boons * dad6.DICE_PER_TRADED_BOON
    assert dad6.odds(pool, **options)["success"] == 0
    assert (result.success, result.beyond) == (False, True)
    assert (result.margin_of_failure, result.severity) == (None, None)
    assert dad6.beyond_reach(result)


def test_a_possible_roll_that_fails_keeps_its_scope_and_is_not_beyond():
    result = dad6.resolve((5, 1), competence="familiar", difficulty=2)
    assert (result.beyond, result.margin_of_failure, result.severity) == (False, 1, "Almost!")


def test_success_has_no_margin_of_failure():
    result = dad6.resolve((6,), competence="familiar")
    assert result.margin_of_failure is None and result.severity is None


def test_difficulty_counts_boons_and_the_closest_missing_die_sets_the_scope():
    result = dad6.resolve((6, 5, 1), competence="familiar", difficulty=2)
    assert (result.boons, result.success, result.margin_of_failure, result.severity) == (
        1,
        False,
        1,
        "Almost!",
    )
    assert dad6.resolve((6, 6, 1), competence="familiar", difficulty=2).success


def test_trading_eight_dice_for_a_boon():
    assert dad6.dice_rolled(17, traded_boons=2) == 1
    assert dad6.max_traded_boons(17) == 2
    result = dad6.resolve((2,), competence="familiar", difficulty=2, traded_boons=2)
    assert result.boons == 2 and result.success
    assert dad6.odds(9, competence="familiar", traded_boons=1)["success"] == 1
    assert dad6.odds(9, competence="familiar", difficulty=2, traded_boons=1)["success"] == Fraction(
        1, 6
    )


def test_everything_traded_and_still_short_is_beyond_not_almost():
    result = dad6.resolve((), competence="familiar", difficulty=3, traded_boons=2)
    assert (result.success, result.margin_of_failure, result.severity) == (False, None, None)
    assert result.beyond
    assert dad6.odds(16, competence="trained", difficulty=3, traded_boons=2)["success"] == 0


def test_roll_leaves_out_traded_dice():
    class Sixes:
        def randint(self, a, b):
            assert (a, b) == (1, 6)
            return 6

    assert dad6.roll(10, Sixes(), traded_boons=1) == (6, 6)
    assert dad6.roll(3, Sixes()) == (6, 6, 6)


def test_severity_labels():
    assert [dad6.severity(m) for m in (1, 2, 3, 4, 5, 9)] == [
        "Almost!",
        "Close!",
        "A miss!",
        "Lookout!",
        "DUCK!",
        "DUCK!",
    ]


def test_outcome_and_boon_dice_follow_the_modified_faces():
    result = dad6.resolve((5, 2, 6), competence="trained")
    assert result.boon_dice == (True, False, True)
    assert result.outcome == "success"
    assert dad6.resolve((1, 2), competence="familiar").outcome == "failure"


def test_buying_a_boon_with_a_bane():
    failed = dad6.resolve((1, 2, 5), competence="familiar")
    bought = dad6.buy_boon(failed)
    assert (bought.boons, bought.success, bought.outcome) == (1, True, "success")
    assert (bought.margin_of_failure, bought.severity, bought.bought_boons) == (None, None, 1)
    assert bought.faces == failed.faces


def test_a_bought_boon_can_still_fall_short():
    failed = dad6.resolve((1, 2, 5), competence="familiar", difficulty=3)
    bought = dad6.buy_boon(failed)
    assert (bought.boons, bought.success, bought.severity) == (1, False, "Almost!")


def test_buying_a_boon_is_for_failures_and_a_roll_still_short_buys_again():
    with pytest.raises(ValueError, match="Only a failed roll"):
        dad6.buy_boon(dad6.resolve((6,), competence="familiar"))
    once = dad6.buy_boon(dad6.resolve((1, 1, 1), competence="familiar", difficulty=3))
    twice = dad6.buy_boon(once)
    thrice = dad6.buy_boon(twice)
    assert [(r.boons, r.bought_boons, r.success) for r in (once, twice, thrice)] == [
        (1, 1, False),
        (2, 2, False),
        (3, 3, True),
    ]
    with pytest.raises(ValueError, match="Only a failed roll"):
        dad6.buy_boon(thrice)
    with pytest.raises(ValueError, match="takes a Result"):
        dad6.buy_boon("failure")


def test_the_first_purchase_progresses_a_bane_in_play_and_every_further_one_adds_a_bane():
    """Book ("Sell Boons"): "If a bane is already in play, activate it and progress it … If not,
    create a new bane"; "with each transaction, another bane is added"."""
    failed = dad6.resolve((1, 1, 1), competence="familiar", difficulty=3)
    assert dad6.bane_accepted(failed, banes_in_play=2) == dad6.BANE_PROGRESSES
    assert dad6.bane_accepted(failed, banes_in_play=0) == dad6.BANE_ADDED
    once = dad6.buy_boon(failed)
    assert dad6.bane_accepted(once, banes_in_play=2) == dad6.BANE_ADDED
    assert dad6.bane_accepted(once, banes_in_play=0) == dad6.BANE_ADDED


@pytest.mark.parametrize(
    ("faces", "options", "possible"),
    [
        ((1, 1, 1), {"difficulty": 3}, True),
        ((1, 1, 1), {"difficulty": 4}, False),  # 3 dice score at most 3 boons
        ((1,), {"difficulty": 2, "traded_boons": 1}, True),  # a traded boon counts
        ((), {"difficulty": 2, "traded_boons": 1}, False),
        # Familiar on an Expert task: every die is −2, so no die can reach 6.
        ((1, 1), {"difficulty": 1, "task": "expert"}, False),
        ((1, 1), {"difficulty": 1, "task": "expert", "competence": "master"}, True),
    ],
)
def test_a_boon_is_bought_only_when_the_task_was_possible(faces, options, possible):
    options = {"competence": "familiar"} | options
    result = dad6.resolve(faces, **options)
    pool = len(faces) + result.traded_boons * dad6.DICE_PER_TRADED_BOON
    assert (dad6.odds(pool, **options)["success"] > 0) is possible  # the same as the odds say
    assert (dad6.beyond_reach(result) == "") is possible
    if possible:
        assert dad6.buy_boon(result).bought_boons == 1
    else:
        with pytest.raises(ValueError, match="beyond this roll"):
            dad6.buy_boon(result)


def test_extra_boons_are_the_boons_above_the_difficulty():
    assert dad6.resolve((6, 6, 6), competence="familiar", difficulty=1).extra_boons == 2
    assert dad6.resolve((6, 1, 1), competence="familiar", difficulty=1).extra_boons == 0
    assert dad6.resolve((6, 1, 1), competence="familiar", difficulty=3).extra_boons == 0
    traded = dad6.resolve((6,), competence="familiar", difficulty=1, traded_boons=1)
    assert traded.extra_boons == 1


def test_spending_extra_boons_counts_down_and_stops_at_none():
    assert [dad6.spend_extra_boon(n, s) for n, s in ((2, "roll_forward"), (1, "cut_time"))] == [
        1,
        0,
    ]
    with pytest.raises(ValueError, match="No extra boons are left"):
        dad6.spend_extra_boon(0, "pay_down_bane")
    with pytest.raises(ValueError, match="Extra boon spend must be one of"):
        dad6.spend_extra_boon(1, "buy_beer")


def test_a_rolled_forward_boon_is_an_automatic_boon():
    result = dad6.resolve((1, 1), competence="familiar", difficulty=1, bonus_boons=1)
    assert (result.boons, result.bonus_boons, result.success) == (1, 1, True)
    assert dad6.odds(2, competence="familiar", difficulty=1, bonus_boons=1)["success"] == 1
    # It can make an impossible task possible, so a boon may then be bought with a bane.
    short = dad6.resolve((1, 1), competence="familiar", difficulty=3, bonus_boons=1)
    assert dad6.beyond_reach(short) == "" and dad6.buy_boon(short).boons == 2
    assert dad6.beyond_reach(dad6.resolve((1,), competence="familiar", difficulty=3, bonus_boons=1))
    with pytest.raises(ValueError, match="Rolled-forward boons"):
        dad6.resolve((1,), competence="familiar", bonus_boons=dad6.BONUS_BOONS_MAX + 1)
