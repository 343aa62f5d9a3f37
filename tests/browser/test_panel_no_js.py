"""The roll panel without JavaScript, at both sizes: Roll and its odds in view as the page opens
(issue 34, item 1), "Update odds" re-draws the panel's page with the new options and keeps the
CSRF token out of the address (item 10); Roll still rolls and lands on the new entry's permalink."""

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_update_odds_without_javascript_keeps_the_token_out_of_the_address(no_js, viewport):
    page = no_js
    page.set_viewport_size(viewport)
    character = CharacterFactory(campaign__system=System.COGENT)
    character.cogent.skills.filter(name="Athletics").update(rating=2)
    page.goto("/accounts/login/")
    page.fill("#id_username", character.owner.username)
    page.fill("#id_password", "pw")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(character.get_absolute_url())
    page.locator("tr", has_text="Athletics").locator("a.roll-button").click()
    expect(page.locator("#roll-heading")).to_have_text("Roll Athletics")
    before = page.locator("#roll-odds .odds-text").first.inner_text()
    # The footer sticks to the bottom of the page too: Roll and its odds in view, no scroll.
    for control in ("#roll-action-roll", ".roll-chance"):
        box = page.locator(control).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]

    page.select_option("#roll_challenge_level", "4")
    page.get_by_role("button", name="Update odds").click()
    page.wait_for_url("**challenge_level=4**")
    assert "csrfmiddlewaretoken" not in page.url and "action=" not in page.url
    expect(page.locator("#roll_challenge_level")).to_have_value("4")
    assert page.locator("#roll-odds .odds-text").first.inner_text() != before

    page.locator("#roll-action-roll").click()
    page.wait_for_url("**/rolls/**")
    expect(page.locator(".result-headline")).to_be_visible()
    assert "csrfmiddlewaretoken" not in page.url
