"""Cogent as the Book says it (RULES.md §8) through HTTP and the API: dual wielding by the
secondary weapon, destiny after an assist roll, and the two Decisions item 7 of issue 48 asked
for (unequal equipment counts towards speciality; disabling characteristics spare combat)."""

from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.models import Assist
from rolls.rolling.forms.cogent import CogentRollForm
from rolls.rolling.outcomes import assist_effect
from rules import cogent
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import follow_url, latest, odds_url, perception, roll_url, token

pytestmark = pytest.mark.django_db

COMBAT = "cogent-subskill"


def api(user):
    _, raw = ApiToken.issue(user, name="test", scope=Scope.ROLL)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


@pytest.fixture
def duellist(client, party):
    """Ada with a Medium weapon skill at 2 (a rapier, +1) and no Small skill yet."""
    sheet = party.pc.cogent
    sheet.strength, sheet.reflex, sheet.intelligence = 0, 1, 1
    sheet.save()
    vocation = sheet.vocations.create(name="Duellist", attribute="reflex", rating=3)
    rapier = vocation.subskills.create(
        slot=1, kind="combat", name="Medium", rating=2, weapon="Medium"
    )
    client.force_login(party.pc.owner)
    return party.pc, vocation, rapier


def test_dual_wielding_adds_the_secondary_weapons_dice_with_a_point_in_both_skills(
    client, duellist
):
    """The Book's Kelvin: 3 base + INT 1 + REF 1 + Medium 2 + rapier +1 + dagger +2 = 10D6."""
    ada, vocation, rapier = duellist
    fields = {"challenge_level": 1, "extra_penalty": 0, "weapon": "Medium"}
    refused = client.post(roll_url(ada, COMBAT, rapier), fields | {"secondary_weapon": "Small"})
    assert refused.status_code == 400
    errors = refused.context["form"].errors
    assert "point in the Small combat skill" in errors["secondary_weapon"][0]
    assert not RollEntry.objects.exists()

    vocation.subskills.create(slot=2, kind="combat", name="Small", rating=1)
    shown = client.get(odds_url(ada, COMBAT, rapier), fields | {"secondary_weapon": "Small"})
    assert "= 10d6" in shown.content.decode()
    assert "+ 2 small secondary weapon" in shown.content.decode()
    medium = client.get(odds_url(ada, COMBAT, rapier), fields | {"secondary_weapon": "Medium"})
    assert "= 9d6" in medium.content.decode()  # a medium secondary weapon: +1
    rolled = client.post(roll_url(ada, COMBAT, rapier), fields | {"secondary_weapon": "Small"})
    assert rolled.status_code == 302
    entry = latest()
    assert entry.pool["dice"] == len(entry.faces) == 10
    assert entry.options["secondary_weapon"] == "Small" and entry.options["weapon_bonus"] == 1
    # The old "main hand / off hand" circumstances are refused with a pointer to the new field.
    old = client.post(roll_url(ada, COMBAT, rapier), fields | {"circumstances": ["dual_main"]})
    assert old.status_code == 400
    assert "choose the secondary weapon" in old.context["form"].errors["circumstances"][0]


def test_dual_wielding_needs_a_point_in_the_primary_weapons_skill(client, duellist):
    ada, vocation, rapier = duellist
    rapier.rating = 0
    rapier.save()
    vocation.subskills.create(slot=2, kind="combat", name="Small", rating=2)
    data = {"challenge_level": 1, "extra_penalty": 0, "weapon": "Medium"}
    refused = client.post(roll_url(ada, COMBAT, rapier), data | {"secondary_weapon": "Small"})
    assert refused.status_code == 400
    assert "primary weapon" in refused.context["form"].errors["secondary_weapon"][0]


def test_dual_wielding_is_offered_on_combat_rolls_only(client, duellist, party):
    ada, _vocation, rapier = duellist
    combat = client.get(odds_url(ada, COMBAT, rapier), {"challenge_level": 1})
    assert "secondary_weapon" in combat.context["form"].fields
    skill = client.get(odds_url(ada, "cogent-skill", perception(ada)), {"challenge_level": 1})
    assert "secondary_weapon" not in skill.context["form"].fields


def test_the_api_dual_wields_and_refuses_beside_the_field(duellist, party):
    ada, vocation, rapier = duellist
    player = api(party.pc.owner)
    args = [ada.pk, COMBAT, rapier.pk]
    detail, rolls = reverse("api:target", args=args), reverse("api:roll", args=args)
    option = {o["name"]: o for o in player.get(detail).json()["options"]}["secondary_weapon"]
    assert {c["value"] for c in option["choices"]} == {"", "Small", "Medium"}
    body = {"challenge_level": 1, "weapon": "Medium", "secondary_weapon": "Small"}
    refused = player.post(rolls, body, content_type="application/json")
    assert refused.status_code == 422
    assert "point in the Small combat skill" in refused.content.decode()
    assert "secondary_weapon" in refused.json()["errors"]
    vocation.subskills.create(slot=2, kind="combat", name="Small Arms", rating=1)
    # A sub-skill of another name is not the Small skill: still refused.
    assert player.post(rolls, body, content_type="application/json").status_code == 422
    # The Small skill of another vocation counts; a second medium weapon needs only Medium.
    other = vocation.sheet.vocations.create(name="Guard", attribute="strength", rating=1)
    other.subskills.create(slot=1, kind="combat", name="Small", rating=1)
    medium = player.get(detail, body | {"secondary_weapon": "Medium"}).json()
    priced = player.get(detail, body).json()
    assert priced["pool"]["dice"] == 3 + 2 + 2 + 1 + 2  # base, attributes, skill, rapier, +2
    assert medium["pool"]["dice"] == priced["pool"]["dice"] - 1
    rolled = player.post(rolls, body, content_type="application/json")
    assert rolled.status_code == 201, rolled.content
    assert latest().pool["dice"] == priced["pool"]["dice"]


@pytest.fixture
def ada_assists_bo(client, party, settings):
    """Ada (Perception 9d6) rolls an assist for Bo at CL 8: short of it, so destiny helps."""
    sheet = party.pc.cogent
    sheet.reflex, sheet.destiny_points = 2, 3
    sheet.save()
    sheet.skills.filter(name="Perception").update(rating=4)
    settings.ROLLS_RNG_SEED = 11
    client.force_login(party.pc.owner)
    data = {"challenge_level": 8, "extra_penalty": 0, "action": "assist"}
    response = client.post(
        roll_url(party.pc, "cogent-skill", perception(party.pc)),
        data | {"assist_for": party.other_pc.pk},
    )
    assert response.status_code == 302
    return latest()


def test_destiny_after_an_assist_roll_changes_the_wins_the_assisted_roll_takes(
    client, party, ada_assists_bo
):
    """RULES.md §8 (Book: destiny "after any d6-based roll"): +1 win on the assist roll, so its
    ± wins change before the main roll takes them; once taken, destiny can't change it."""
    assist = ada_assists_bo
    faces = [die["face"] for die in assist.faces]
    before = cogent.assist(faces, challenge_level=8)
    assert Assist.objects.get().wins == before < 8
    card = client.get(assist.get_absolute_url()).content.decode()
    assert "Spend destiny: +1 win on the assist" in card
    assert client.post(follow_url(assist, "destiny")).status_code == 302
    spent = latest()
    assert spent.kind == Kind.DESTINY and spent.follows == assist
    assert (
        spent.result["assist"]
        == before + 1
        == cogent.assist(faces, challenge_level=8, destiny_after=1)
    )
    assert Assist.objects.get().wins == before + 1
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.destiny_points == 2 and spent.resource_changes == {"destiny": -1}
    assert f"{assist_effect(before + 1)} for Bo" in spent.detail and "+ 1 destiny" in spent.detail

    client.force_login(party.other_pc.owner)
    bo_url = roll_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    data = {"challenge_level": 5, "extra_penalty": 0, "use_assist": "on"}
    assert client.post(bo_url, data).status_code == 302
    main = latest()
    assert main.options["assist"]["wins"] == before + 1
    exact = cogent.odds(main.pool["dice"], challenge_level=5, assist=before + 1)
    assert Fraction(main.odds) == exact[main.outcome]

    client.force_login(party.pc.owner)
    refused = client.post(follow_url(spent, "destiny"))
    assert refused.status_code == 409 and "already taken this assist" in refused.content.decode()
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.destiny_points == 2


def test_a_roll_priced_before_destiny_changed_the_assist_is_refused(client, party, ada_assists_bo):
    """The assisted roll's odds were shown with the old ± wins: rolling them would be wrong."""
    client.force_login(party.other_pc.owner)
    bo_url = roll_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    stale = Assist.objects.get()
    Assist.objects.filter(pk=stale.pk).update(wins=stale.wins + 1)  # as destiny after does
    original = CogentRollForm.assist_taken

    def taken_with_old_wins(form):
        found = original(form)
        if found is not None:
            found.wins = stale.wins
        return found

    CogentRollForm.assist_taken = taken_with_old_wins
    try:
        data = {"challenge_level": 5, "extra_penalty": 0, "use_assist": "on"}
        refused = client.post(bo_url, data)
    finally:
        CogentRollForm.assist_taken = original
    assert refused.status_code == 409 and "changed a moment ago" in refused.content.decode()
    assert RollEntry.objects.count() == 1


def test_the_api_spends_destiny_after_an_assist_roll(party, ada_assists_bo):
    assist = ada_assists_bo
    before = Assist.objects.get().wins
    player = api(party.pc.owner)
    url = reverse("api:follow_up", args=[token(assist), "destiny"])
    made = player.post(url, {}, content_type="application/json")
    assert made.status_code == 201, made.content
    assert made.json()["result"]["assist"] == before + 1
    assert Assist.objects.get().wins == before + 1


def test_unequal_equipment_counts_towards_speciality(client, party, settings):
    """Decision (issue 48 item 7): a 6-dice pool with +2 equipment is a specialist's 8 at CL 3;
    an 8-dice pool with −1 equipment is not."""
    sheet = party.pc.cogent
    sheet.reflex = 1
    sheet.save()
    sheet.skills.filter(name="Perception").update(rating=2)  # 3 + 2 + 1 = 6 dice
    client.force_login(party.pc.owner)
    url = odds_url(party.pc, "cogent-skill", perception(party.pc))
    tools = client.get(url, {"challenge_level": 3, "extra_penalty": 0, "equipment": 2})
    assert "= 8d6" in tools.content.decode()
    assert "Take the automatic pass" in tools.content.decode()
    sheet.skills.filter(name="Perception").update(rating=4)  # 8 dice, but no tools
    bare = client.get(url, {"challenge_level": 3, "extra_penalty": 0, "equipment": -1})
    assert "= 7d6" in bare.content.decode()
    assert "Take the automatic pass" not in bare.content.decode()


def test_a_disabling_characteristic_takes_no_dice_off_combat_pools(client, duellist):
    """Decision (issue 48 item 7): Feeble takes a die off Strength checks, none off combat."""
    ada, _vocation, rapier = duellist
    sheet = ada.cogent
    sheet.disabilities.create(name="Feeble", attribute="strength", dice=1)
    data = {"challenge_level": 1, "extra_penalty": 0}
    combat = client.get(odds_url(ada, COMBAT, rapier), data | {"weapon": "Medium"})
    assert "= 8d6" in combat.content.decode()  # 3 + 0 + 1 + 1 + 2 + 1: nothing off
    assert "disabling characteristic" not in combat.content.decode()
    athletics = sheet.skills.get(name="Athletics")
    strength = client.get(odds_url(ada, "cogent-skill", athletics), data)
    assert "1 disabling characteristic" in strength.content.decode()
