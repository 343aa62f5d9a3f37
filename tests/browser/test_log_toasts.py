"""Scrolling back through the log is not news (issue 50): older entries that "Older rolls"
brings in as the page scrolls were written before it opened, so none becomes a toast (nor is
read out by the polite live region); an entry that arrives live still does."""

import pytest
from playwright.sync_api import expect

from rolls.messages.actions import post_message
from tests.browser.live_pages import live

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

OLD = 40  # more than a log page (25): the rest comes by scrolling


@pytest.fixture
def old_messages(party, settings):
    settings.MESSAGE_RATE = "0"
    membership = party.campaign.memberships.get(user=party.player)
    for n in range(OLD):
        post_message(party.player, membership, party.campaign, text=f"Old line {n}", character=None)


def test_older_entries_scrolled_in_make_no_toast(old_messages, pages, party):
    gm = pages["gm"]
    live(gm, f"/campaigns/{party.campaign.pk}/log/")
    entries = gm.locator("#log-entries .entry-message")
    expect(entries).to_have_count(25)
    gm.locator("li.older").scroll_into_view_if_needed()
    expect(entries).to_have_count(OLD)
    expect(gm.get_by_text("Old line 0", exact=True)).to_be_visible()
    expect(gm.locator("#notices .notice")).to_have_count(0)
    # A message that arrives live is news (sent from the player's page: the server may have a
    # copy of the database of its own).
    player = pages["player"]
    live(player, f"/campaigns/{party.campaign.pk}/log/")
    player.locator("#composer").get_by_role("textbox", name="Message").fill("Brand new")
    player.locator("#composer").get_by_role("button", name="Send").click()
    expect(gm.locator("#notices .notice")).to_have_count(1)
    expect(gm.locator("#notices")).to_contain_text("Brand new")
