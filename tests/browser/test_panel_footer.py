"""The roll panel keeps its primary action in view (issue 34, item 1): in every system, on a phone
and a laptop, the Roll button and the chance of success sit in a footer at the bottom of the
dialog as it opens, without a scroll, and stay there as the options change; the options most
rolls never touch wait behind "More options", which opens on a click."""

import re

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.browser.long_sheets import halfway_row

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
# An option each system's panel shows open, and a value that changes the odds.
CHANGE = {
    System.COGENT: ("#roll_challenge_level", "select", "4"),
    System.DAD6: ("#roll_difficulty", "fill", "3"),
    System.COLD_STARS: ("#roll_risk", "fill", "2"),
}
PERCENT = r"(\d+\.\d%|<0\.1%|>99\.9%|100%|0%)"
# A Cold Stars chance says how much of it is a Costly success (issue 48): on its own line, whole,
# where the footer is too narrow for both.
CHANCE = re.compile(rf"^Chance of success {PERCENT}(,\s+including {PERCENT} Costly success)?$")


def fully_in_view(page, selector):
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


@pytest.mark.parametrize("system", System.values)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_roll_button_and_its_odds_are_in_view_as_the_panel_opens(
    page, log_in, system, viewport
):
    page.set_viewport_size(viewport)
    character, row = halfway_row(system)
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{row.pk} .roll-button").click()
    expect(page.locator("#roll-dialog")).to_be_visible()

    roll, chance = page.locator("#roll-action-roll"), page.locator(".roll-footer .roll-chance")
    expect(roll).to_be_visible()
    expect(chance).to_have_text(CHANCE)
    assert fully_in_view(page, "#roll-action-roll") and fully_in_view(page, ".roll-chance")

    # The rarely used options wait behind the fold.
    visibility = page.locator("#roll_visibility")
    expect(visibility).to_be_hidden()
    page.locator(".roll-more summary").click()
    expect(visibility).to_be_visible()

    # A change redraws the odds and the footer with them; the button stays in view.
    before = chance.inner_text()
    selector, how, value = CHANGE[system]
    field = page.locator(selector)
    if how == "select":
        field.select_option(value)
    else:
        field.fill(value)
        field.dispatch_event("change")
    expect(chance).not_to_have_text(before)
    expect(chance).to_have_text(CHANCE)
    assert fully_in_view(page, "#roll-action-roll")
