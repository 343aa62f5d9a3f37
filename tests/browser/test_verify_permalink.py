"""Verify these dice, end to end (docs/verifiable-dice.md): a roll made in the app, its permalink,
the browser's check — ✓ for the dice as the server proved them, ✗ with the reason for a page whose
dice, outcome or key were changed — and the section's layout on a phone and a laptop, light and
dark, with JavaScript and without."""

import json

import pytest
from playwright.sync_api import expect

from log.models import OUTCOME_LABELS, RollEntry
from sheets.models import System
from tests.browser.checkers import axe_source, axe_violations, html_errors
from tests.browser.verify_pages import roll_in_the_app, verify

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
VERIFIED = "✓ Verified. The dice come from the published key and give the result shown."


def change_island(page, script: str) -> None:
    """What a server (or anyone between it and the reader) could change in the page: the
    island's data, edited in place before the click."""
    page.locator("#verify-data").evaluate(
        f"(island) => {{ const d = JSON.parse(island.textContent); {script}; "
        "island.textContent = JSON.stringify(d); }"
    )


@pytest.mark.parametrize("system", [System.COGENT, System.DAD6, System.COLD_STARS])
def test_a_roll_made_in_the_app_verifies_in_the_browser(page, log_in, violations, system):
    entry = roll_in_the_app(page, log_in, system)
    assert entry.proof and entry.proof["alpha"]["nonce"] != ""
    page.goto(entry.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_contain_text(VERIFIED)
    expect(page.locator("#verify-result")).to_have_attribute("role", "status")
    assert violations == []


def test_a_changed_face_outcome_or_key_is_refused_with_its_reason(page, log_in):
    entry = roll_in_the_app(page, log_in, System.COGENT)
    page.goto(entry.get_absolute_url())
    result = page.locator("#verify-result")
    face = entry.faces[0]["face"]
    shown = face % 6 + 1
    change_island(page, f"d.faces[0].face = {shown}")
    verify(page)
    expect(result).to_have_text(
        f"✗ Not verified. Die 1 should be {face}, but the entry shows {shown}."
    )
    page.reload()
    claimed = "failure" if entry.outcome == "success" else "success"
    change_island(page, f"d.outcome = {json.dumps(claimed)}")
    verify(page)
    wins, cl = entry.result["wins"], entry.options["challenge_level"]
    expect(result).to_have_text(
        f"✗ Not verified. The dice give {wins} win{'' if wins == 1 else 's'} against CL {cl}: "
        f"{entry.outcome_label}, but the entry says {OUTCOME_LABELS[claimed]}."
    )
    page.reload()
    change_island(page, "d.key = null")
    verify(page)
    expect(result).to_have_text(f"✗ Not verified. Key {entry.proof['key'][:8]}… is not published.")


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_verify_section_keeps_its_place_on_a_phone_and_a_laptop(page, log_in, size, scheme):
    entry = roll_in_the_app(page, log_in, System.COLD_STARS)
    page.set_viewport_size(size)
    page.emulate_media(color_scheme=scheme)
    page.goto(entry.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_contain_text(VERIFIED)
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    main = page.locator("main").bounding_box()
    for part in ("#verify-heading", "button[data-verify-dice]", "#verify-result"):
        box = page.locator(part).bounding_box()
        assert main["x"] <= box["x"] and box["x"] + box["width"] <= main["x"] + main["width"]
    # The verdict sits under its button, never beside or over it.
    button = page.locator("button[data-verify-dice]").bounding_box()
    assert page.locator("#verify-result").bounding_box()["y"] >= button["y"] + button["height"]
    assert axe_violations(page, axe_source(), ("serious", "critical")) == []


def test_the_permalink_with_its_island_and_verdict_is_valid_html(page, log_in, tmp_path):
    entry = roll_in_the_app(page, log_in, System.DAD6)
    served = page.request.get(entry.get_absolute_url()).text()
    page.goto(entry.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_contain_text(VERIFIED)
    documents = {"served": served, "verified": page.content()}
    # The result card's h3 straight under the page's h1 is the permalink's as it was before this
    # section (templates/rolls/_entry.html is shared with the log, whose days are h2): not ours.
    errors = [e for e in html_errors(documents, tmp_path) if "“h3”" not in e]
    assert errors == []


def test_without_javascript_the_page_reads_and_offers_no_button(page, log_in, no_js):
    entry = roll_in_the_app(page, log_in, System.COGENT)
    no_js.context.add_cookies(page.context.cookies())
    no_js.goto(entry.get_absolute_url())
    expect(no_js.locator(".result-headline")).to_be_visible()
    expect(no_js.locator("#verify-heading")).to_be_visible()
    expect(no_js.locator("button[data-verify-dice]")).to_be_hidden()


def as_written_before_version_6(entry: RollEntry) -> None:
    """Rewrite ``entry`` as the code before hash version 6 wrote it (no commitments), re-signed
    with its head, so the log holds an entry of an older version beside the new ones."""
    from log.models import LogHead
    from log.models.keys import server_key
    from proofs.protocol import entry_message
    from tests.rolls.helpers import tamper

    entry.hash_version = 5
    old = entry.compute_hash()
    signature = server_key().sign(entry_message(entry.campaign_id, entry.seq, old))
    tamper(
        "UPDATE rolls_rollentry SET hash_version = 5, hash = %s, signature = %s WHERE id = %s",
        [old, signature, entry.pk],
    )
    head = LogHead.objects.get(pk=entry.campaign_id)
    head.hash = old
    head.sign()
    head.save()


def test_an_entry_written_before_version_6_verifies_in_the_browser(page, log_in):
    """A roll of hash version 5, beside newer entries: its permalink's Verify and the log's view
    check both hold, as they did before issue 55 (the legacy log's other checks:
    tests/log/test_legacy_log.py)."""
    entry = roll_in_the_app(page, log_in, System.COGENT)
    as_written_before_version_6(entry)
    page.goto(entry.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_contain_text(VERIFIED)
    page.goto(f"/campaigns/{entry.campaign_id}/log/")
    expect(page.locator("#view-check")).to_contain_text("✓ verified")
