"""A portrait through the real form, at a phone's and a laptop's width: a refused file says why
beside the field, a good one shows on the sheet and on the GM table's card, and nothing on those
pages is wider than the screen. And live: a roll's line on an open sheet carries the thumbnail
the server drew for that player (two browsers against uvicorn)."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from sheets import portraits
from tests import portrait_files as pf
from tests.browser.live_pages import live, roll
from tests.rolls.helpers import athletics

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def shown(image) -> None:
    """The picture is on screen and the browser decoded it. `decode()` waits for a picture still
    loading (a line that arrived live may be a moment ahead of its thumbnail) and rejects a
    broken one, so a 404 fails here rather than passing as not-yet-complete."""
    expect(image).to_be_visible()
    assert image.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0


@pytest.mark.parametrize("size", SIZES)
def test_upload_through_the_form_shows_on_sheet_and_table(page, log_in, violations, party, size):
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    log_in(party.player)
    page.goto(party.pc.get_absolute_url())
    page.get_by_role("link", name="Add a portrait").click()
    field = page.get_by_label("New portrait")

    # An SVG dressed as a PNG: refused beside the field, which names the message for readers.
    field.set_input_files({"name": "me.png", "mimeType": "image/png", "buffer": pf.SVG})
    page.get_by_role("button", name="Upload the portrait").click()
    error = page.locator(".field.has-error .errorlist")
    expect(error).to_contain_text("not a JPEG, PNG or WebP picture")
    assert error.get_attribute("id") in (field.get_attribute("aria-describedby") or "")
    fits(page)

    field = page.get_by_label("New portrait")
    field.set_input_files(
        {"name": "me.jpg", "mimeType": "image/jpeg", "buffer": pf.jpeg_with_exif()}
    )
    page.get_by_role("button", name="Upload the portrait").click()
    page.wait_for_url(f"**{party.pc.get_absolute_url()}")
    expect(page.get_by_text(f"Added {party.pc.name}'s portrait.")).to_be_visible()
    shown(page.locator(".character-head img.portrait-sheet"))
    expect(page.get_by_role("link", name="Change portrait")).to_be_visible()
    fits(page)

    page.context.clear_cookies()
    log_in(party.gm)
    page.goto(reverse("campaign_dashboard", args=[party.campaign.pk]))
    card = page.locator(f"#char-{party.pc.pk}")
    shown(card.locator("img.portrait-card"))
    # The others have none: their initials stand in.
    expect(page.locator(f"#char-{party.npc.pk} .portrait-initials")).to_have_text("W")
    fits(page)
    assert violations == []


@pytest.fixture
def warden_pictured(party):
    """Warden with Athletics rated and a portrait, the hidden Spy with one too; set before
    `pages` starts the server, which reads what was committed by then."""
    for npc in (party.npc, party.hidden_npc):
        npc.cogent.skills.filter(name="Athletics").update(rating=2)
        portraits.store(npc, portraits.process(pf.upload_file("npc.png", pf.picture())))


def test_a_rolls_line_on_a_sheet_carries_the_thumbnail(warden_pictured, pages, party):
    gm, player = pages["gm"], pages["player"]
    player.set_viewport_size(dict(zip(("width", "height"), SIZES["phone"], strict=True)))
    live(player, party.pc.get_absolute_url())
    roll(gm, party.hidden_npc, athletics(party.hidden_npc))  # the hidden NPC's: sent to nobody
    roll(gm, party.npc, athletics(party.npc))
    line = player.locator("#table-rolls li")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("Warden · Athletics")
    shown(line.locator(f'img.portrait[src="{party.npc.thumbnail_url}"]'))
    assert party.hidden_npc.portrait not in player.content()
