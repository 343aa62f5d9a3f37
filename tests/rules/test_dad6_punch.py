"""DAD6 puncher's chance (Book, dad6_skill.md "Giving a puncher's chance"; RULES.md §8): natural
sixes only, the scoring dice re-rolled until the player stops or a re-roll scores nothing."""

import itertools
import random
from fractions import Fraction

import pytest

from rules import dad6


@pytest.mark.parametrize(
    ("dice", "chance"),
    [(1, Fraction(1, 6)), (2, Fraction(11, 36)), (3, Fraction(91, 216)), (4, Fraction(671, 1296))],
)
def test_the_chance_a_re_roll_scores_is_exact(dice, chance):
    assert dad6.punch_chance(dice) == chance
    # The same number as the odds of a throw that needs one boon.
    assert dad6.punch_odds(dice, difficulty=1)["success"] == chance


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("difficulty", [1, 2, 3, 5])
@pytest.mark.parametrize("banked", [0, 1, 2, 4])
def test_the_odds_of_a_throw_count_every_face(dice, difficulty, banked):
    """Against every throw of ``dice`` d6: a success needs at least one six (none loses it all)
    and the boons then banked meeting the Difficulty."""
    wins = 0
    for faces in itertools.product(range(1, 7), repeat=dice):
        sixes = faces.count(6)
        wins += sixes > 0 and banked + sixes >= difficulty
    odds = dad6.punch_odds(dice, difficulty=difficulty, banked=banked)
    assert odds["success"] == Fraction(wins, 6**dice)
    assert odds["success"] + odds["failure"] == 1


def test_only_natural_sixes_score_whatever_the_competence():
    # A Familiar character on an Expert task (every die −2) can't score a boon the usual way.
    assert dad6.odds(3, competence="familiar", task="expert")["success"] == 0
    first = dad6.punch((6, 5, 6), difficulty=2)
    assert (first.scored, first.banked, first.success, first.reroll_dice) == (2, 2, True, 2)
    assert first.throws == 1 and not first.over


def test_a_first_roll_without_a_six_is_over_and_cannot_be_re_rolled():
    first = dad6.punch((5, 4, 1))
    assert (first.banked, first.success, first.over, first.reroll_dice) == (0, False, True, 0)
    with pytest.raises(ValueError, match="is over"):
        dad6.punch_again(first, ())
    with pytest.raises(ValueError, match="is over"):
        dad6.punch_stop(first)


def test_re_rolls_bank_boons_and_stopping_counts_them():
    first = dad6.punch((6, 6, 2), difficulty=3)
    assert (first.banked, first.success) == (2, False)
    again = dad6.punch_again(first, (6, 4))
    assert (again.scored, again.banked, again.success, again.reroll_dice) == (1, 3, True, 1)
    assert again.throws == 2
    stopped = dad6.punch_stop(again)
    assert (stopped.banked, stopped.success, stopped.stopped, stopped.over) == (3, True, True, True)
    with pytest.raises(ValueError, match="stopped"):
        dad6.punch_again(stopped, (6,))


def test_a_re_roll_without_a_boon_loses_every_banked_boon():
    first = dad6.punch((6, 6, 6), difficulty=2)
    assert first.success  # three boons banked: a success, were the player to stop
    lost = dad6.punch_again(first, (1, 5, 3))
    assert (lost.lost, lost.banked, lost.success, lost.outcome, lost.over) == (
        True,
        0,
        False,
        "failure",
        True,
    )
    with pytest.raises(ValueError, match="is over"):
        dad6.punch_stop(lost)


def test_a_re_roll_throws_exactly_the_dice_that_scored():
    first = dad6.punch((6, 6, 1))
    with pytest.raises(ValueError, match="the 2 dice that scored, not 3"):
        dad6.punch_again(first, (1, 2, 3))
    with pytest.raises(ValueError, match="7 is not a face"):
        dad6.punch_again(first, (7, 1))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: dad6.punch(()), "rolls 1 to"),
        (lambda: dad6.punch((6,), difficulty=0), "Difficulty"),
        (lambda: dad6.punch_chance(0), "Re-rolled dice"),
        (lambda: dad6.punch_odds(2, banked=-1), "Banked boons"),
        (lambda: dad6.punch_again("a roll", (6,)), "takes a puncher's chance"),
    ],
)
def test_bad_input_is_refused_in_words(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_punch_roll_throws_the_dice_asked_for():
    faces = dad6.punch_roll(4, random.Random(7))
    assert len(faces) == 4 and all(1 <= face <= 6 for face in faces)
