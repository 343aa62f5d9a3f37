"""Issue 48 through Discord: ``/odds`` says how much of a Cold Stars chance of success is a
Costly success, Correct's button gives the chances of better, the same and worse, every percent
is rounded half up on the exact fraction, and a waiting assist is priced and marked in the lists
as ``/odds`` prices it."""

import pytest
from django.test import Client

from log.models import RollEntry
from rolls.models import Assist
from rules import cogent, cold_stars
from sheets.models import System
from tests.discord.helpers import autocomplete, buttons, command, post, roll, target_value
from tests.rolls.helpers import athletics, perception, roll_url, seed_where

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


def test_a_waiting_assist_is_priced_and_marked_in_discord_s_lists(client, key, table, settings):
    """Issue 48, item 3: Ada's assist waits for Bo; Bo's player's ``/sheet`` and autocomplete
    price Bo's Perception with it, as ``/odds`` does, and say an assist is waiting; Ada's player,
    who may not roll Bo, reads Bo's sheet without it."""
    party = table.party
    ada_pool = perception(party.pc).pool
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cogent.assist(f) != 0, lambda rng: cogent.roll(ada_pool, rng)
    )
    web = Client()
    web.force_login(party.pc.owner)
    assisted = web.post(
        roll_url(party.pc, "cogent-skill", perception(party.pc)),
        {
            "challenge_level": 3,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party.other_pc.pk,
        },
    )
    assert assisted.status_code == 302 and Assist.objects.filter(used_by=None).exists()
    value = target_value(party.other_pc, "cogent-skill", perception(party.other_pc))
    asked = post(client, key, command(table.id("other_player"), "odds", target=value)).json()
    odds_lines = asked["data"]["embeds"][0]["description"]
    bo = post(client, key, command(table.id("other_player"), "sheet", character=party.other_pc.pk))
    [line] = [
        line
        for line in bo.json()["data"]["embeds"][0]["description"].splitlines()
        if line.startswith("**Perception**")
    ]
    assert "(an assist is waiting: Ada's assist" in line
    for part in line.split(": ", 1)[1].split(" (")[0].split(" · "):
        figure, label = part.split(" ", 1)
        assert f"**{label}**: " in odds_lines and f"({figure})" in odds_lines
    hints = post(
        client, key, autocomplete(table.id("other_player"), "roll", "target", target="percep")
    )
    [choice] = hints.json()["data"]["choices"]
    assert choice["name"].startswith("Bo · Perception (an assist is waiting): ")
    ada = post(client, key, command(table.id("player"), "sheet", character=party.other_pc.pk))
    assert "an assist is waiting" not in ada.json()["data"]["embeds"][0]["description"]
