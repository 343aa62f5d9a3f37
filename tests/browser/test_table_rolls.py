"""The table's rolls on an open sheet, in two browsers against uvicorn: a roll of another
character lands in the sheet's strip as one line, a secret roll never does (each visibility:
tests/rolls/test_live_table.py), and while
the tab is hidden the title counts them."""

import pytest
from playwright.sync_api import expect

from tests.browser.live_pages import live, roll
from tests.rolls.helpers import athletics

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture
def warden_rolls(party):
    """The GM's NPC Warden with Athletics rated (a rated row is on the sheet, not folded away);
    set before `pages` starts the server, which reads what was committed by then."""
    party.npc.cogent.skills.filter(name="Athletics").update(rating=2)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_tables_rolls_land_on_an_open_sheet_as_the_log_shows_them(
    warden_rolls,
    pages,
    party,
    viewport,
):
    gm, player = pages["gm"], pages["player"]
    player.set_viewport_size(viewport)
    warden = party.npc
    live(player, party.pc.get_absolute_url())
    strip = player.locator("#table-rolls")
    expect(strip).to_be_hidden()
    roll(gm, warden, athletics(warden), "secret")  # the GM offers public or secret
    public = roll(gm, warden, athletics(warden))
    expect(strip).to_be_visible()
    lines = strip.locator("li")
    expect(lines).to_have_count(1)  # the hidden rolls sent nothing
    expect(lines.first).to_contain_text("Warden · Athletics")
    assert public.removeprefix("entry-") in lines.first.locator("a").get_attribute("href")
    box = strip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    assert box["y"] + box["height"] <= viewport["height"]
    # Nothing of the sheet's own recent rolls changed: the strip is the table's alone.
    expect(player.locator("#recent-rolls")).not_to_contain_text("Warden")

    # While the tab is hidden, the title counts what lands; shown again, the count goes.
    title = player.title()
    player.evaluate(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    roll(gm, warden, athletics(warden))
    roll(gm, warden, athletics(warden), "secret")
    roll(gm, warden, athletics(warden))
    expect(lines).to_have_count(3)
    expect(player).to_have_title("(2) " + title)
    player.evaluate(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    expect(player).to_have_title(title)
    player.get_by_role("button", name="Hide").click()
    expect(strip).to_be_hidden()
