"""The roll panel opens where the player is: from a row halfway down each system's sheet, the panel
is a dialog over the page, the result lands in view, and Escape closes it with focus back on the
Roll control and the page where it was. Its selects show their choices whole, inside the dialog,
and the Cold Stars step-4 choices keep their words whole."""

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.browser.layout import clipped_selects, inside, split_words
from tests.browser.live_pages import wait_until
from tests.browser.long_sheets import halfway_row
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}


@pytest.mark.parametrize("system", System.values)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_panel_opens_at_the_row_and_the_result_lands_in_view(page, log_in, system, viewport):
    page.set_viewport_size(viewport)
    character, row = halfway_row(system)
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    button = page.locator(f"#skill-{row.pk} .roll-button")
    button.scroll_into_view_if_needed()
    place = page.evaluate("window.scrollY")
    assert place > 0  # the row is well down the sheet

    button.click()
    dialog = page.locator("#roll-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#roll-heading")).to_be_focused()
    page.locator("#roll-action-roll").click()
    result = page.locator("#roll-result .entry")
    expect(result).to_be_in_viewport()
    expect(page.locator("#roll-announce")).not_to_be_empty()

    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    # The sheet refreshes after the roll, maybe after the dialog closed: once it has, focus is on
    # the same row's Roll control and the page is where the player left it.
    wait_until(
        page,
        f"""document.activeElement.matches('#skill-{row.pk} .roll-button')
        && Math.abs(window.scrollY - {place}) <= 2""",
    )


def test_the_panels_close_link_closes_the_dialog_too(page, log_in):
    character, row = halfway_row(System.COGENT)
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    button = page.locator(f"#skill-{row.pk} .roll-button")
    button.click()
    expect(page.locator("#roll-dialog")).to_be_visible()
    page.locator("#roll-panel a.close").click()
    expect(page.locator("#roll-dialog")).to_be_hidden()
    expect(button).to_be_focused()


@pytest.mark.parametrize("system", System.values)
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_panels_selects_show_their_choices_whole(page, log_in, system, viewport):
    """On a laptop the dialog's three columns cut Cogent's "Roll as an assist for" select to
    "Nobody: this is a roll of it…", and a player's "Blind (only the GM sees the result)"."""
    page.set_viewport_size(viewport)
    character, row = halfway_row(system)
    CharacterFactory(campaign=character.campaign)  # someone to assist
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{row.pk} .roll-button").click()
    expect(page.locator("#roll-dialog")).to_be_visible()
    page.locator(".roll-more summary").click()  # the folded options are checked open too
    selects = page.locator("#roll-panel select")
    expect(selects.first).to_be_visible()
    if system == System.COGENT:
        expect(page.get_by_label("Roll as an assist for")).to_be_visible()
    assert clipped_selects(page, "#roll-panel") == []
    panel = page.locator("#roll-panel .roll-panel").bounding_box()
    # The dialog scrolls: only the screen's width bounds a select, its height doesn't.
    screen = {"x": 0, "y": 0, "width": viewport["width"], "height": panel["height"] + panel["y"]}
    for n in range(selects.count()):
        box = selects.nth(n).bounding_box()
        assert inside(box, panel) and inside(box, screen), selects.nth(n).get_attribute("name")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_cold_stars_step_4_choices_keep_their_words_whole(page, log_in, viewport):
    """The choices' column shrank below its longest word on a laptop ("No modificat/ion",
    "Willpowe/r:")."""
    page.set_viewport_size(viewport)
    character, row = halfway_row(System.COLD_STARS)
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{row.pk} .roll-button").click()
    expect(page.get_by_label("Willpower: upgrade 1 Ability die")).to_be_visible()
    assert split_words(page, "#roll-panel table.choices th label") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
