"""An NPC's quick roll on a live GM table (issue 34, item 6), against a real uvicorn process: the
GM's own stream hears the roll too, and the card must list it once — the quick roll's answer
brings it, so the stream's news fetches nothing (live.js holds it while the roll is on its way).
A player's open log hears nothing of a hidden NPC's quick roll."""

import pytest
from playwright.sync_api import expect

from tests.browser.live_pages import live, requests_of, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}

HEARD = """window.heard = 0;
document.addEventListener("htmx:sseMessage", function (e) {
  if (e.detail && e.detail.type === "entry") window.heard += 1;
});"""


@pytest.fixture
def rated_npcs(party):
    """Warden and Spy rated in Athletics (before the server starts: it reads what is committed)."""
    for npc in (party.npc, party.hidden_npc):
        npc.cogent.skills.filter(name="Athletics").update(rating=2)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("who", ["npc", "hidden_npc"])
def test_a_quick_roll_is_one_request_and_listed_once(rated_npcs, pages, party, viewport, who):
    gm, player = pages["gm"], pages["player"]
    npc = getattr(party, who)
    gm.set_viewport_size(viewport)
    live(gm, f"/campaigns/{party.campaign.pk}/dashboard/")
    # The GM's open log hears the GM's stream (the table's own entry events fetch, not swap).
    gm_log = gm.context.new_page()
    live(gm_log, f"/campaigns/{party.campaign.pk}/log/")
    live(player, f"/campaigns/{party.campaign.pk}/log/")
    for page in (gm_log, player):
        page.evaluate(HEARD)
    made = requests_of(gm)
    card = gm.locator(f"#char-{npc.pk}")
    card.locator(".key-list button").first.click()
    expect(card.locator(".quick-result")).to_contain_text("Rolled Athletics:")
    wait_until(gm_log, "window.heard >= 1")
    gm.wait_for_timeout(500)  # room for the table's news fetch, were one made
    expect(card.locator(".log .entry")).to_have_count(1)
    assert made == [("POST", f"characters/{npc.pk}/table-roll/")], made
    # The player's open log: Warden's roll arrives; Spy's, a hidden NPC's, never does.
    if who == "npc":
        expect(player.locator(".log-days .entry", has_text="Athletics")).to_have_count(1)
    else:
        player.wait_for_timeout(1000)
        assert player.evaluate("() => window.heard") == 0
        expect(player.locator("main")).not_to_contain_text("Spy")
