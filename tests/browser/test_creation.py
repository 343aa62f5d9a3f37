"""Guided creation in the browser, per system, on a phone and a laptop: fill the steps, watch the
budget follow (the server computes it), create, and land on the sheet showing the values."""

import re

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])


def open_form(page, log_in, system, viewport):
    campaign = CampaignFactory(system=system)
    player = MembershipFactory(campaign=campaign).user
    page.set_viewport_size(viewport)
    log_in(player)
    page.goto(f"/campaigns/{campaign.pk}/characters/new/")
    return campaign, page.locator("#creation-budget")


@VIEWPORTS
def test_cogent_budget_follows_the_build_and_create_opens_the_sheet(
    page, log_in, viewport, violations
):
    campaign, budget = open_form(page, log_in, System.COGENT, viewport)
    expect(budget).to_contain_text("Attribute points: 2 of 2 left")
    page.get_by_label("Name", exact=True).fill("Rob")
    page.get_by_label("Strength", exact=True).fill("1")
    expect(budget).to_contain_text("Attribute points: 1 of 2 left")
    page.get_by_label("Intelligence", exact=True).fill("1")
    expect(budget).to_contain_text("Skill points: 15 of 15 left")
    page.get_by_label("Athletics", exact=True).fill("3")
    page.get_by_label("Vocation 1", exact=True).fill("Soldier")
    page.get_by_label("Vocation 1 governing attribute").select_option("strength")
    page.get_by_label("Vocation 1 rating").fill("2")
    page.get_by_label("Vocation 1 skill 1", exact=True).select_option("combat:Medium")
    page.get_by_label("Vocation 1 skill 1 rating").fill("2")
    # 3 + (2 − 1 free) + 2 = 6 of 15; the budget on a phone stays on screen while typing.
    expect(budget).to_contain_text("Skill points: 9 of 15 left")
    expect(budget).to_be_in_viewport()
    page.get_by_label("Reflex", exact=True).fill("1")  # a third attribute point
    expect(budget).to_contain_text("Attribute points: 1 over — 3 spent of 2")
    page.get_by_role("button", name="Create character").click()
    # Refused: the message beside the attributes, everything typed kept.
    expect(page.get_by_role("alert").first).to_be_visible()
    expect(page.locator(".creation-step .problem")).to_contain_text("That is 3 attribute points")
    expect(page.get_by_label("Athletics", exact=True)).to_have_value("3")
    # The summary links to the step, and the budget panel still says what is wrong.
    page.locator(".error-summary a[href='#step-attributes']").click()
    expect(page.locator("#step-attributes")).to_be_in_viewport()
    expect(budget).to_contain_text("That is 3 attribute points")
    page.get_by_label("Reflex", exact=True).fill("0")
    page.get_by_role("button", name="Create character").click()
    # 9 skill points are left: said, and the player confirms.
    expect(page.locator(".error-summary")).to_contain_text("Not spent yet: 9 skill points.")
    expect(budget).to_contain_text("Not spent yet: 9 skill points.")
    page.get_by_label("Create with these points unspent").check()
    page.get_by_role("button", name="Create character").click()
    # (The summary's link left its #step-… in the address; the redirect keeps it.)
    page.wait_for_url(re.compile(r"/characters/\d+/(#.*)?$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Rob")
    rob = campaign.characters.get(name="Rob")
    sheet = rob.cogent
    assert (sheet.strength, sheet.intelligence) == (1, 1)
    assert sheet.skills.get(name="Athletics").rating == 3
    assert sheet.vocations.get().subskills.get().name == "Medium"
    expect(page.locator("main")).to_contain_text("Soldier")
    assert violations == []


@VIEWPORTS
def test_dad6_counts_class_skills_and_creates_them(page, log_in, viewport, violations):
    campaign, budget = open_form(page, log_in, System.DAD6, viewport)
    expect(budget).to_contain_text("Class skills: 0")
    page.get_by_label("Name", exact=True).fill("Nim")
    page.get_by_label("Class", exact=True).fill("Thief")
    page.get_by_label("Class level").fill("4")
    expect(budget).to_contain_text("Class skills at level 4 are Expert")
    page.get_by_label("Class skill 1", exact=True).fill("Climb")
    page.get_by_label("Class skill 2", exact=True).fill("Hide")
    expect(budget).to_contain_text("Class skills: 2")
    page.get_by_label("Other skill 1", exact=True).fill("Swim")
    page.get_by_label("Other skill 1 competence").select_option("familiar")
    page.get_by_role("button", name="Create character").click()
    page.wait_for_url("**/characters/*/")
    nim = campaign.characters.get(name="Nim")
    assert (nim.dad6.class_name, nim.dad6.level, nim.dad6.skills.count()) == ("Thief", 4, 3)
    expect(page.locator("main")).to_contain_text("Climb")
    assert violations == []


@VIEWPORTS
def test_cold_stars_asks_for_a_domain_and_creates_the_skills(page, log_in, viewport, violations):
    campaign, budget = open_form(page, log_in, System.COLD_STARS, viewport)
    expect(budget).to_contain_text("Ability points: 6")
    page.get_by_label("Name", exact=True).fill("Vex")
    page.get_by_label("Agility", exact=True).fill("3")
    expect(budget).to_contain_text("Ability points: 8")
    page.get_by_label("Piloting", exact=True).select_option("3")
    expect(budget).to_contain_text("Piloting is rated 3: from 3 a domain skill needs a domain")
    page.get_by_label("Piloting domain").fill("Small Craft")
    expect(budget).not_to_contain_text("needs a domain")
    expect(budget).to_contain_text("Trained skills: 1")
    page.get_by_role("button", name="Create character").click()
    page.wait_for_url("**/characters/*/")
    vex = campaign.characters.get(name="Vex")
    piloting = vex.cold_stars.skills.get(name="Piloting")
    assert (vex.cold_stars.agility, piloting.rating) == (3, 3)
    assert piloting.domains.get().name == "Small Craft"
    expect(page.locator("main")).to_contain_text("Small Craft")
    assert violations == []


def test_without_javascript_check_the_budget_and_create_still_work(browser, live_server):
    campaign = CampaignFactory(system=System.COGENT)
    player = MembershipFactory(campaign=campaign).user
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", player.username)
    page.fill("#id_password", "pw")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"/campaigns/{campaign.pk}/characters/new/")
    page.get_by_label("Name", exact=True).fill("Pip")
    page.get_by_label("Reflex", exact=True).fill("2")
    page.get_by_role("button", name="Check the budget").click()
    budget = page.locator("#creation-budget")
    expect(budget).to_contain_text("Attribute points: 0 of 2 left")
    expect(page.get_by_label("Name", exact=True)).to_have_value("Pip")
    page.get_by_role("button", name="Create character").click()
    expect(budget).to_contain_text("Not spent yet: 12 skill points.")
    page.get_by_label("Create with these points unspent").check()
    page.get_by_role("button", name="Create character").click()
    page.wait_for_url("**/characters/*/")
    assert campaign.characters.get(name="Pip").cogent.reflex == 2
    context.close()
