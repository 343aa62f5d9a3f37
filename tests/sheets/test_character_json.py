import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from sheets.character_json import (
    CharacterImportError,
    export_character,
    export_json,
    import_character,
)
from sheets.models import Character, Role, System
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def rich_character(system):
    character = CharacterFactory(campaign__system=system, name="Exported", notes="Line one")
    if system == System.COGENT:
        sheet = character.cogent
        sheet.strength = 1
        sheet.save()
        sheet.skills.filter(name="Athletics").update(rating=2)
        vocation = sheet.vocations.create(name="Surgeon", attribute="intelligence", rating=3)
        vocation.subskills.create(
            slot=1, kind="vocational", name="Suture", attribute="reflex", rating=2
        )
        vocation.subskills.create(slot=2, kind="combat", name="Small", rating=1, weapon="Small")
        vocation.subskills.create(
            slot=3, kind="combat", name="Hand Ballistic", rating=1, weapon="custom", weapon_bonus=2
        )
        sheet.skills.filter(name="Ride/Pilot").update(craft="Horse")
        sheet.injuries.create(level=2, description="broken arm")
        sheet.disabilities.create(name="Feeble", attribute="strength", dice=1)
        sheet.disabilities.create(name="Phobia (heights)")
    elif system == System.DAD6:
        sheet = character.dad6
        sheet.class_name, sheet.level = "Ranger", 5
        sheet.save()
        sheet.skills.create(name="Tracking", is_class_skill=True)
        sheet.skills.create(name="Cooking", competence="familiar")
        sheet.banes.create(description="Owes the ferryman")
        sheet.forward_boons = 2
        sheet.save()
    else:
        sheet = character.cold_stars
        sheet.agility, sheet.momentum_max, sheet.momentum = 4, 5, 2
        sheet.save()
        piloting = sheet.skills.get(name="Piloting")
        piloting.domains.create(name="Small Craft")
        piloting.trained, piloting.rating = True, 3
        piloting.save()
    return character


def strip(data):
    """The export minus identity, for comparing two characters' sheets."""
    return {k: v for k, v in data.items() if k != "character"} | {
        "character": {"notes": data["character"]["notes"]}
    }


@pytest.mark.parametrize("system", System.values)
def test_round_trip_into_another_campaign_of_the_same_system(system):
    original = rich_character(system)
    target = CampaignFactory(system=system)
    # As the GM: the one role whose import keeps every field (Cold Stars maximums included).
    gm = target.memberships.get(role=Role.GM)
    copy = import_character(export_json(original), membership=gm).character
    assert copy.campaign == target and copy.owner == gm.user and copy.name == "Exported"
    assert strip(export_character(copy)) == strip(export_character(original))


def test_rob_exports_with_versioned_schema():
    data = export_character(rich_character(System.COGENT))
    assert (data["format"], data["version"], data["system"]) == ("poolside-character", 1, "cogent")
    athletics = next(s for s in data["sheet"]["skills"] if s["name"] == "Athletics")
    assert athletics == {"name": "Athletics", "rating": 2}


def errors_for(raw, system=System.COGENT):
    campaign = CampaignFactory(system=system)
    membership = MembershipFactory(campaign=campaign)
    before = Character.objects.count()
    with pytest.raises(CharacterImportError) as exc:
        import_character(raw, membership=membership)
    # Never a half-imported character.
    assert Character.objects.count() == before
    return exc.value.errors


def valid(system=System.COGENT):
    return export_character(rich_character(system))


def test_not_json():
    assert "not valid JSON" in errors_for("{oops")[0]


def test_not_a_poolside_export():
    assert "not a Poolside character export" in errors_for('{"name": "x"}')[0]
    assert "not a Poolside character export" in errors_for("[1, 2]")[0]


def test_unsupported_version():
    assert "version 2 is not supported" in errors_for(json.dumps(valid() | {"version": 2}))[0]


def test_other_system():
    message = errors_for(json.dumps(valid(System.DAD6)))[0]
    assert "DAD6 Skills character" in message and "Cogent Roleplay" in message


def test_wrong_shapes():
    assert "sheet: expected an object" in errors_for(json.dumps(valid() | {"sheet": []}))[0]
    data = valid()
    data["sheet"]["skills"] = "Athletics"
    assert errors_for(json.dumps(data)) == ["sheet.skills: expected a list ([…])."]


def test_every_bad_value_is_reported_with_its_path_and_nothing_is_created():
    data = valid()
    data["character"]["name"] = ""
    assert errors_for(json.dumps(data))[0].startswith("character.name:")
    data = valid()
    data["sheet"]["strength"] = 9
    data["sheet"]["skills"][1]["rating"] = 7
    data["sheet"]["skills"].append({"name": "Hacking", "rating": 1})
    data["sheet"]["vocations"][0]["subskills"][0]["rating"] = 4  # above the vocation's 3
    errors = errors_for(json.dumps(data))
    assert any(e.startswith("sheet.strength:") for e in errors)
    assert any(e.startswith("sheet.skills[1].rating:") for e in errors)
    assert any("“Hacking” is not one of the 15 Cogent core skills" in e for e in errors)
    assert any(
        e.startswith("sheet.vocations[0].subskills[0].rating:") and "above its vocation" in e
        for e in errors
    )


def test_dad6_errors():
    data = valid(System.DAD6)
    data["sheet"]["level"] = 0
    data["sheet"]["skills"].append({"name": "Lore", "is_class_skill": False})
    errors = errors_for(json.dumps(data), System.DAD6)
    assert any(e.startswith("sheet.level:") for e in errors)
    assert any(e.startswith("sheet.skills[2].competence:") for e in errors)


def test_dad6_banes_in_play_travel_with_the_character():
    data = export_character(rich_character(System.DAD6))
    assert data["sheet"]["banes"] == ["Owes the ferryman"]
    data["sheet"]["banes"] += ["", 3, "x" * 101]
    errors = errors_for(json.dumps(data), System.DAD6)
    assert [e.split(":")[0] for e in errors] == [
        "sheet.banes[1].description",
        "sheet.banes[2]",
        "sheet.banes[3].description",
    ]


def test_cold_stars_errors():
    data = valid(System.COLD_STARS)
    data["sheet"]["skills"][0]["domains"] = []  # Piloting 3 without a domain
    data["sheet"]["skills"].append({"name": "Necromancy", "trained": True, "rating": 1})
    errors = errors_for(json.dumps(data), System.COLD_STARS)
    assert any("needs at least one domain" in e for e in errors)
    assert any("“Necromancy” is not a skill in this campaign" in e for e in errors)


def test_import_view_accepts_a_file_and_reports_errors_beside_the_form(client):
    original = rich_character(System.COGENT)
    target = CampaignFactory(system=System.COGENT)
    client.force_login(MembershipFactory(campaign=target).user)
    url = reverse("character_import", args=[target.pk])
    upload = SimpleUploadedFile("rob.json", export_json(original).encode(), "application/json")
    response = client.post(url, {"file": upload})
    assert response.status_code == 302
    created = target.characters.get()
    assert response["Location"] == created.get_absolute_url()
    assert not created.is_npc

    response = client.post(url, {"text": "{broken"})
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()
    response = client.post(url, {})
    assert response.status_code == 400
    assert "Choose a file or paste" in response.content.decode()
    assert target.characters.count() == 1


def test_gm_imports_an_npc(client):
    original = rich_character(System.DAD6)
    target = CampaignFactory(system=System.DAD6)
    client.force_login(target.memberships.get().user)
    response = client.post(
        reverse("character_import", args=[target.pk]), {"text": export_json(original)}
    )
    assert response.status_code == 302
    assert target.characters.get().is_npc


def test_export_view_downloads_json(client):
    character = rich_character(System.COLD_STARS)
    client.force_login(character.owner)
    response = client.get(reverse("character_export", args=[character.pk]))
    assert response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["system"] == "cold_stars"


def test_an_old_export_with_injury_dice_imports_them_as_injuries():
    data = json.loads(export_json(rich_character(System.COGENT)))
    del data["sheet"]["injuries"]
    data["sheet"]["injury_dice"] = 7  # the one number exports carried before injuries
    target = CampaignFactory(system=System.COGENT)
    gm = target.memberships.get(role=Role.GM)
    copy = import_character(json.dumps(data), membership=gm).character
    levels = sorted(i.level for i in copy.cogent.injuries.all())
    assert levels == [2, 5] and copy.cogent.injury_dice == 7


def test_only_the_gm_imports_rolled_forward_boons():
    data = export_json(rich_character(System.DAD6))
    target = CampaignFactory(system=System.DAD6)
    player = MembershipFactory(campaign=target, role=Role.PLAYER)
    imported = import_character(data, membership=player)
    assert imported.character.dad6.forward_boons == 0
    assert "forward_boons" in imported.notices[0]
    gm = target.memberships.get(role=Role.GM)
    assert import_character(data, membership=gm).character.dad6.forward_boons == 2


@pytest.mark.parametrize(
    ("system", "where", "path"),
    [
        (System.COGENT, ("character", "name"), "character.name"),
        (System.COGENT, ("character", "notes"), "character.notes"),
        (System.COGENT, ("sheet", "vocations", 0, "name"), "sheet.vocations[0].name"),
        (System.COGENT, ("sheet", "skills", 0, "name"), "sheet.skills[0].name"),
        (System.DAD6, ("sheet", "class_name"), "sheet.class_name"),
        (System.DAD6, ("sheet", "skills", 0, "name"), "sheet.skills[0].name"),
        (System.COLD_STARS, ("sheet", "skills", 0, "name"), "sheet.skills[0].name"),
        (System.COLD_STARS, ("sheet", "skills", 0, "domains", 0), "sheet.skills[0].domains[0]"),
    ],
)
@pytest.mark.parametrize("shape", [["a"], {"a": "b"}])
def test_a_list_or_an_object_where_text_belongs_is_refused(system, where, path, shape):
    """["a"] became the character's name: a form reads the repr of whatever it is given."""
    data = valid(system)
    parent = data
    for key in where[:-1]:
        parent = parent[key]
    parent[where[-1]] = shape
    errors = errors_for(json.dumps(data), system)
    assert any(e.startswith(path) and "expected" in e for e in errors), errors


@pytest.mark.parametrize("field", ["name", "notes"])
def test_a_lone_surrogate_is_refused_beside_the_form_and_writes_nothing(client, field):
    """JSON's "\\ud800" escape decodes to no character; PostgreSQL refused to store it (a 500)."""
    campaign = CampaignFactory(system=System.COGENT)
    client.force_login(MembershipFactory(campaign=campaign).user)
    data = valid()
    data["character"][field] = "Rob \ud800"
    raw = json.dumps(data)  # ensure_ascii: the surrogate travels as the escape \ud800
    assert "\\ud800" in raw
    response = client.post(reverse("character_import", args=[campaign.pk]), {"text": raw})
    assert response.status_code == 400
    assert f"character.{field}: this text holds a lone surrogate" in response.content.decode()
    assert not campaign.characters.exists()
