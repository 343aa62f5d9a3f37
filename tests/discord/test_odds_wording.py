"""§8 "Odds wording" and exact percents through Discord: ``/odds`` says how much of a Cold Stars
chance of success is a Costly success, Correct's button gives the chances of better, the same and
worse, and every percent is rounded half up on the exact fraction."""

import pytest

from log.models import RollEntry
from rules import cold_stars
from sheets.models import System
from tests.discord.helpers import buttons, command, post, roll, target_value
from tests.rolls.helpers import athletics, seed_where

pytestmark = pytest.mark.django_db


@pytest.fixture
def runner(table):
    """Ada in Cold Stars: Agility 3, Athletics trained 2, 1 Momentum; her Athletics against Risk
    4 is 3 Ability + 2 Risk — 74.0% success, 52.1% of it Costly."""
    sheet = table.party.pc.cold_stars
    sheet.agility, sheet.momentum_max, sheet.momentum = 3, 5, 1
    sheet.save()
    row = sheet.skills.get(name="Athletics")
    row.trained, row.rating = True, 2
    row.save()
    return target_value(table.party.pc, "cold-stars-skill", row)


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_odds_say_how_much_of_the_chance_of_success_is_costly(client, key, table, runner):
    asked = command(table.id("player"), "odds", target=runner, ability="agility", risk=4)
    description = post(client, key, asked).json()["data"]["embeds"][0]["description"]
    assert "Chance of success: 74.0%, including 52.1% Costly success" in description


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_correct_s_button_gives_better_same_and_worse(client, key, table, runner, settings):
    pool = cold_stars.Pool(3, 0, 2)
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "costly_success", lambda rng: cold_stars.roll(pool, rng)
    )
    answer = roll(client, key, table, target=runner, ability="agility", risk=4)
    assert RollEntry.objects.get().outcome == "costly_success"
    [correct] = [b for b in buttons(answer) if ":correct:" in b["custom_id"]]
    assert correct["label"] == (
        "Correct (1 Momentum): 21.9% better, 52.1% same, 26.0% worse than Costly success"
    )


def test_percents_are_rounded_half_up_on_the_exact_chance(client, key, table):
    """Ada's 6d6 Athletics less 2 penalty dice, against CL 3: success is exactly 5/16 = 31.25%,
    which reads 31.3% (a float rounds 31.25 to even: "31.2%"); critical failure 1/16 = 6.3%."""
    sheet = table.party.pc.cogent
    sheet.strength = 1
    sheet.save()
    sheet.skills.filter(name="Athletics").update(rating=2)
    value = target_value(table.party.pc, "cogent-skill", athletics(table.party.pc))
    asked = command(table.id("player"), "odds", target=value, challenge_level=3, extra_penalty=2)
    description = post(client, key, asked).json()["data"]["embeds"][0]["description"]
    assert "5/16 (31.3%)" in description and "1/16 (6.3%)" in description
