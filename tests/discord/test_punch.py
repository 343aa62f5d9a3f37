"""A DAD6 puncher's chance from Discord: /roll takes it where the GM allows it, the re-roll and stop
are buttons under the roll (the re-roll's with its exact chance), and only the one who chooses
presses them — the player on a player character's roll, the GM on an NPC's."""

import pytest

from log.models import RollEntry
from rolls.models import RollCall, RollCallTarget
from rules import dad6
from tests.discord.helpers import buttons, is_private, post, press, roll, target_value
from tests.rolls.helpers import latest, seed_where, token

pytestmark = pytest.mark.django_db


@pytest.fixture
def system():
    return "dad6"


def _skill(character):
    character.dad6.level = 3
    character.dad6.save()
    return character.dad6.skills.create(name="Surgery", competence="familiar")


def _seed(dice, predicate):
    return seed_where(predicate, lambda rng: dad6.punch_roll(dice, rng))


def test_the_gm_takes_an_npc_s_punchers_chance_and_presses_its_buttons(
    client, key, table, settings
):
    party = table.party
    skill = _skill(party.npc)
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: f.count(6) == 1)
    answer = roll(
        client,
        key,
        table,
        "gm",
        target=target_value(party.npc, "dad6-skill", skill),
        punchers_chance=True,
        difficulty=2,
    )
    first = RollEntry.objects.get()
    assert first.options["punchers_chance"] is True and first.result["banked"] == 1
    found = {b["custom_id"]: b["label"] for b in buttons(answer)}
    reroll, stop = f"f:{token(first)}:punch:reroll", f"f:{token(first)}:punch:stop"
    assert found[reroll] == "Re-roll 1 die: 1/6 (16.7%) chance of a boon; none loses all 1"
    assert found[stop].startswith("Stop: 1 boon counts against Difficulty 2")
    settings.ROLLS_RNG_SEED = _seed(1, lambda f: f == (6,))
    followed = post(client, key, press(table.id("gm"), reroll)).json()
    assert not is_private(followed)
    again = latest()
    assert (again.kind, again.follows, again.result["banked"]) == ("punch", first, 2)
    assert again.outcome == "success"


def test_a_player_answers_a_call_with_it_and_the_gm_cannot_choose(client, key, table, settings):
    party = table.party
    skill = _skill(party.pc)
    call = RollCall.objects.create(
        campaign=party.campaign, skill="Surgery", difficulty=1, punchers_chance=True
    )
    RollCallTarget.objects.create(call=call, character=party.pc)
    target = target_value(party.pc, "dad6-skill", skill)
    # Without the call, the GM hasn't allowed it: nothing rolled.
    refused = roll(client, key, table, target=target, punchers_chance=True)
    assert is_private(refused) and "hasn't allowed" in refused["data"]["content"]
    assert not RollEntry.objects.exists()
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: f.count(6) == 2)
    answer = roll(client, key, table, target=target, punchers_chance=True, call=str(call.pk))
    first = RollEntry.objects.get()
    assert first.call == call and first.result["banked"] == 2
    stop = f"f:{token(first)}:punch:stop"
    assert stop in {b["custom_id"] for b in buttons(answer)}
    gm_press = post(client, key, press(table.id("gm"), stop)).json()
    assert is_private(gm_press) and "Waiting for Ada's player" in gm_press["data"]["content"]
    assert RollEntry.objects.count() == 1
    post(client, key, press(table.id("player"), stop))
    stopped = latest()
    assert (stopped.kind, stopped.result["stopped"], stopped.outcome) == ("punch", True, "success")
