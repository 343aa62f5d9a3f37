"""Rules at the table (docs/rules.md, "Rules at the table"): the Decisions that settle how the
rules apply in panels, follow-ups, calls and contests — each through the HTTP client."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.models import ContestState
from rules import cogent, cold_stars
from sheets.models import ApiToken, Scope, System
from tests.factories import CampaignFactory, CharacterFactory
from tests.rolls.helpers import (
    follow_url,
    gm_of,
    latest,
    odds_url,
    panel_url,
    roll_url,
    start_contest,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Cold Stars
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def athlete(client):
    """Strength 2, Athletics trained 0 (no untrained Risk); 1 Momentum of 5, 2 Willpower."""
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.strength = 2
    sheet.momentum_max, sheet.momentum = 5, 1
    sheet.willpower_max, sheet.willpower = 3, 2
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 0
    athletics.save()
    client.force_login(character.owner)
    return character, athletics


def cs_data(**options):
    return {"ability": "strength", "risk": 0, "modification": "none"} | options


def test_cold_stars_press_then_skip_is_refused_and_gains_nothing(client, athlete):
    character, athletics = athlete
    url = roll_url(character, "cold-stars-skill", athletics)
    refused = client.post(url, cs_data(risk=1, modification="press", action="skip"))
    assert refused.status_code == 409
    assert "after Press, Brace or Willpower" in refused.content.decode()
    assert not RollEntry.objects.exists()
    character.cold_stars.refresh_from_db()
    assert character.cold_stars.momentum == 1  # no free Momentum
    # The panel doesn't offer the skip once a step-4 choice is picked, and says why.
    panel = client.get(
        odds_url(character, "cold-stars-skill", athletics), cs_data(risk=1, modification="press")
    ).content.decode()
    assert "Skip the roll" not in panel and "after Press, Brace or Willpower" in panel
    plain = client.get(
        odds_url(character, "cold-stars-skill", athletics), cs_data(risk=1)
    ).content.decode()
    assert "Skip the roll: Costly success" in plain


def test_cold_stars_brace_never_makes_a_risk_3_pool_skippable(client, athlete):
    character, athletics = athlete
    sheet = character.cold_stars
    sheet.momentum = 3
    sheet.save()
    url = roll_url(character, "cold-stars-skill", athletics)
    refused = client.post(url, cs_data(risk=3, modification="brace", action="skip"))
    assert refused.status_code == 409 and not RollEntry.objects.exists()
    sheet.refresh_from_db()
    assert sheet.momentum == 3  # nothing spent on a refused skip
    # Rolling with Brace is fine: the dice come out.
    assert client.post(url, cs_data(risk=3, modification="brace")).status_code == 302
    assert latest().kind == Kind.ROLL


@pytest.fixture
def passive(client):
    campaign = CampaignFactory(system=System.COLD_STARS)
    vera = CharacterFactory(campaign=campaign, name="Vera")
    guard = CharacterFactory(campaign=campaign, owner=gm_of(campaign), is_npc=True, name="Guard")
    vera.cold_stars.momentum_max = vera.cold_stars.momentum = 2
    vera.cold_stars.save()
    stealth = vera.cold_stars.skills.get(name="Stealth")
    stealth.trained, stealth.rating = True, 3
    stealth.save()
    contest = start_contest(
        client,
        campaign,
        kind="cold_stars_passive",
        character_a=vera.pk,
        skill_a="Stealth",
        ability_a="agility",
        character_b=guard.pk,
        skill_b="Awareness",
        ability_b="perception",
    )
    client.force_login(vera.owner)
    return vera, stealth, contest


def test_cold_stars_no_skip_in_a_passive_contest(client, passive):
    vera, stealth, contest = passive
    risk = contest.character_b.cold_stars.perception  # the Guard's higher Ability or Skill
    assert cold_stars.can_skip(cold_stars.Pool(1, 0, 0))  # outside a contest this pool could skip
    url = panel_url(vera, "cold-stars-skill", stealth) + f"?contest={contest.pk}"
    assert "Skip the roll" not in client.get(url).content.decode()
    data = cs_data(ability="agility", risk=risk, contest=contest.pk, action="skip")
    refused = client.post(roll_url(vera, "cold-stars-skill", stealth), data)
    assert refused.status_code == 409
    assert "contested roll can&#x27;t be skipped" in refused.content.decode()
    assert not RollEntry.objects.exists()
    contest.refresh_from_db()
    assert contest.state == ContestState.OPEN


def test_cold_stars_passive_contest_corrects_before_the_verdict_and_never_after(client, passive):
    vera, stealth, contest = passive
    risk = contest.character_b.cold_stars.perception
    data = cs_data(ability="agility", risk=risk, contest=contest.pk)
    assert client.post(roll_url(vera, "cold-stars-skill", stealth), data).status_code == 302
    roll = RollEntry.objects.get(contest=contest, kind=Kind.ROLL)
    # The verdict waits: the contest's prompt offers Correct and Keep, the roll's card neither.
    contest.refresh_from_db()
    assert contest.state == ContestState.OPEN
    assert not RollEntry.objects.filter(contest=contest, kind=Kind.CONTEST).exists()
    sheet_page = client.get(vera.get_absolute_url()).content.decode()
    assert "Correct: re-roll (1 Momentum)" in sheet_page and "Keep this roll" in sheet_page
    assert (
        "Correct (1 Momentum): re-roll the pool"
        not in client.get(reverse("roll_entry", args=[roll.pk])).content.decode()
    )
    refused = client.post(follow_url(roll, "correct"))
    assert refused.status_code == 409 and "on the contest&#x27;s prompt" in refused.content.decode()
    # Correct: the verdict is decided on the corrected roll.
    side = reverse("contest_side", args=[contest.pk, "a", "correct"])
    assert client.post(side).status_code == 302
    corrected = RollEntry.objects.get(contest=contest, kind=Kind.CORRECT)
    assert corrected.follows_id == roll.pk
    contest.refresh_from_db()
    if contest.state == ContestState.CHOOSING:  # all blank: side A picks first
        assert corrected.outcome == "choice"
        choose = reverse("contest_choose", args=[contest.pk])
        assert client.post(choose, {"choice": "failure"}).status_code == 302
        contest.refresh_from_db()
    assert contest.state == ContestState.DECIDED
    verdict = RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)
    if corrected.outcome != "choice":
        assert verdict.outcome == corrected.outcome
    assert [s["entry"] for s in verdict.result["sides"]] == [roll.pk, corrected.pk]
    vera.cold_stars.refresh_from_db()
    assert vera.cold_stars.momentum == 1
    # After the verdict, Correct is refused with the reason and spends nothing.
    refused = client.post(side)
    assert refused.status_code == 409
    assert "Correct comes before the verdict" in refused.content.decode()
    vera.cold_stars.refresh_from_db()
    assert vera.cold_stars.momentum == 1
    assert RollEntry.objects.filter(kind=Kind.CORRECT).count() == 1


def test_cold_stars_sheet_rows_use_the_panels_words_and_numbers(client, athlete):
    """An untrained skill rolls a Risk die: its row shows Success and Costly success apart, with the
    same figures as the panel, never one lumped "success" figure."""
    character, _ = athlete
    stealth = character.cold_stars.skills.get(name="Stealth")
    assert not stealth.trained
    odds = cold_stars.odds(stealth.pool)
    assert odds["costly_success"] > 0
    page = client.get(reverse("character_detail", args=[character.pk])).content.decode()
    panel = client.get(panel_url(character, "cold-stars-skill", stealth)).content.decode()
    for code, label in (("success", "Success"), ("costly_success", "Costly success")):
        figure = f"{float(odds[code] * 100):.1f}%"
        assert f"{figure} {label}" in page
        assert figure in panel
    lumped = f"{float((odds['success'] + odds['costly_success']) * 100):.1f}% success"
    assert lumped not in page


# ---------------------------------------------------------------------------------------------
# Cogent: the sheet's injuries, weapons and creation checks
# ---------------------------------------------------------------------------------------------


def pool_of(html, row_id):
    row = re.search(rf'<tr id="{row_id}".*?</tr>', html, re.S).group(0)
    return int(re.search(r'data-pool="(-?\d+)"', row).group(1))


def save_vocations(client, character, sword, **sub):
    """The Vocations section's Save with the soldier's one vocation and ``sub`` for its sword."""
    vocation = sword.vocation
    data = {
        f"vocation-{vocation.pk}-name": vocation.name,
        f"vocation-{vocation.pk}-attribute": vocation.attribute,
        f"vocation-{vocation.pk}-rating": vocation.rating,
    } | {f"subskill-{sword.pk}-{field}": value for field, value in sub.items()}
    return client.post(reverse("sheet_section", args=[character.pk, "vocations"]), data)


@pytest.fixture
def soldier(client):
    character = CharacterFactory(campaign__system=System.COGENT)
    sheet = character.cogent
    sheet.strength, sheet.reflex, sheet.intelligence = 1, 1, 1
    sheet.save()
    vocation = sheet.vocations.create(name="Soldier", attribute="strength", rating=3)
    sword = vocation.subskills.create(slot=1, kind="combat", name="Medium", rating=2)
    client.force_login(character.owner)
    return character, sword


def test_cogent_combat_row_and_panel_use_the_stored_weapon(client, soldier):
    character, sword = soldier
    saved = save_vocations(client, character, sword, rating=2, weapon="Medium")
    assert saved.status_code == 302
    expected = cogent.combat_pool_size(combat_skill=2, attributes=[1, 1, 1], weapon_bonus=1)
    page = client.get(character.get_absolute_url()).content.decode()
    assert pool_of(page, f"subskill-{sword.pk}") == expected
    form = client.get(panel_url(character, "cogent-subskill", sword)).context["form"]
    assert form.plan.pool["dice"] == expected and form["weapon"].value() == "Medium"
    # The roll made from the panel's defaults rolls that pool and stores it.
    data = {"challenge_level": 1, "extra_penalty": 0, "weapon": "Medium"}
    assert client.post(roll_url(character, "cogent-subskill", sword), data).status_code == 302
    entry = latest()
    assert entry.pool["dice"] == len(entry.faces) == expected


def test_cogent_other_weapon_needs_its_bonus(client, soldier):
    character, sword = soldier
    refused = save_vocations(client, character, sword, rating=2, weapon="custom")
    assert refused.status_code == 400 and "Enter the weapon" in refused.content.decode()
    saved = save_vocations(client, character, sword, rating=2, weapon="custom", weapon_bonus=4)
    assert saved.status_code == 302
    sword.refresh_from_db()
    assert sword.weapon_bonus_now == 4
    form = client.get(panel_url(character, "cogent-subskill", sword)).context["form"]
    assert form["weapon"].value() == "custom" and form["weapon_bonus"].value() == 4


def test_cogent_injuries_come_off_physical_checks_only(client, soldier):
    character, sword = soldier
    add = reverse("cogent_injury_add", args=[character.pk])
    for level in (1, 2):
        response = client.post(add, {"add-injury-level": level, "add-injury-description": "cut"})
        assert response.status_code == 302
    sheet = character.cogent
    athletics, persuasion = sheet.skills.get(name="Athletics"), sheet.skills.get(name="Persuasion")
    page = client.get(character.get_absolute_url()).content.decode()
    assert "−2d6 on physical checks" in page and "Medium injury: cut" in page
    assert pool_of(page, f"skill-{athletics.pk}") == cogent.pool_size(
        skill=0, attribute=1, modifier=-3
    )
    assert pool_of(page, f"skill-{persuasion.pk}") == cogent.pool_size(skill=0, attribute=1)
    # No weapon stored: the Medium skill's own weapon, +1 (CogentSubSkill.weapon_now).
    assert pool_of(page, f"subskill-{sword.pk}") == cogent.combat_pool_size(
        combat_skill=2, attributes=[1, 1, 1], weapon_bonus=1, modifier=-3
    )
    data = {"challenge_level": 1, "extra_penalty": 0}
    client.post(roll_url(character, "cogent-skill", persuasion), data)
    entry = latest()
    assert entry.options["injury_dice"] == 0 and entry.pool["dice"] == 4
    assert "injury" not in entry.breakdown
    client.post(roll_url(character, "cogent-skill", athletics), data)
    entry = latest()
    assert entry.options["injury_dice"] == 3 and "− 3 injury" in entry.breakdown


def test_cogent_disabling_characteristic_takes_dice_from_its_attribute(client, soldier):
    character, _ = soldier
    add = reverse("cogent_disability_add", args=[character.pk])
    refused = client.post(add, {"add-disability-name": "Feeble", "add-disability-dice": 1})
    assert refused.status_code == 400 and "Choose the attribute" in refused.content.decode()
    client.post(
        add,
        {
            "add-disability-name": "Feeble",
            "add-disability-attribute": "strength",
            "add-disability-dice": 1,
        },
    )
    sheet = character.cogent
    athletics, stealth = sheet.skills.get(name="Athletics"), sheet.skills.get(name="Stealth")
    page = client.get(character.get_absolute_url()).content.decode()
    assert pool_of(page, f"skill-{athletics.pk}") == cogent.pool_size(
        skill=0, attribute=1, modifier=-1
    )
    assert pool_of(page, f"skill-{stealth.pk}") == cogent.pool_size(skill=0, attribute=1)


def test_cogent_ride_pilot_records_its_craft(client, soldier):
    character, _ = soldier
    ride = character.cogent.skills.get(name="Ride/Pilot")
    data = {f"skill-{s.pk}-rating": s.rating for s in character.cogent.skills.all()}
    data |= {f"skill-{ride.pk}-rating": 1, f"skill-{ride.pk}-craft": "Horse"}
    url = reverse("sheet_section", args=[character.pk, "skills"])
    assert client.post(url, data).status_code == 302
    ride.refresh_from_db()
    assert ride.craft == "Horse"
    assert (
        'Ride/Pilot <span class="meta">(Horse)</span>'
        in client.get(character.get_absolute_url()).content.decode()
    )


def test_cogent_creation_checks_warn_the_owner_and_gm_without_blocking(client, soldier):
    character, _ = soldier
    sheet = character.cogent
    sheet.skills.filter(name__in=["Swim", "Throw"]).update(rating=-1)
    sheet.vocations.all().delete()
    page = client.get(character.get_absolute_url()).content.decode()
    assert "2 core skills are at −1" in page and "No vocation yet" in page
    client.force_login(gm_of(character.campaign))
    assert "2 core skills are at −1" in client.get(character.get_absolute_url()).content.decode()
    # Nothing stops play: the character still rolls.
    client.force_login(character.owner)
    swim = sheet.skills.get(name="Swim")
    response = client.post(
        roll_url(character, "cogent-skill", swim), {"challenge_level": 1, "extra_penalty": 0}
    )
    assert response.status_code == 302


@pytest.fixture
def pilots(client):
    """Vera and Kit, each Piloting 4 (a domain skill, declared domain Small Craft), Agility 1."""
    campaign = CampaignFactory(system=System.COLD_STARS)
    people = []
    for name in ("Vera", "Kit"):
        character = CharacterFactory(campaign=campaign, name=name)
        sheet = character.cold_stars
        sheet.agility = sheet.perception = 1
        sheet.save()
        piloting = sheet.skills.get(name="Piloting")
        piloting.domains.create(name="Small Craft")
        piloting.trained, piloting.rating = True, 4
        piloting.save()
        people.append(character)
    return campaign, *people


def pilots_contest(client, campaign, vera, kit, kind, **outside):
    fields = {f"outside_domain_{side}": "on" for side in outside}
    return start_contest(
        client,
        campaign,
        kind=kind,
        character_a=vera.pk,
        skill_a="Piloting",
        ability_a="agility",
        character_b=kit.pk,
        skill_b="Piloting",
        ability_b="agility",
        **fields,
    )


def test_cold_stars_active_contest_outside_a_domain_counts_the_skill_as_2(client, pilots):
    campaign, vera, kit = pilots
    contest = pilots_contest(client, campaign, vera, kit, "cold_stars_active", a=True)
    assert contest.outside_domain_a and not contest.outside_domain_b
    for side in ("a", "b"):
        roll = reverse("contest_side", args=[contest.pk, side, "roll"])
        assert client.post(roll).status_code == 302
    a = RollEntry.objects.get(contest=contest, options__contest_side="a")
    b = RollEntry.objects.get(contest=contest, options__contest_side="b")
    assert a.pool == {"ability": 1, "skill": 2, "risk": 0}
    assert "outside every domain" in a.breakdown
    assert b.pool == {"ability": 1, "skill": 4, "risk": 0}


def test_cold_stars_passive_contest_outside_a_domain(client, pilots):
    campaign, vera, kit = pilots
    # The passive side outside its domains: its Piloting 4 counts as 2 for the Risk.
    contest = pilots_contest(client, campaign, vera, kit, "cold_stars_passive", a=True, b=True)
    piloting = vera.cold_stars.skills.get(name="Piloting")
    client.force_login(vera.owner)
    form = client.get(panel_url(vera, "cold-stars-skill", piloting) + f"?contest={contest.pk}")
    form = form.context["form"]
    assert form["risk"].value() == 2
    # The acting side outside its domains too: the GM's call, locked in the panel.
    assert form.fields["domain"].disabled and form["domain"].value() == "__outside__"
    url = roll_url(vera, "cold-stars-skill", piloting)
    base = cs_data(ability="agility", risk=2, contest=contest.pk)
    refused = client.post(url, base | {"domain": "Small Craft"})
    assert refused.status_code == 400 and "it can&#x27;t be changed" in refused.content.decode()
    assert client.post(url, base).status_code == 302
    roll = RollEntry.objects.get(contest=contest, kind=Kind.ROLL)
    assert roll.pool["built"] == {"ability": 1, "skill": 0, "risk": 0}  # 2 (capped) vs Risk 2
    # Inside its domains (the GM's default), the passive side's full rank sets the Risk.
    inside = pilots_contest(client, campaign, kit, vera, "cold_stars_passive")
    client.force_login(kit.owner)
    kit_piloting = kit.cold_stars.skills.get(name="Piloting")
    form = client.get(panel_url(kit, "cold-stars-skill", kit_piloting) + f"?contest={inside.pk}")
    assert form.context["form"]["risk"].value() == 4


def test_cold_stars_call_fixes_ability_and_risk_the_player_still_picks_step_4(client, athlete):
    character, athletics = athlete
    campaign = character.campaign
    client.force_login(gm_of(campaign))
    data = {
        "call-skill": "Athletics",
        "call-difficulty": 2,
        "call-ability": "strength",
        "call-characters": [character.pk],
    }
    response = client.post(reverse("call_create", args=[campaign.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    call = campaign.roll_calls.get()
    client.force_login(character.owner)
    url = roll_url(character, "cold-stars-skill", athletics)
    # What the GM set can't be changed by a crafted request …
    for crafted in ({"risk": 1}, {"ability": "agility"}):
        refused = client.post(url, cs_data(risk=2, call=call.pk) | crafted)
        assert refused.status_code == 400 and "it can&#x27;t be changed" in refused.content.decode()
    # … and the player's own legal step-4 choice still stands: Press on the GM's Risk 2.
    assert client.post(url, cs_data(risk=2, call=call.pk, modification="press")).status_code == 302
    entry = RollEntry.objects.get(call=call)
    assert entry.options["risk"] == 2 and entry.options["modification"] == "press"
    assert entry.pool["risk"] == 3  # the GM's Risk 2, +1 for Press


def test_cogent_narrator_defined_combat_skills(client, soldier):
    character, _ = soldier
    campaign = character.campaign
    url = reverse("campaign_skills", args=[campaign.pk])
    # Players read the list; only the GM adds to it.
    page = client.get(url)
    assert page.status_code == 200 and "Heavy Ballistic" in page.content.decode()
    assert client.post(url, {"name": "Fire Magic"}).status_code == 403
    client.force_login(gm_of(campaign))
    assert client.post(url, {"name": "Fire Magic"}).status_code == 302
    clash = client.post(url, {"name": "medium"})
    assert clash.status_code == 400 and "already on the list" in clash.content.decode()
    # A vocation takes it as a combat skill: it rolls a combat pool like the Book's.
    client.force_login(character.owner)
    vocation = character.cogent.vocations.get()
    key = f"add-subskill-{vocation.pk}"
    add = reverse("cogent_subskill_add", args=[character.pk, vocation.pk])
    response = client.post(
        add, {f"{key}-kind": "combat", f"{key}-combat_skill": "Fire Magic", f"{key}-rating": 1}
    )
    assert response.status_code == 302
    magic = vocation.subskills.get(name="Fire Magic")
    assert magic.is_combat
    assert magic.pool == cogent.combat_pool_size(combat_skill=1, attributes=[1, 1, 1])
    # A name on neither list is refused beside the field.
    refused = client.post(
        add, {f"{key}-kind": "combat", f"{key}-combat_skill": "Lightsaber", f"{key}-rating": 1}
    )
    assert refused.status_code == 400 and "Lightsaber" in refused.content.decode()


def test_cogent_combat_circumstances_in_the_panel(client, soldier):
    character, sword = soldier
    sword.weapon = "Medium"
    sword.save()
    url = odds_url(character, "cogent-subskill", sword)
    base = {"challenge_level": 3, "extra_penalty": 0, "weapon": "Medium"}
    form = client.get(url, base | {"circumstances": ["high_ground", "charging"]}).context["form"]
    expected = cogent.combat_pool_size(
        combat_skill=2, attributes=[1, 1, 1], weapon_bonus=1, bonus_dice=3
    )
    assert form.plan.pool["dice"] == expected
    assert "+ 2 high ground + 1 charging" in form.plan.breakdown
    odds = cogent.odds(expected, challenge_level=3)
    assert [(b.code, b.chance) for b in form.plan.bands] == [
        (code, odds[code]) for code in ("success", "failure", "critical_failure") if odds[code]
    ]
    retired = client.get(url, base | {"circumstances": ["dual_main"]}).context["form"]
    assert "choose the secondary weapon" in str(retired.errors["circumstances"])
    data = base | {"circumstances": ["flanking"], "equipment": -1}
    assert client.post(roll_url(character, "cogent-subskill", sword), data).status_code == 302
    entry = latest()
    assert entry.options["circumstances"] == ["flanking"] and entry.options["equipment"] == -1
    assert entry.pool["dice"] == len(entry.faces) == expected - 3 + 2 - 1


@pytest.mark.parametrize(
    ("weapon", "rating", "circumstances"),
    [("Reach", 2, []), ("Small", 1, ["high_ground", "flanking", "charging"])],
)
@pytest.mark.parametrize("api", [False, True])
def test_cogent_no_automatic_pass_on_a_combat_roll(
    client, soldier, weapon, rating, circumstances, api
):
    """RULES §6: combat is duress, so 8+ dice against CL 3 on a combat skill — from its weapon or
    its circumstance dice — offer no automatic pass, in the panel or the API, and a crafted one is
    refused (a Reach roll of 8 dice and a Small one with high ground both offered it)."""
    character, sword = soldier
    sword.name, sword.rating, sword.weapon = weapon, rating, weapon
    sword.save()
    data = {"challenge_level": 3, "extra_penalty": 0, "weapon": weapon}
    if circumstances:
        data["circumstances"] = circumstances
    form = client.get(odds_url(character, "cogent-subskill", sword), data).context["form"]
    assert form.plan.pool["dice"] >= cogent.SPECIALITY_MIN_POOL
    assert [a.name for a in form.plan.actions] == ["roll"]
    panel = client.get(panel_url(character, "cogent-subskill", sword), data).content.decode()
    assert "Take the automatic pass" not in panel
    if api:
        _, raw = ApiToken.issue(character.owner, name="bot", scope=Scope.ROLL)
        # The API took one circumstance until it took lists: high ground alone makes 9 dice.
        body = {**data, "action": "auto_pass"}
        if circumstances:
            body["circumstances"] = "high_ground"
        response = Client(HTTP_AUTHORIZATION=f"Bearer {raw}").post(
            f"/api/v1/characters/{character.pk}/targets/cogent-subskill/{sword.pk}/rolls",
            body,
            content_type="application/json",
        )
    else:
        response = client.post(
            roll_url(character, "cogent-subskill", sword), data | {"action": "auto_pass"}
        )
    assert response.status_code in (409, 422), response.content.decode()[:300]
    assert not RollEntry.objects.exists()


def test_cogent_circumstances_are_for_combat_rolls_only(client, soldier):
    character, _ = soldier
    athletics = character.cogent.skills.get(name="Athletics")
    url = panel_url(character, "cogent-skill", athletics)
    form = client.get(url).context["form"]
    assert "circumstances" not in form.fields and "equipment" in form.fields
    data = {"challenge_level": 1, "extra_penalty": 0, "circumstances": ["high_ground"]}
    client.post(roll_url(character, "cogent-skill", athletics), data)
    entry = latest()  # a crafted circumstance on a skill roll is not a field there: ignored
    assert "circumstances" not in entry.options
    assert entry.pool["dice"] == cogent.pool_size(skill=0, attribute=1)


def test_cogent_vocations_only_assist(client, soldier):
    """Book (vocations.tex): vocations can't make checks; they only assist."""
    character, sword = soldier
    vocation = character.cogent.vocations.get()
    ally = CharacterFactory(campaign=character.campaign, name="Ally")
    page = client.get(character.get_absolute_url()).content.decode()
    row = re.search(r'<tr data-kind="cogent-vocation".*?</tr>', page, re.S).group(0)
    assert ">Assist<" in row and ">Roll<" not in row and "assists only" in row
    # Its vocational and combat skills still roll.
    assert re.search(rf'<tr id="subskill-{sword.pk}".*?>Roll<', page, re.S)
    # A roll of its own is refused beside the field, and nothing is written.
    url = roll_url(character, "cogent-vocation", vocation)
    refused = client.post(url, {"challenge_level": 3, "extra_penalty": 0, "assist_for": ""})
    assert refused.status_code == 400
    assert "A vocation only assists" in refused.content.decode()
    assert not RollEntry.objects.exists()
    # As an assist it rolls (the panel opens set up for one, against CL 3).
    form = client.get(panel_url(character, "cogent-vocation", vocation)).context["form"]
    assert form["challenge_level"].value() == cogent.ASSIST_MIN_CL
    assert form["assist_for"].value() == ally.pk
    data = {"challenge_level": 3, "extra_penalty": 0, "assist_for": ally.pk, "action": "assist"}
    assert client.post(url, data).status_code == 302
    assert latest().kind == Kind.ASSIST
    # The GM can't call for a vocation or set one as a contest side.
    client.force_login(gm_of(character.campaign))
    dashboard = client.get(reverse("campaign_dashboard", args=[character.campaign.pk]))
    call_form = dashboard.context["call_form"]
    assert "Soldier" not in dict(call_form.fields["skill"].choices)
    call = client.post(
        reverse("call_create", args=[character.campaign.pk]),
        {"call-characters": [character.pk], "call-skill": "Soldier", "call-difficulty": 1},
    )
    assert call.status_code == 400 and not character.campaign.roll_calls.exists()


def test_cogent_an_assist_from_a_combat_skill_keeps_its_stored_weapon(client, soldier):
    """The GM table's assist opens the combat row's panel with the weapon on the sheet, so the
    assist's pool is the sheet's number (it opened with the first weapon of the table)."""
    character, sword = soldier
    sword.weapon = "Medium"
    sword.save()
    ally = CharacterFactory(campaign=character.campaign, name="Ally")
    client.force_login(gm_of(character.campaign))
    response = client.post(
        reverse("assist_start", args=[character.campaign.pk]),
        {
            "assist-assisting": character.pk,
            "assist-skill": "Medium",
            "assist-assisted": ally.pk,
            "assist-challenge_level": 3,
        },
    )
    assert response.status_code == 302 and "weapon=Medium" in response["Location"]
    form = client.get(response["Location"]).context["form"]
    assert form.plan.pool["dice"] == sword.pool
