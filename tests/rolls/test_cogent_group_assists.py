"""Cogent group assists (RULES.md §8, replacing §6): one helper rolls the assist and each further
helper adds +1 die to that assist roll — in the panel, the GM table's assist form, the API and
Discord; the roll that takes it gets the assist's ± wins, and its odds include them exactly."""

import re
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.models import Assist
from rolls.rolling.display import percent
from rules import cogent
from sheets.models import ApiToken, Scope
from tests.fuzz import UNICODE_DIGITS
from tests.rolls.helpers import ADA_POOL, latest, odds_url, perception, roll_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ada_assists")]


def group_assist(client, party, **extra):
    data = {"challenge_level": 3, "extra_penalty": 0, "action": "assist"}
    data |= {"assist_for": party.other_pc.pk, "further_helpers": 2} | extra
    return client.post(roll_url(party.pc, "cogent-skill", perception(party.pc)), data)


def bo_roll(client, party, **data):
    fields = {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"} | data
    return client.post(roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)), fields)


def bo_odds(client, party, **data):
    fields = {"challenge_level": 6, "extra_penalty": 0} | data
    url = odds_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    return client.get(url, fields).content.decode()


def test_further_helpers_add_dice_to_the_assist_roll_not_to_the_roll_that_takes_it(
    client, party, seeded
):
    """RULES.md §8 (Book, assists.tex "Group Assists"): each further helper adds a die to the
    assist roll; the assisted roll takes the assist's ± wins, never dice."""
    client.force_login(party.pc.owner)
    url = odds_url(party.pc, "cogent-skill", perception(party.pc))
    fields = {"challenge_level": 3, "extra_penalty": 0, "assist_for": party.other_pc.pk}
    shown = client.get(url, fields | {"further_helpers": 2}).content.decode()
    assert f"= {ADA_POOL + 2}d6" in shown and "+ 2 further helpers" in shown
    assert "+2 dice from 2 more helpers on this assist roll" in shown
    assert group_assist(client, party).status_code == 302
    entry = latest()
    assert entry.kind == Kind.ASSIST and entry.options["further_helpers"] == 2
    assert entry.pool["dice"] == len(entry.faces) == ADA_POOL + 2
    assert "+ 2 further helpers" in entry.breakdown
    assert "a group assist: 2 more helpers rolled with it" in entry.detail
    wins = cogent.assist([die["face"] for die in entry.faces], challenge_level=3)
    assert Assist.objects.get().wins == entry.result["assist"] == wins

    client.force_login(party.other_pc.owner)
    assert (
        f"Ada's assist: {wins:+d} win"
        in client.get(party.other_pc.get_absolute_url()).content.decode()
    )
    taken, kept = bo_odds(client, party, use_assist="on"), bo_odds(client, party)
    pool = int(re.search(r"= (\d+)d6", taken)[1])
    assert pool == int(re.search(r"= (\d+)d6", kept)[1]) and "further helper" not in taken
    # The odds shown are the engine's for the roll's own dice and the assist's ± wins, exactly.
    assert percent(cogent.odds(pool, challenge_level=6, assist=wins)["success"]) in taken

    assert bo_roll(client, party).status_code == 302
    main = latest()
    assert main.pool["dice"] == len(main.faces) == pool
    assert (
        main.options["assist"]["wins"] == wins and "further_helpers" not in main.options["assist"]
    )
    assert "further helper" not in main.breakdown
    assert Assist.objects.get().used_by == main


def test_a_lone_assist_adds_no_dice(client, party, helpful):
    client.force_login(party.pc.owner)
    group_assist(client, party, further_helpers=0)
    assert "further_helpers" not in latest().options and "helper" not in latest().detail
    assert latest().pool["dice"] == ADA_POOL
    client.force_login(party.other_pc.owner)
    bo_roll(client, party)
    assert "further_helpers" not in latest().options["assist"]
    assert "further helpers" not in latest().breakdown


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"assist_for": ""}, "Further helpers join an assist"),
        ({"further_helpers": cogent.GROUP_HELPERS_MAX + 1}, "less than or equal to"),
        ({"further_helpers": -1}, "greater than or equal to"),
        ({"further_helpers": "two"}, "whole number"),
        ({"further_helpers": UNICODE_DIGITS[2]}, "whole number"),  # "²"
    ],
)
def test_bad_further_helpers_are_refused_beside_the_field_and_write_nothing(
    client, party, extra, message
):
    client.force_login(party.pc.owner)
    data = {"action": "roll"} if extra.get("assist_for") == "" else {}
    response = group_assist(client, party, **(extra | data))
    assert response.status_code == 400 and message in response.content.decode()
    assert not RollEntry.objects.exists() and not Assist.objects.exists()


def test_the_gm_table_opens_a_group_assist_panel(client, party, seeded):
    client.force_login(party.gm)
    url = reverse("assist_start", args=[party.pc.campaign_id])
    fields = {"assisting": party.npc.pk, "skill": "Perception", "assisted": party.other_pc.pk}
    fields |= {"challenge_level": 4, "further_helpers": 3}
    response = client.post(url, {f"assist-{k}": v for k, v in fields.items()})
    assert response.status_code == 302 and "further_helpers=3" in response["Location"]
    panel = client.get(response["Location"]).content.decode()
    assert "Group assist: +3 dice from 3 more helpers on this assist roll" in panel
    fields["further_helpers"] = cogent.GROUP_HELPERS_MAX + 1
    refused = client.post(url, {f"assist-{k}": v for k, v in fields.items()})
    assert refused.status_code == 400 and "less than or equal to" in refused.content.decode()


def test_the_api_rolls_a_group_assist_with_its_dice_and_prices_the_main_roll_exactly(
    client, party, seeded
):
    def api(user):
        _, raw = ApiToken.issue(user, name="test", scope=Scope.ROLL)
        return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")

    def urls(character):
        args = [character.pk, "cogent-skill", perception(character).pk]
        return reverse("api:target", args=args), reverse("api:roll", args=args)

    ada, bo = api(party.pc.owner), api(party.other_pc.owner)
    detail, rolls = urls(party.pc)
    options = {o["name"]: o for o in ada.get(detail).json()["options"]}
    assert options["further_helpers"]["max"] == cogent.GROUP_HELPERS_MAX
    assert "assist roll" in options["further_helpers"]["help"]
    body = {"challenge_level": 3, "assist_for": party.other_pc.pk, "further_helpers": 1}
    priced = ada.get(detail, body).json()
    assert priced["pool"]["dice"] == ADA_POOL + 1
    rolled = ada.post(rolls, body | {"action": "assist"}, content_type="application/json")
    assert rolled.status_code == 201, rolled.content
    assert latest().pool["dice"] == ADA_POOL + 1
    wins = Assist.objects.get().wins

    detail, rolls = urls(party.other_pc)
    alone = bo.get(detail, {"challenge_level": 4, "use_assist": "false"}).json()
    taken = bo.get(detail, {"challenge_level": 4, "use_assist": "true"}).json()
    assert taken["pool"]["dice"] == alone["pool"]["dice"]
    exact = cogent.odds(taken["pool"]["dice"], challenge_level=4, assist=wins)
    assert {o["outcome"]: Fraction(o["chance"]) for o in taken["odds"]} == {
        k: v for k, v in exact.items() if v
    }
    rolled = bo.post(
        rolls, {"challenge_level": 4, "use_assist": True}, content_type="application/json"
    )
    assert rolled.status_code == 201, rolled.content
    assert latest().pool["dice"] == alone["pool"]["dice"]
    assert latest().options["assist"]["wins"] == wins
