"""DAD6 through the API (docs/api.md): a puncher's chance rolled, its re-roll and stop offered
with the exact chance and made as follow-ups; the GM's leave and the player's choice enforced; and
one shape of a DAD6 pool in the targets list and in a target's detail."""

import pytest
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from log.tokens import entry_token
from rolls.models import RollCall, RollCallTarget
from rules import dad6
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import latest, seed_where

pytestmark = pytest.mark.django_db


@pytest.fixture
def system():
    return "dad6"


def api(user) -> Client:
    _, raw = ApiToken.issue(user, name="test", scope=Scope.ROLL)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def _skill(character, level=3):
    character.dad6.level = level
    character.dad6.save()
    return character.dad6.skills.create(name="Surgery", competence="familiar")


def _urls(character, skill):
    args = [character.pk, "dad6-skill", skill.pk]
    return reverse("api:target", args=args), reverse("api:roll", args=args)


def _seed(dice, predicate):
    return seed_where(predicate, lambda rng: dad6.punch_roll(dice, rng))


def _entry(client, entry):
    return client.get(reverse("api:entry", args=[entry_token(entry.pk)])).json()


def test_the_pool_has_one_shape_in_the_list_and_the_detail(party):
    """Issue 48: the list said dice/competence/bonus_boons, the detail dice/rolled/traded_boons/
    die_modifier."""
    skill = _skill(party.pc)
    sheet = party.pc.dad6
    sheet.forward_boons = 1
    sheet.save()
    client = api(party.player)
    listed = client.get(reverse("api:targets", args=[party.pc.pk])).json()
    row = next(r for r in listed if r["label"] == skill.roll_label)
    detail = client.get(row["url"]).json()
    assert (
        row["pool"]
        == detail["pool"]
        == {
            "dice": 3,
            "rolled": 3,
            "traded_boons": 0,
            "bonus_boons": 1,
            "competence": "familiar",
            "die_modifier": 0,
        }
    )
    assert row["odds"] == detail["odds"]
    # A roll records the same shape (as its pool).
    client.post(_urls(party.pc, skill)[1], {}, content_type="application/json")
    assert set(latest().pool) == set(row["pool"])


def test_the_option_waits_for_the_gm_s_leave(party):
    skill = _skill(party.pc)
    target, rolls = _urls(party.pc, skill)
    client = api(party.player)
    option = next(o for o in client.get(target).json()["options"] if o["name"] == "punchers_chance")
    assert option["locked"] is True and option["type"] == "boolean"
    refused = client.post(rolls, {"punchers_chance": True}, content_type="application/json")
    assert refused.status_code == 422
    assert "hasn't allowed" in refused.json()["errors"]["punchers_chance"][0]
    assert not RollEntry.objects.exists()


def test_a_call_s_punchers_chance_is_rolled_and_followed_up_by_the_player(party, settings):
    skill = _skill(party.pc)
    call = RollCall.objects.create(
        campaign=party.campaign, skill="Surgery", difficulty=2, punchers_chance=True
    )
    RollCallTarget.objects.create(call=call, character=party.pc)
    target, rolls = _urls(party.pc, skill)
    player = api(party.player)
    plan = player.get(target, {"call": call.pk, "punchers_chance": "true"}).json()
    assert next(o for o in plan["options"] if o["name"] == "punchers_chance")["locked"] is False
    assert plan["pool"]["die_modifier"] == 0  # natural sixes only
    assert plan["odds"][0] == {
        "outcome": "success",
        "label": "Success",
        "chance": "2/27",
        "percent": "7.4%",
    }
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: f.count(6) == 2)
    rolled = player.post(
        rolls, {"call": call.pk, "punchers_chance": True}, content_type="application/json"
    )
    assert rolled.status_code == 201, rolled.content
    first = latest()
    assert rolled.json()["result"]["banked"] == 2 and first.call == call
    offers = _entry(player, first)["follow_ups"]
    assert [(o["action"], o["value"]) for o in offers] == [("punch", "reroll"), ("punch", "stop")]
    assert offers[0]["label"] == "Re-roll 2 dice: 11/36 (30.6%) chance of a boon; none loses all 2"
    assert offers[1]["label"] == "Stop: 2 boons count against Difficulty 2 — a success"
    # The GM may not choose for Ada's player; a pick not on offer is refused; nothing written.
    gm_try = api(party.gm).post(
        offers[0]["url"], {"value": "reroll"}, content_type="application/json"
    )
    assert gm_try.status_code == 403 and "Waiting for Ada's player" in gm_try.json()["detail"]
    bogus = player.post(offers[0]["url"], {"value": "double"}, content_type="application/json")
    assert bogus.status_code == 409 and "reroll" in bogus.json()["detail"]
    assert RollEntry.objects.count() == 1
    settings.ROLLS_RNG_SEED = _seed(2, lambda f: 6 not in f)
    lost = player.post(offers[0]["url"], {"value": "reroll"}, content_type="application/json")
    assert lost.status_code == 201
    body = lost.json()
    assert (body["kind"], body["outcome"], body["result"]["lost"]) == ("punch", "failure", True)
    assert _entry(player, latest())["follow_ups"] == []
