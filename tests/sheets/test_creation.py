"""Guided character creation through HTTP: budgets shown, builds saved whole, refusals that keep
the input and write nothing, the htmx budget partial, and who may create."""

import itertools
import re

import pytest
from django.urls import reverse

from sheets.models import Character, System
from sheets.ranges import NAME_MAX_LENGTH

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def create_url(party):
    return reverse("character_create", args=[party.campaign.pk])


def as_player(client, party):
    client.force_login(party.player)
    return client


def count(party):
    return Character.objects.filter(campaign=party.campaign).count()


def created(client, party, build):
    """Create with ``build``: it must land on the new character's sheet, which is returned."""
    response = client.post(create_url(party), build)
    character = party.campaign.characters.get(name=build["name"])
    assert response.status_code == 302 and response["Location"] == character.get_absolute_url()
    return character


# --- Cogent Roleplay ---------------------------------------------------------------------------

COGENT_BUILD = {
    "name": "Rob",
    "strength": "1",
    "intelligence": "1",  # 3 more skill points: 15 in all
    "skill-1": "2",  # Athletics
    "skill-7": "1",  # Ride/Pilot
    "craft": "Horse",
    "skill-10": "-1",  # General Knowledge: the one −1, a point back
    "disability-0-name": "Phobia (heights)",
    "disability-0-how": "rolled",  # 2 more: 17
    "vocation-0-name": "Ship's Surgeon",
    "vocation-0-attribute": "intelligence",
    "vocation-0-rating": "3",  # the first point is free
    "vocation-0-sub-0-kind": "vocational:intelligence",
    "vocation-0-sub-0-name": "Surgery",
    "vocation-0-sub-0-rating": "3",
    "vocation-0-sub-1-kind": "combat:Small",
    "vocation-0-sub-1-rating": "2",
    "unspent_ok": "on",  # 8 skill points stay unspent
}  # spent: 2 + 1 − 1 + (3 − 1) + 3 + 2 = 9 of 17


def test_cogent_form_shows_the_budgets_and_ranges_before_typing(client, parties):
    party = parties[System.COGENT]
    page = as_player(client, party).get(create_url(party)).content.decode()
    assert "Attribute points: 2 of 2 left" in page
    assert "Skill points: 12 of 12 left" in page
    # A player's attribute is 0 to 2, said and enforced by the input itself.
    assert 'name="strength" value="0" min="0" max="2"' in page
    assert 'name="skill-0" value="0" min="-1" max="4"' in page
    assert "−1 to 4" in page and "0 to 2" in page
    assert "No vocation yet" in page  # the Book's soft check, before anything is typed


def test_cogent_valid_build_creates_the_whole_sheet(client, parties):
    party = parties[System.COGENT]
    rob = created(as_player(client, party), party, COGENT_BUILD)
    sheet = rob.cogent
    assert (sheet.strength, sheet.reflex, sheet.intelligence, sheet.destiny_points) == (1, 0, 1, 3)
    ratings = dict(sheet.skills.values_list("name", "rating"))
    assert (ratings["Athletics"], ratings["Ride/Pilot"], ratings["General Knowledge"]) == (2, 1, -1)
    assert sheet.skills.get(name="Ride/Pilot").craft == "Horse"
    assert list(sheet.disabilities.values_list("name", flat=True)) == ["Phobia (heights)"]
    vocation = sheet.vocations.get()
    assert (vocation.name, vocation.attribute, vocation.rating) == (
        "Ship's Surgeon",
        "intelligence",
        3,
    )
    subs = list(
        vocation.subskills.order_by("slot").values_list("kind", "name", "attribute", "rating")
    )
    assert subs == [
        ("vocational", "Surgery", "intelligence", 3),
        ("combat", "Small", "", 2),
    ]
    assert (rob.owner, rob.is_npc) == (party.player, False)
    page = client.get(rob.get_absolute_url()).content.decode()
    assert "No vocation yet" not in page


def test_cogent_over_budget_build_is_refused_beside_its_fields_and_keeps_the_input(client, parties):
    party = parties[System.COGENT]
    before = count(party)
    build = COGENT_BUILD | {
        "name": "Greedy",
        "strength": "2",  # 3 attribute points
        "skill-0": "4",
        "skill-2": "4",
        "skill-3": "4",
        "skill-4": "4",  # 26 skill points of 17
        "skill-11": "-1",  # a second −1
        "vocation-0-sub-1-rating": "4",  # above its vocation (3)
    }
    response = as_player(client, party).post(create_url(party), build)
    assert response.status_code == 400 and count(party) == before
    page = response.content.decode()
    assert "That is 3 attribute points; a new character has 2." in page
    assert "That is 26 skill points; you have 17" in page
    assert "Only 1 core skill may be −1 at creation; 2 are." in page
    assert "Not created yet: 4 things need a change" in page
    assert "A sub-skill cannot be above its vocation (3)." in page
    # The input is kept as typed.
    assert 'value="Greedy"' in page and 'name="skill-0" value="4"' in page
    assert 'value="Surgery"' in page
    assert 'name="strength" value="2"' in page


def test_cogent_points_left_unspent_are_said_and_confirmed(client, parties):
    party = parties[System.COGENT]
    before = count(party)
    build = {k: v for k, v in COGENT_BUILD.items() if k != "unspent_ok"}
    response = as_player(client, party).post(create_url(party), build)
    assert response.status_code == 400 and count(party) == before
    page = response.content.decode()
    said = "Not spent yet: 8 skill points."
    assert page.count(said) == 3  # in the summary, beside the confirmation, in the budget panel
    assert '<a href="#id_unspent_ok">' + said in page  # the summary links to it
    assert 'name="unspent_ok"' in page
    live = client.post(create_url(party), build, **HTMX).content.decode()
    assert "Not spent yet: 8 skill points. Create asks you to confirm." in live
    created(client, party, build | {"unspent_ok": "on"})


def test_a_blank_sheet_needs_no_confirming_and_says_what_is_unspent(client, parties):
    party = parties[System.COGENT]
    response = as_player(client, party).post(create_url(party), {"name": "Pip"}, follow=True)
    page = response.content.decode()
    assert "Pip created. Not spent yet: 2 attribute points and 12 skill points" in page


def test_the_summary_links_every_message_to_its_field_or_step(client, parties):
    party = parties[System.COGENT]
    build = COGENT_BUILD | {"name": "", "strength": "2", "reflex": "1", "skill-0": "9"}
    page = as_player(client, party).post(create_url(party), build).content.decode()
    summary = page.split('<ul class="error-summary">')[1].split("</ul>")[0]
    assert '<a href="#id_name">Give your character a name.</a>' in summary
    assert '<a href="#id_skill-0">' in summary
    assert '<a href="#step-attributes">That is 4 attribute points' in summary
    assert 'id="step-attributes"' in page and 'id="id_skill-0"' in page
    # The budget panel keeps the problems after the refused Create.
    panel = page.split('id="creation-budget-status"')[1].split("</aside>")[0]
    assert "That is 4 attribute points" in panel and "−1 to 4" in panel


def test_cold_stars_says_each_problem_once(client, parties):
    party = parties[System.COLD_STARS]
    build = {"name": "Vex", "agility": "3", "skill-piloting": "3"}
    live = as_player(client, party).post(create_url(party), build, **HTMX).content.decode()
    assert live.count("from 3 a domain skill needs a domain") == 1
    page = client.post(create_url(party), build).content.decode()
    panel = page.split('id="creation-budget-status"')[1].split("</aside>")[0]
    assert panel.count("from 3 a domain skill needs a domain") == 1


def test_the_creation_page_headings_go_h1_h2_h3(client, parties):
    for system in (System.COGENT, System.DAD6, System.COLD_STARS):
        party = parties[system]
        page = as_player(client, party).get(create_url(party)).content.decode()
        main = page.split('<main id="main"')[1]
        levels = [int(n) for n in re.findall(r"<h([1-6])", main)]
        assert levels[0] == 1
        assert all(b <= a + 1 for a, b in itertools.pairwise(levels)), levels


def test_cogent_messages_are_for_players_not_raw_django(client, parties):
    party = parties[System.COGENT]
    build = {"name": "Typo", "strength": "strong", "reflex": "3", "skill-0": "-2"}
    response = as_player(client, party).post(create_url(party), build)
    page = response.content.decode()
    assert response.status_code == 400 and count(party) == 4
    assert "Strength must be a whole number." in page
    assert "Reflex is 0 to 2." in page
    assert "Endurance is −1 to 4." in page
    assert "Ensure this value" not in page and "This field is required" not in page


def test_cogent_rows_half_filled_say_what_is_missing(client, parties):
    party = parties[System.COGENT]
    build = {
        "name": "Half",
        "vocation-0-rating": "1",  # a rating with no vocation
        "vocation-0-sub-0-rating": "1",  # a rating with no kind of skill
        "vocation-1-name": "Knight",  # no governing attribute
        "vocation-1-sub-0-kind": "vocational:strength",  # no name
    }
    response = as_player(client, party).post(create_url(party), build)
    page = response.content.decode()
    assert response.status_code == 400 and count(party) == 4
    for message in (
        "Name the vocation, or clear its rating and skills.",
        "Choose its attribute or a combat skill.",
        "Choose the attribute that governs it (ask your narrator).",
        "Name the vocational skill.",
    ):
        assert message in page


def test_the_gm_may_build_an_npc_over_the_budget_and_sees_warnings(client, parties):
    party = parties[System.COGENT]
    client.force_login(party.gm)
    page = client.get(create_url(party)).content.decode()
    assert 'name="strength" value="0" min="-1" max="4"' in page  # the sheet's range for NPCs
    build = {"name": "Ogre", "strength": "4", "hidden_from_players": "on"}
    preview = client.post(create_url(party), build, **HTMX).content.decode()
    assert "That is 4 attribute points; a new character has 2." in preview
    ogre = created(client, party, build)
    assert (ogre.is_npc, ogre.hidden_from_players, ogre.cogent.strength) == (True, True, 4)
    # A rule about one item is the sheet's rule for everyone: no sub-skill above its vocation.
    above = {
        "name": "Troll",
        "vocation-0-name": "Brute",
        "vocation-0-attribute": "strength",
        "vocation-0-rating": "1",
        "vocation-0-sub-0-kind": "combat:Large",
        "vocation-0-sub-0-rating": "3",
    }
    refused = client.post(create_url(party), above)
    assert refused.status_code == 400
    assert "A sub-skill cannot be above its vocation (1)." in refused.content.decode()
    assert not party.campaign.characters.filter(name="Troll").exists()


def test_a_name_alone_still_makes_a_blank_character(client, parties):
    party = parties[System.COGENT]
    pip = created(as_player(client, party), party, {"name": "Pip"})
    assert pip.cogent.strength == 0 and not pip.cogent.vocations.exists()


def test_the_htmx_partial_returns_the_updated_budget_and_writes_nothing(client, parties):
    party = parties[System.COGENT]
    before = count(party)
    response = as_player(client, party).post(
        create_url(party), COGENT_BUILD | {"strength": "0"}, **HTMX
    )
    page = response.content.decode()
    assert response.status_code == 200 and count(party) == before
    assert page.lstrip().startswith('<ul class="budgets">')  # the partial only
    assert "Attribute points: 1 of 2 left" in page
    assert "Skill points: 8 of 17 left" in page
    over = client.post(create_url(party), {"name": "", "strength": "2", "reflex": "1"}, **HTMX)
    assert over.status_code == 200  # htmx swaps only 2xx: the refusal shows in the budget
    assert "Attribute points: 1 over — 3 spent of 2" in over.content.decode()
    # A bad box counts as the blank sheet's value, and the budget says why; a missing name waits.
    typo = client.post(create_url(party), {"name": "", "strength": "x", "reflex": "9"}, **HTMX)
    text = typo.content.decode()
    assert "Strength must be a whole number." in text and "Reflex is 0 to 2." in text
    assert "Attribute points: 2 of 2 left" in text and "Give your character a name" not in text


# --- DAD6 --------------------------------------------------------------------------------------


def test_dad6_shows_that_there_is_no_budget_and_creates_class_and_skills(client, parties):
    party = parties[System.DAD6]
    page = as_player(client, party).get(create_url(party)).content.decode()
    assert "Class skills: 0" in page
    assert 'name="level" value="1" min="1" max="20"' in page
    build = {
        "name": "Nim",
        "class_name": "Thief",
        "level": "4",
        "class-0": "Climb",
        "class-1": "Hide",
        "class-2": "Pick Pockets",
        "other-0-name": "Swim",
        "other-0-competence": "unfamiliar",
    }
    preview = client.post(create_url(party), build, **HTMX).content.decode()
    assert "Class skills: 3" in preview
    assert "Class skills at level 4 are Expert (+2 per die)" in preview
    nim = created(client, party, build)
    assert (nim.dad6.class_name, nim.dad6.level) == ("Thief", 4)
    skills = set(nim.dad6.skills.values_list("name", "is_class_skill", "competence"))
    assert skills == {
        ("Climb", True, ""),
        ("Hide", True, ""),
        ("Pick Pockets", True, ""),
        ("Swim", False, "unfamiliar"),
    }


def test_dad6_invalid_rows_are_refused_with_the_input_kept(client, parties):
    party = parties[System.DAD6]
    before = count(party)
    build = {
        "name": "Nim",
        "level": "0",
        "class-0": "Climb",
        "class-1": "climb",
        "other-0-name": "Swim",
        "other-1-competence": "expert",
    }
    response = as_player(client, party).post(create_url(party), build)
    page = response.content.decode()
    assert response.status_code == 400 and count(party) == before
    for message in (
        "Class level is 1 to 20.",
        "That skill is already on the list.",
        "Choose how well they know it.",
        "Name the skill, or clear its competence.",
    ):
        assert message in page
    assert 'value="climb"' in page and 'value="Swim"' in page


# --- Cold Stars --------------------------------------------------------------------------------


def test_cold_stars_creates_abilities_skills_and_domains(client, parties):
    party = parties[System.COLD_STARS]
    page = as_player(client, party).get(create_url(party)).content.decode()
    assert "Ability points: 6" in page
    assert 'name="agility" value="1" min="1" max="5"' in page
    build = {
        "name": "Vex",
        "agility": "3",
        "will": "5",
        "skill-piloting": "3",
        "domain-piloting": "Small Craft",
        "skill-repair": "0",
        "skill-stealth": "2",
    }
    preview = client.post(create_url(party), build, **HTMX).content.decode()
    assert "Trained skills: 3" in preview
    assert "Will 5 is rare enough to define whoever has it" in preview
    vex = created(client, party, build)
    sheet = vex.cold_stars
    assert (sheet.agility, sheet.will, sheet.strength) == (3, 5, 1)
    trained = set(sheet.skills.filter(trained=True).values_list("name", "rating"))
    assert trained == {("Piloting", 3), ("Repair", 0), ("Stealth", 2)}
    piloting = sheet.skills.get(name="Piloting")
    assert list(piloting.domains.values_list("name", flat=True)) == ["Small Craft"]


def test_cold_stars_domain_skill_at_three_needs_a_domain(client, parties):
    party = parties[System.COLD_STARS]
    before = count(party)
    build = {"name": "Vex", "agility": "6", "skill-piloting": "3", "domain-firearms": "Rifles"}
    response = as_player(client, party).post(create_url(party), build)
    page = response.content.decode()
    assert response.status_code == 400 and count(party) == before
    assert "Agility is 1 to 5." in page
    assert "Piloting is rated 3: from 3 a domain skill needs a domain" in page
    assert "Firearms is untrained: train it to give it a domain." in page
    assert 'value="Rifles"' in page


def test_cold_stars_offers_the_gms_own_skills(client, parties):
    party = parties[System.COLD_STARS]
    skill = party.campaign.custom_skills.create(name="Xenology", ability="intellect")
    party.campaign.custom_skills.create(
        name="Xenobiology",
        ability="intellect",
        is_domain=True,
        example_domains=" Fungi,, Void whales ,",
    )
    client.force_login(party.player)
    # A domain skill of the GM's offers its examples like the catalog's do.
    page = client.get(create_url(party)).content.decode()
    assert "Needed from 3, e.g. Fungi, Void whales" in page
    doc = created(client, party, {"name": "Doc", f"skill-campaign-{skill.pk}": "2"})
    assert doc.cold_stars.skills.get(name="Xenology").rating == 2


# --- who may create ----------------------------------------------------------------------------


@pytest.mark.parametrize(("actor", "status"), [("observer", 403), ("nonmember", 404)])
@pytest.mark.parametrize("htmx", [False, True])
def test_only_players_and_the_gm_create_and_previews_check_too(
    client, parties, actor, status, htmx
):
    party = parties[System.COGENT]
    before = count(party)
    client.force_login(getattr(party, actor))
    response = client.post(create_url(party), COGENT_BUILD, **(HTMX if htmx else {}))
    assert response.status_code == status and count(party) == before


@pytest.mark.parametrize("system", list(System))
@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Give your character a name."),
        ("   ", "Give your character a name."),
        (
            "N" * (NAME_MAX_LENGTH + 1),
            f"Ensure this value has at most {NAME_MAX_LENGTH} characters",
        ),
    ],
)
def test_a_blank_or_too_long_name_is_refused_beside_the_field(
    client, parties, system, name, message
):
    party = parties[system]
    before = count(party)
    response = as_player(client, party).post(create_url(party), {"name": name})
    page = response.content.decode()
    assert response.status_code == 400 and count(party) == before
    assert 'id="id_name_error"' in page and message in page
    if name.strip():
        assert f'value="{name}"' in page  # what was typed stays in the box


def test_players_cannot_hide_their_characters(client, parties):
    party = parties[System.DAD6]
    assert (
        "hidden_from_players"
        not in as_player(client, party).get(create_url(party)).content.decode()
    )
    sneaky = created(client, party, {"name": "Sneaky", "hidden_from_players": "on"})
    assert (sneaky.is_npc, sneaky.hidden_from_players) == (False, False)


def test_check_the_budget_redraws_the_page_without_javascript_and_writes_nothing(client, parties):
    party = parties[System.COGENT]
    before = count(party)
    response = as_player(client, party).post(
        create_url(party), COGENT_BUILD | {"reflex": "1", "check": "1"}
    )
    page = response.content.decode()
    assert response.status_code == 200 and count(party) == before
    assert "Attribute points: 1 over — 3 spent of 2" in page
    assert "That is 3 attribute points; a new character has 2." in page
    assert 'value="Ship&#x27;s Surgeon"' in page
