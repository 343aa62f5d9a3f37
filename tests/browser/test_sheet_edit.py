"""The sheet in the browser: it reads like a printed sheet; Edit turns one section into its form,
Save brings read mode back with the new values, Cancel brings it back unchanged — with htmx, and
the same without JavaScript, at phone and laptop size."""

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import PASSWORD, CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
FIELDS = "#sheet input:not([type=hidden]), #sheet select, #sheet textarea"


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_cogent_edit_save_and_read_again(page, log_in, viewport):
    page.set_viewport_size(viewport)
    character = CharacterFactory(campaign__system=System.COGENT)
    athletics = character.cogent.skills.get(name="Athletics")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    expect(page.locator(FIELDS)).to_have_count(0)

    page.get_by_role("link", name="Edit attributes and resources").click()
    strength = page.locator("#id_sheet-strength")
    expect(strength).to_be_focused()  # the section opens on its first field
    expect(strength).to_have_attribute("max", "4")
    # Only the edited section is a form; nothing else can be edited meanwhile.
    expect(page.get_by_role("link", name="Edit core skills")).to_have_count(0)
    strength.fill("3")
    page.locator("#attributes").get_by_role("button", name="Save").click()

    figures = page.locator("#attributes dl.figures")
    expect(figures).to_contain_text("Strength")
    expect(figures.locator("div").first.locator("dd")).to_have_text("3")
    expect(page.locator(FIELDS)).to_have_count(0)
    expect(page.get_by_role("link", name="Edit attributes and resources")).to_be_focused()
    # The pools that hang on Strength read again too (Athletics is folded: rated 0).
    expect(page.locator(f"#skill-{athletics.pk} td.pool")).to_have_text("6d6")
    character.cogent.refresh_from_db()
    assert character.cogent.strength == 3


def test_a_roll_while_a_section_is_open_doesnt_wipe_what_was_typed(page, log_in):
    page.set_viewport_size(LAPTOP)
    character = CharacterFactory(campaign__system=System.COGENT)
    athletics = character.cogent.skills.get(name="Athletics")
    athletics.rating = 2
    athletics.save()
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.get_by_role("link", name="Edit attributes and resources").click()
    page.locator("#id_sheet-strength").fill("3")
    # The other sections still roll; the roll's parts leave the open section alone until Save or
    # Cancel re-renders the sheet.
    page.locator(f"#skill-{athletics.pk} .roll-button").click()
    page.locator("#roll-action-roll").click()
    expect(page.locator("#roll-result .entry")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#roll-dialog")).to_be_hidden()
    page.wait_for_timeout(500)  # give a refresh that should not happen the time to happen
    expect(page.locator("#id_sheet-strength")).to_have_value("3")
    page.locator("#attributes").get_by_role("button", name="Save").click()
    # Saved, and the sheet shows the roll (its recent rolls came with the roll's response).
    expect(page.locator("#recent-rolls .entry")).to_have_count(1)
    expect(page.locator("#attributes dl.figures div").first.locator("dd")).to_have_text("3")


def test_a_bad_value_keeps_what_was_typed_and_cancel_restores_the_sheet(page, log_in):
    page.set_viewport_size(PHONE)
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    acrobatics = character.cold_stars.skills.get(name="Acrobatics")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.get_by_role("link", name="Edit skills").click()
    row = page.locator(f"#skill-{acrobatics.pk}")
    row.get_by_label("Trained").check()
    row.get_by_role("spinbutton").fill("7")
    page.locator("#skills-form").get_by_role("button", name="Save").click()

    expect(page.locator("#skills")).to_contain_text("Nothing was saved")
    expect(row.locator(".errorlist")).to_contain_text("Enter a number from 0 to 5.")
    expect(row.get_by_role("spinbutton")).to_have_value("7")
    expect(row.get_by_label("Trained")).to_be_checked()

    page.locator("#skills").get_by_role("link", name="Cancel").click()
    expect(page.locator(FIELDS)).to_have_count(0)
    expect(page.get_by_role("link", name="Edit skills")).to_be_focused()
    acrobatics.refresh_from_db()
    assert (acrobatics.trained, acrobatics.rating) == (False, 0)


def test_adding_a_domain_keeps_the_sections_unsaved_values(page, log_in):
    page.set_viewport_size(LAPTOP)
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    acrobatics, piloting = sheet.skills.get(name="Acrobatics"), sheet.skills.get(name="Piloting")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.get_by_role("link", name="Edit skills").click()
    page.locator(f"#skill-{acrobatics.pk}").get_by_label("Trained").check()
    page.locator(f"#skill-{acrobatics.pk}").get_by_role("spinbutton").fill("2")
    row = page.locator(f"#skill-{piloting.pk}")
    row.get_by_text("Add a domain").click()
    row.get_by_label("New Piloting domain").fill("Small Craft")
    row.get_by_role("button", name="Add domain").click()

    # The domain itself, not the catalog's example of one.
    expect(page.locator(f"#skill-{piloting.pk} ul.domains li:not(.meta)")).to_contain_text(
        "Small Craft"
    )
    expect(page.locator(f"#skill-{acrobatics.pk}").get_by_role("spinbutton")).to_have_value("2")
    page.locator("#skills-form").get_by_role("button", name="Save").click()
    expect(page.locator(f"#skill-{acrobatics.pk} td.rating")).to_have_text("Trained 2")
    acrobatics.refresh_from_db()
    assert (acrobatics.trained, acrobatics.rating) == (True, 2)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_dad6_skills_saved_in_one_go(page, log_in, viewport):
    page.set_viewport_size(viewport)
    character = CharacterFactory(campaign__system=System.DAD6)
    climb = character.dad6.skills.create(name="Climb", competence="familiar")
    swim = character.dad6.skills.create(name="Swim", competence="familiar")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.get_by_role("link", name="Edit skills").click()
    page.get_by_label("Climb competence").select_option("expert")
    page.locator(f"#skill-{swim.pk}").get_by_label("Class skill").check()
    page.locator("#skills-form").get_by_role("button", name="Save").click()

    expect(page.locator(f"#skill-{climb.pk} td.rating")).to_have_text("Expert")
    expect(page.locator(f"#skill-{swim.pk} td.rating")).to_contain_text("(from level)")
    expect(page.locator(FIELDS)).to_have_count(0)


def test_without_javascript(browser, live_server):
    character = CharacterFactory(campaign__system=System.COGENT)
    context = browser.new_context(
        base_url=live_server.url, java_script_enabled=False, viewport=PHONE
    )
    page = context.new_page()
    try:
        page.goto("/accounts/login/")
        page.fill("#id_username", character.owner.username)
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.goto(character.get_absolute_url())
        athletics = character.cogent.skills.get(name="Athletics")

        page.get_by_role("link", name="Edit core skills").click()
        assert page.url.endswith(f"{character.get_absolute_url()}?edit=skills#skills")
        page.locator(f"#id_skill-{athletics.pk}-rating").fill("3")
        page.locator("#skills-form").get_by_role("button", name="Save").click()

        assert page.url.endswith(f"{character.get_absolute_url()}#skills")
        expect(page.locator(FIELDS)).to_have_count(0)
        expect(page.locator(f"#skill-{athletics.pk} td.rating")).to_have_text("3")
        expect(page.locator(f"#skill-{athletics.pk}")).to_be_visible()  # no longer folded
        athletics.refresh_from_db()
        assert athletics.rating == 3
    finally:
        context.close()
