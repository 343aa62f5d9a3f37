"""Cogent group assists (RULES.md §6): one helper rolls the assist, each further helper adds +1
die to the main roll that takes it — in the panel, the GM table's assist form, the API and the
odds; never counted towards an automatic pass, which leaves the assist waiting."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.models import Assist
from rolls.rolling.display import percent
from rules import cogent
from sheets.models import ApiToken, Scope
from tests.fuzz import UNICODE_DIGITS
from tests.rolls.helpers import latest, odds_url, panel_url, perception, roll_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ada_assists")]


def group_assist(client, party, **extra):
    data = {"challenge_level": 3, "extra_penalty": 0, "action": "assist"}
    data |= {"assist_for": party.other_pc.pk, "further_helpers": 2} | extra
    return client.post(roll_url(party.pc, "cogent-skill", perception(party.pc)), data)


def bo_roll(client, party, **data):
    fields = {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"} | data
    return client.post(roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)), fields)


def test_each_further_helper_adds_a_die_to_the_roll_that_takes_the_assist(client, party, helpful):
    client.force_login(party.pc.owner)
    assert group_assist(client, party).status_code == 302
    entry = latest()
    assert entry.kind == Kind.ASSIST and entry.options["further_helpers"] == 2
    assert "+2 dice from 2 more helpers" in entry.detail
    card = client.get(entry.get_absolute_url()).content.decode()
    assert "and +2 dice from 2 more helpers to Bo" in card
    assert Assist.objects.get().further_helpers == 2

    client.force_login(party.other_pc.owner)
    sheet = client.get(party.other_pc.get_absolute_url()).content.decode()
    assert f"Ada's assist: {helpful:+d} win" in sheet and "+2 dice from 2 more helpers" in sheet
    panel = client.get(
        panel_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    ).content.decode()
    assert "+2 dice from 2 more helpers" in panel
    shown = client.get(
        odds_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"},
    ).content.decode()
    kept = client.get(
        odds_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 2, "extra_penalty": 0},
    ).content.decode()
    pool = int(re.search(r"= (\d+)d6", shown).group(1))
    assert "+ 2 further helpers" in shown and pool == int(re.search(r"= (\d+)d6", kept)[1]) + 2
    hard = client.get(
        odds_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 6, "extra_penalty": 0, "use_assist": "on"},
    ).content.decode()
    odds = cogent.odds(pool, challenge_level=6, assist=helpful)["success"]
    assert odds != cogent.odds(pool - 2, challenge_level=6, assist=helpful)["success"]
    assert percent(odds) in hard

    assert bo_roll(client, party).status_code == 302
    main = latest()
    assert main.pool["dice"] == pool and len(main.faces) == pool
    assert main.options["assist"]["further_helpers"] == 2
    assert "+ 2 further helpers" in main.breakdown
    assert Assist.objects.get().used_by == main
    # The next roll has neither the assist nor its helpers' dice.
    assert bo_roll(client, party, use_assist="").status_code == 302
    assert latest().pool["dice"] == pool - 2


def test_a_lone_assist_adds_no_dice(client, party, helpful):
    client.force_login(party.pc.owner)
    group_assist(client, party, further_helpers=0)
    assert "further_helpers" not in latest().options and "helper" not in latest().detail
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


def test_the_helpers_dice_never_make_an_automatic_pass(client, party, settings):
    """An automatic pass leaves the assist waiting, so its helpers' dice don't count towards 8:
    Bo at 6 dice + 2 helpers vs CL 1 is offered no pass, and a crafted one is refused."""
    settings.ROLLS_RNG_SEED = 1
    bo = party.other_pc.cogent
    bo.reflex = 2
    bo.save()
    bo.skills.filter(name="Perception").update(rating=1)  # 3 + 1 + 2 = 6 dice
    client.force_login(party.pc.owner)
    group_assist(client, party)
    client.force_login(party.other_pc.owner)
    url = odds_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    shown = client.get(url, {"challenge_level": 1, "extra_penalty": 0, "use_assist": "on"})
    assert "= 8d6" in shown.content.decode()
    assert "Take the automatic pass" not in shown.content.decode()
    response = bo_roll(client, party, challenge_level=1, action="auto_pass")
    assert response.status_code == 409 and "pass automatically" in response.content.decode()
    assert not RollEntry.objects.filter(kind=Kind.AUTO_PASS).exists()
    assert bo_roll(client, party, challenge_level=1).status_code == 302
    assert latest().kind == Kind.ROLL and len(latest().faces) == 8


def test_the_gm_table_opens_a_group_assist_panel(client, party, seeded):
    client.force_login(party.gm)
    url = reverse("assist_start", args=[party.pc.campaign_id])
    fields = {"assisting": party.npc.pk, "skill": "Perception", "assisted": party.other_pc.pk}
    fields |= {"challenge_level": 4, "further_helpers": 3}
    response = client.post(url, {f"assist-{k}": v for k, v in fields.items()})
    assert response.status_code == 302 and "further_helpers=3" in response["Location"]
    panel = client.get(response["Location"]).content.decode()
    assert "Group assist: +3 dice from 3 more helpers on Bo" in panel
    fields["further_helpers"] = cogent.GROUP_HELPERS_MAX + 1
    refused = client.post(url, {f"assist-{k}": v for k, v in fields.items()})
    assert refused.status_code == 400 and "less than or equal to" in refused.content.decode()


def test_the_api_rolls_a_group_assist_and_prices_the_main_roll_with_its_dice(
    client, party, helpful
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
    body = {"challenge_level": 3, "assist_for": party.other_pc.pk, "further_helpers": 1}
    rolled = ada.post(rolls, body | {"action": "assist"}, content_type="application/json")
    assert rolled.status_code == 201, rolled.content
    assert Assist.objects.get().further_helpers == 1

    detail, rolls = urls(party.other_pc)
    alone = bo.get(detail, {"challenge_level": 2, "use_assist": "false"}).json()
    taken = bo.get(detail, {"challenge_level": 2, "use_assist": "true"}).json()
    assert taken["pool"]["dice"] == alone["pool"]["dice"] + 1
    rolled = bo.post(
        rolls, {"challenge_level": 2, "use_assist": True}, content_type="application/json"
    )
    assert rolled.status_code == 201, rolled.content
    assert latest().options["assist"]["further_helpers"] == 1
