"""Messages in a real browser (docs/messages.md), at a phone's and a laptop's width: a player says
something in character from the log's composer and the GM's open log takes it live, announced
politely; the GM whispers back; the composer is ready for the next line, and nothing is wider than
the screen. Without JavaScript the composer posts and comes back, or keeps what was typed."""

import pytest
from playwright.sync_api import expect

from tests.browser.live_pages import live, log_in_as

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_message_and_a_whisper_at_the_table(pages, party, viewport):
    gm, player = pages["gm"], pages["player"]
    log_url = f"/campaigns/{party.campaign.pk}/log/"
    for page in (gm, player):
        page.set_viewport_size(viewport)
        live(page, log_url)
    composer = player.locator("#composer")
    # "Whisper to" shows only once a whisper is chosen.
    expect(composer.locator("legend", has_text="Whisper to")).to_be_hidden()
    composer.get_by_role("textbox", name="Message").fill("We *run* for the docks!")
    composer.get_by_label("Speak as").select_option(label="Ada")
    composer.get_by_role("button", name="Send").click()
    # The composer is ready for the next line: empty, still Ada's, the focus kept in the box.
    expect(player.locator("#composer").get_by_role("textbox", name="Message")).to_have_value("")
    expect(player.locator("#composer").get_by_label("Speak as")).to_have_value(str(party.pc.pk))
    expect(player.locator("#message_text")).to_be_focused()
    fits(player)

    # The GM's open log takes it live, as Ada, the markup drawn, and a polite notice says it.
    message = gm.locator("#log-entries .entry-message").first
    expect(message.locator(".message-speaker")).to_contain_text("Ada")
    expect(message.locator(".message-text em")).to_have_text("run")
    expect(gm.locator("#notices")).to_contain_text("Ada: We run for the docks!")
    expect(gm.locator("#notices")).to_have_attribute("aria-live", "polite")

    gm_composer = gm.locator("#composer")
    gm_composer.get_by_label("Speak as").select_option(label="Narration")
    gm_composer.get_by_label("Who reads it").select_option(label="A whisper to…")
    gm_composer.get_by_label("ana").check()
    gm_composer.get_by_role("textbox", name="Message").fill("You hear footsteps behind you.")
    gm_composer.get_by_role("button", name="Send").click()
    whisper = player.locator("#log-entries .entry-message.voice-narration").first
    expect(whisper).to_contain_text("You hear footsteps behind you.")
    expect(whisper.locator(".tag.visibility")).to_have_text("whisper to ana and the GM")
    fits(player)
    fits(gm)


def test_without_javascript_the_composer_posts_and_comes_back(no_js, party):
    page = no_js
    page.set_viewport_size(PHONE)
    log_in_as(page, party.player)
    page.goto(f"/campaigns/{party.campaign.pk}/log/")
    # A whisper to nobody: refused beside the field, the text kept.
    page.get_by_role("textbox", name="Message").fill("Only for ben")
    page.get_by_label("Who reads it").select_option(label="A whisper to…")
    page.get_by_role("button", name="Send").click()
    expect(page.locator(".composer-to .errorlist")).to_have_text("Choose who the whisper is to.")
    expect(page.get_by_role("textbox", name="Message")).to_have_value("Only for ben")
    page.get_by_label("ben").check()
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#log-entries .entry-message")).to_contain_text("Only for ben")
    expect(page.locator(".entry-message .tag.visibility")).to_have_text("whisper to ben and the GM")
    fits(page)
