"""Sheet pages: engine pools beside each row, HTMX partial updates, and the same forms without JS."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from rules import cogent, cold_stars, dad6
from sheets.models import Character, Role, System
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def pool_cell(html, row_id):
    row = re.search(rf'<tr id="{row_id}".*?</tr>', html, re.S).group(0)
    return re.sub(
        r"\s+", " ", re.search(r'<td class="pool"[^>]*>(.*?)</td>', row, re.S).group(1)
    ).strip()


def test_demo_rob_has_a_six_dice_athletics_pool(client):
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    rob = Character.objects.get(name="Rob", campaign__name="Cogent demo")
    athletics = rob.cogent.skills.get(name="Athletics")
    assert (rob.cogent.strength, athletics.rating) == (1, 2)
    # Through the login form, as a person would (django-axes needs the request to authenticate).
    login = client.post("/accounts/login/", {"username": "alice", "password": "poolside"})
    assert login.status_code == 302
    html = client.get(rob.get_absolute_url()).content.decode()
    assert pool_cell(html, f"skill-{athletics.pk}") == "6d6"


def test_demo_is_idempotent_and_complete():
    out = open("/dev/null", "w")  # noqa: SIM115
    call_command("demo", stdout=out)
    counts = (Character.objects.count(), Character.objects.values("campaign").distinct().count())
    call_command("demo", stdout=out)
    assert (Character.objects.count(), 3) == (counts[0], counts[1])
    for name in ("Cogent demo", "DAD6 demo", "Cold Stars demo"):
        characters = Character.objects.filter(campaign__name=name)
        players = {c.owner.username for c in characters if not c.is_npc}
        assert players == {"alice", "bob"}
        # The GM's NPCs, for the GM table's quick rolls (one hidden in Cold Stars).
        npcs = characters.filter(is_npc=True)
        assert npcs and {c.owner.username for c in npcs} == {"gm"}
        roles = dict(characters.first().campaign.memberships.values_list("user__username", "role"))
        assert roles == {"gm": Role.GM, "alice": Role.PLAYER, "bob": Role.PLAYER}


def test_cogent_pools_come_from_the_engine(client):
    character = CharacterFactory()
    sheet = character.cogent
    sheet.strength, sheet.reflex, sheet.intelligence = 2, 1, -1
    sheet.save()
    sheet.injuries.create(level=1, description="cut")
    vocation = sheet.vocations.create(name="Soldier", attribute="strength", rating=3)
    combat = vocation.subskills.create(slot=1, kind="combat", name="Medium", rating=2)
    craft = vocation.subskills.create(
        slot=2, kind="vocational", name="Drill", attribute="intelligence", rating=1
    )
    swim = sheet.skills.get(name="Swim")
    client.force_login(character.owner)
    html = client.get(character.get_absolute_url()).content.decode()
    assert (
        pool_cell(html, f"skill-{swim.pk}")
        == f"{cogent.pool_size(skill=0, attribute=2, modifier=-1)}d6"
    )
    # No weapon stored: the Medium skill's own weapon, +1 (CogentSubSkill.weapon_now).
    expected = cogent.combat_pool_size(
        combat_skill=2, attributes=[2, 1, -1], weapon_bonus=1, modifier=-1
    )
    assert pool_cell(html, f"subskill-{combat.pk}") == f"{expected}d6"
    # Rules at the table: injuries come off physical checks only; Drill is an Intelligence skill.
    expected = cogent.pool_size(skill=1, attribute=-1, modifier=0)
    assert pool_cell(html, f"subskill-{craft.pk}") == f"{expected}d6"


def test_dad6_class_skills_show_the_competence_their_level_gives(client):
    character = CharacterFactory(campaign__system=System.DAD6)
    sheet = character.dad6
    sheet.level = 8
    sheet.save()
    skill = sheet.skills.create(name="Tracking", is_class_skill=True)
    other = sheet.skills.create(name="Swimming", competence="unfamiliar")
    client.force_login(character.owner)
    html = client.get(character.get_absolute_url()).content.decode()
    assert dad6.class_skill_competence(8) == "master"
    assert "Master (from level)" in html
    assert pool_cell(html, f"skill-{skill.pk}").startswith(
        f"{dad6.pool_size(level=8, competence='master')}d6"
    )
    assert (
        pool_cell(html, f"skill-{other.pk}")
        == f"{dad6.pool_size(level=8, competence='unfamiliar')}d6"
    )


def test_cold_stars_pool_uses_the_suggested_ability(client):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.agility = 3
    sheet.save()
    piloting = sheet.skills.get(name="Piloting")
    assert piloting.ability == "agility" and piloting.is_domain
    acrobatics = sheet.skills.get(name="Acrobatics")
    acrobatics.trained, acrobatics.rating = True, 2
    acrobatics.save()
    client.force_login(character.owner)
    html = client.get(character.get_absolute_url()).content.decode()
    untrained = cold_stars.build_pool(ability=3, skill=0, risk=0, trained=False, domain_skill=True)
    assert pool_cell(html, f"skill-{piloting.pk}") == untrained.describe() == "3 Ability + 1 Risk"
    trained = cold_stars.build_pool(ability=3, skill=2, risk=0)
    assert pool_cell(html, f"skill-{acrobatics.pk}") == trained.describe()
    assert "Small Craft" in html  # example domains from the catalog


def test_every_edit_form_is_a_real_form_with_csrf_and_htmx(client):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    client.force_login(character.owner)
    html = client.get(character.get_absolute_url(), {"edit": "skills"}).content.decode()
    forms = re.findall(r"<form[^>]*>.*?</form>", html, re.S)
    sheet_forms = [f for f in forms if "/characters/" in f]
    # The section's one Save, and each domain skill's Add domain.
    assert any('id="skills-form"' in form for form in sheet_forms)
    assert len(sheet_forms) == 1 + character.cold_stars.skills.filter(is_domain=True).count()
    for form in sheet_forms:
        assert 'method="post"' in form
        action = re.search(r'action="([^"]+)"', form).group(1)
        assert f'hx-post="{action}"' in form
        assert "csrfmiddlewaretoken" in form
    assert 'hx-headers=\'{"X-CSRFToken": ' in html


def test_readers_see_values_not_forms(client):
    character = CharacterFactory()
    observer = MembershipFactory(campaign=character.campaign, role=Role.OBSERVER).user
    client.force_login(observer)
    html = client.get(character.get_absolute_url()).content.decode()
    assert "hx-post" not in html.split('id="sheet"')[1]
    assert "6d6" not in html and "3d6" in html


def test_sub_skill_lifecycle_and_the_four_slot_cap(client):
    character = CharacterFactory()
    client.force_login(character.owner)
    client.post(
        reverse("cogent_vocation_add", args=[character.pk]),
        {
            "add-vocation-name": "Pilot",
            "add-vocation-attribute": "reflex",
            "add-vocation-rating": 4,
        },
    )
    vocation = character.cogent.vocations.get()
    url = reverse("cogent_subskill_add", args=[character.pk, vocation.pk])
    prefix = f"add-subskill-{vocation.pk}"
    for name in ("Small", "Medium", "Large", "Reach"):
        response = client.post(
            url, {f"{prefix}-kind": "combat", f"{prefix}-combat_skill": name, f"{prefix}-rating": 1}
        )
        assert response.status_code == 302
    response = client.post(
        url,
        {f"{prefix}-kind": "combat", f"{prefix}-combat_skill": "Unarmed", f"{prefix}-rating": 1},
    )
    assert response.status_code == 400
    assert vocation.subskills.count() == 4
    # With four sub-skills the page no longer offers the add form.
    html = client.get(character.get_absolute_url()).content.decode()
    assert "Add a sub-skill to Pilot" not in html


def test_cold_stars_last_domain_of_a_rank_three_skill_cannot_be_deleted(client):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    piloting = character.cold_stars.skills.get(name="Piloting")
    domain = piloting.domains.create(name="Small Craft")
    piloting.trained, piloting.rating = True, 3
    piloting.save()
    client.force_login(character.owner)
    url = reverse("cold_stars_domain_delete", args=[character.pk, domain.pk])
    why = "Piloting is rated 3, so it needs at least one domain"
    # The refusal says why, with the Skills section still in edit mode, with htmx or without.
    response = client.post(url, {"confirm": "yes"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"?edit=skills#skill-{piloting.pk}")
    page = client.get(response["Location"]).content.decode()
    assert re.search(rf'class="message error"[^>]*>[^<]*{why}', page)
    html = client.post(url, {"confirm": "yes"}, headers=HX).content.decode()
    assert why in html and 'id="skills-form"' in html
    assert piloting.domains.count() == 1
    second = piloting.domains.create(name="Racing Skiffs")
    client.post(
        reverse("cold_stars_domain_delete", args=[character.pk, second.pk]), {"confirm": "yes"}
    )
    assert list(piloting.domains.values_list("name", flat=True)) == ["Small Craft"]


def test_player_cannot_raise_resource_maximums(client):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    client.force_login(character.owner)
    data = {
        f"sheet-{a}": 2
        for a in ("strength", "agility", "intellect", "presence", "perception", "will")
    }
    data |= {
        "sheet-momentum": 0,
        "sheet-willpower": 0,
        "sheet-momentum_max": 9,
        "sheet-willpower_max": 9,
    }
    url = reverse("sheet_section", args=[character.pk, "abilities"])
    assert client.post(url, data).status_code == 302
    character.cold_stars.refresh_from_db()
    assert (character.cold_stars.strength, character.cold_stars.momentum_max) == (2, 0)


def test_gm_custom_skill_reaches_every_sheet(client):
    campaign = CampaignFactory(system=System.COLD_STARS)
    a = CharacterFactory(campaign=campaign)
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    response = client.post(
        reverse("campaign_skills", args=[campaign.pk]),
        {
            "name": "Xenology",
            "group": "Knowledge",
            "ability": "intellect",
            "is_domain": "on",
            "example_domains": "Fungi, Void whales",
        },
    )
    assert response.status_code == 302
    b = CharacterFactory(campaign=campaign)
    for character in (a, b):
        skill = character.cold_stars.skills.get(name="Xenology")
        assert (skill.ability, skill.is_domain, skill.example_domains) == (
            "intellect",
            True,
            ("Fungi", "Void whales"),
        )


def test_character_creation_player_pc_and_gm_npc(client):
    campaign = CampaignFactory(system=System.DAD6)
    player = MembershipFactory(campaign=campaign).user
    client.force_login(player)
    response = client.post(reverse("character_create", args=[campaign.pk]), {"name": "Pip"})
    pip = campaign.characters.get(name="Pip")
    assert response["Location"] == pip.get_absolute_url()
    assert (pip.owner, pip.is_npc, pip.dad6.level) == (player, False, 1)
    client.post(
        reverse("character_create", args=[campaign.pk]),
        {"name": "Sneaky", "hidden_from_players": "on"},
    )
    assert not campaign.characters.get(name="Sneaky").hidden_from_players  # players can't hide
    gm = campaign.memberships.get(role=Role.GM).user
    client.force_login(gm)
    client.post(
        reverse("character_create", args=[campaign.pk]),
        {"name": "Boss", "hidden_from_players": "on"},
    )
    boss = campaign.characters.get(name="Boss")
    assert (boss.owner, boss.is_npc, boss.hidden_from_players) == (gm, True, True)
    assert Character.objects.filter(campaign=campaign).count() == 3


def test_cogent_character_gets_the_fifteen_core_skills():
    character = CharacterFactory()
    skills = dict(character.cogent.skills.values_list("name", "attribute"))
    assert len(skills) == 15
    assert skills == {name: attr.lower() for name, attr in cogent.CORE_SKILLS.items()}
    assert character.cogent.destiny_points == 3


def test_delete_character(client):
    character = CharacterFactory()
    client.force_login(character.owner)
    response = client.post(reverse("character_delete", args=[character.pk]))
    assert response["Location"] == character.campaign.get_absolute_url()
    assert not Character.objects.filter(pk=character.pk).exists()
