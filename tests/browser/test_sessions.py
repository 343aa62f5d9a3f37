"""Sessions and scenes in a real browser (docs/sessions.md): the GM runs a session from the GM
table's bar on a phone and a laptop, a player's open log takes each marker and roll under its
headings live, a second tab of the table follows the bar, and without JavaScript the bar's forms
post and come back."""

import pytest
from playwright.sync_api import expect

from tests.browser.live_pages import live, log_in_as, roll
from tests.rolls.helpers import athletics

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}

# Anything in the session bar poking out of it, or the page wider than the screen.
OVERFLOW = """() => {
  const bar = document.getElementById("session-bar").getBoundingClientRect();
  const out = [...document.querySelectorAll("#session-bar *")].some(el => {
    const r = el.getBoundingClientRect();
    return r.width && (r.right > bar.right + 1 || r.left < bar.left - 1);
  });
  return out || document.documentElement.scrollWidth > window.innerWidth;
}"""


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_session_at_the_table_reaches_the_players_open_log(pages, party, viewport):
    gm, player, ada = pages["gm"], pages["player"], party.pc
    for page in (gm, player):
        page.set_viewport_size(viewport)
    dashboard = f"/campaigns/{ada.campaign_id}/dashboard/"
    live(player, f"/campaigns/{ada.campaign_id}/log/")
    live(gm, dashboard)
    other_tab = gm.context.new_page()
    other_tab.set_viewport_size(viewport)
    live(other_tab, dashboard)
    bar = gm.locator("#session-bar")
    expect(bar.get_by_role("heading")).to_have_text("No session going on")
    assert not gm.evaluate(OVERFLOW)

    gm.get_by_label("Session title").fill("The heist")
    gm.get_by_role("button", name="Start a session").click()
    expect(bar.get_by_role("status")).to_have_text("Session 1: The heist has started.")
    expect(bar.get_by_role("heading")).to_have_text("Now playing Session 1: The heist")
    assert not gm.evaluate(OVERFLOW)
    # The other tab's bar follows, from the table's stream.
    expect(other_tab.locator("#session-bar h2")).to_have_text("Now playing Session 1: The heist")

    gm.get_by_label("Scene title").fill("The docks")
    gm.get_by_role("button", name="Mark a new scene").click()
    expect(bar).to_contain_text("Scene 1: The docks · rolls made now belong to this session.")
    expect(gm.get_by_label("Scene title")).to_have_value("")  # ready for the next one

    log = player.locator("#log-entries")
    expect(log.locator(".entry-marker")).to_have_count(2)
    card = roll(gm, ada, athletics(ada))
    expect(log.locator(f"#{card}")).to_be_visible()
    # One heading per group, above its newest entry: the scene's (over the roll and the scene's
    # marker), then the session's (over its start).
    headings = log.locator(".log-session h2")
    expect(headings).to_have_text(
        ["Session 1: The heist · Scene 1: The docks", "Session 1: The heist"]
    )
    order = log.evaluate("list => [...list.children].map(li => li.className.split(' ')[0])")
    assert order[:6] == [
        "log-day",
        "log-session",
        "log-item",
        "log-item",
        "log-session",
        "log-item",
    ]

    gm.goto(dashboard)
    gm.get_by_role("button", name="End Session 1: The heist").click()
    expect(bar.get_by_role("heading")).to_have_text("No session going on")
    expect(log.locator(".entry-marker.kind-session_end")).to_have_count(1)


def test_without_javascript_the_bar_posts_and_comes_back(no_js, party):
    page = no_js
    page.set_viewport_size(PHONE)
    log_in_as(page, party.gm)
    page.goto(f"/campaigns/{party.campaign.pk}/dashboard/")
    # The field says its limit, so the browser stops at it (the server refuses more: 400).
    expect(page.get_by_label("Session title")).to_have_attribute("maxlength", "100")
    page.get_by_label("Session title").fill("Night one")
    page.get_by_role("button", name="Start a session").click()
    expect(page.locator(".messages")).to_contain_text("Session 1: Night one has started.")
    expect(page.locator("#session-bar h2")).to_have_text("Now playing Session 1: Night one")
    page.get_by_role("button", name="Mark a new scene").click()
    expect(page.locator("#session-bar")).to_contain_text("Scene 1 · rolls made now belong")
    page.goto(f"/campaigns/{party.campaign.pk}/log/?session=1")
    expect(page.locator(".scene-links a")).to_have_text(["The whole session", "Scene 1"])
