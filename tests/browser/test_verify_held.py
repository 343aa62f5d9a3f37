"""What the browser holds the server to (docs/verifiable-dice.md, "What a player can check, and
how"): Verify compares the proof's nonce with the one this browser sent for the entry, accepts
only keys it pinned (or a rotation the key before signed) and holds the proof to the entry's
pool. Each dishonest server is the real app, monkeypatched in the live server's process; each is
caught in Chromium, and the honest one still verifies."""

import re
import secrets
from io import StringIO
from urllib.parse import parse_qs

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from log.models import RollEntry
from proofs.dice import new_nonce
from rolls.rolling import dice as rolling_dice
from sheets.models import System
from tests.browser.verify_pages import roll_in_the_app, verify

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

VERIFIED = "✓ Verified. The dice come from the published key and give the result shown."
OWN_NONCE = " The proof uses the nonce your browser sent."
PINNED = " The key is one this browser pinned."
FIRST_SIGHT = (
    " This browser now keeps the server's keys, and will accept a new one only if the key before"
    " signed it."
)


def roll_and_capture(page, log_in, system=System.COGENT) -> tuple[RollEntry, str]:
    """Roll in the app as a player does; the entry and the nonce this browser sent with it."""
    # Waited for over the whole roll (the log-in, the sheet and the panel come first).
    with page.expect_request(
        lambda r: r.method == "POST" and "/roll/" in r.url, timeout=60_000
    ) as sent:
        entry = roll_in_the_app(page, log_in, system)
    (nonce,) = parse_qs(sent.value.post_data or "").get("nonce", [])
    # The answer files the nonce under the entry (no request of its own: a roll is one request).
    page.wait_for_function(
        "(entry) => (JSON.parse(localStorage.getItem('poolside-nonces')) || {})['e:' + entry]",
        arg=entry.get_absolute_url().rstrip("/").rsplit("/", 1)[-1],
    )
    return entry, nonce


def roll_again(page, entry: RollEntry) -> RollEntry:
    page.goto(entry.character.get_absolute_url())
    page.locator(".roll-button").first.click()
    page.locator("#roll-action-roll").click()
    expect(page.locator("#roll-result .entry")).to_be_visible()
    return RollEntry.objects.filter(character=entry.character).latest("seq")


def test_an_honest_roll_verifies_with_the_browsers_own_nonce_and_pinned_key(page, log_in):
    entry, nonce = roll_and_capture(page, log_in)
    assert entry.proof["alpha"]["nonce"] == nonce
    # The roll's answer shows the nonce the dice used.
    expect(page.locator("#roll-result .roll-nonce")).to_have_text(
        f"Nonce of these dice (the roller's part): {nonce}"
    )
    page.goto(entry.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_have_text(VERIFIED + OWN_NONCE + FIRST_SIGHT)
    verify(page)
    expect(page.locator("#verify-result")).to_have_text(VERIFIED + OWN_NONCE + PINNED)


def test_a_server_that_ignores_the_browsers_nonce_is_caught(page, log_in, monkeypatch):
    monkeypatch.setattr(rolling_dice, "nonce_from", lambda sent: new_nonce())
    entry, nonce = roll_and_capture(page, log_in)
    used = entry.proof["alpha"]["nonce"]
    assert used != nonce
    expect(page.locator("#roll-result .roll-nonce code")).to_have_text(used)
    page.goto(entry.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_have_text(
        f"✗ Not verified. Your browser sent {nonce[:8]}…; this proof uses {used[:8]}… — "
        "the server did not use your part."
    )


def test_a_server_that_proves_fewer_dice_than_the_pool_is_caught(page, log_in, monkeypatch):
    honest_draw = rolling_dice.LogDice.draw

    def two_dice_fewer(self, groups):
        (kind, count, sides), *rest = groups
        return honest_draw(self, ((kind, max(count - 2, 0), sides), *rest))

    monkeypatch.setattr(rolling_dice.LogDice, "draw", two_dice_fewer)
    entry, _ = roll_and_capture(page, log_in)
    dice = entry.pool["dice"]
    page.goto(entry.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_have_text(
        f"✗ Not verified. The proof rolls {dice - 2} dice, but the entry's pool is {dice}d6."
    )


def test_a_cold_stars_pool_is_held_to_ability_skill_and_risk(page, log_in):
    entry, _ = roll_and_capture(page, log_in, System.COLD_STARS)
    page.goto(entry.get_absolute_url())
    # What a server would serve for a proof of one Skill die fewer: the island's pool says more.
    skill = entry.pool["skill"]
    page.locator("#verify-data").evaluate(
        "(island) => { const d = JSON.parse(island.textContent); d.pool.skill += 1; "
        "island.textContent = JSON.stringify(d); }"
    )
    verify(page)
    ability, risk = entry.pool["ability"], entry.pool["risk"]
    expect(page.locator("#verify-result")).to_have_text(
        f"✗ Not verified. The proof rolls {ability} ability, {skill} skill, {risk} risk, but the "
        f"entry's pool is {ability} ability, {skill + 1} skill, {risk} risk."
    )


def test_a_swapped_key_is_caught_and_a_signed_rotation_is_not(page, log_in, settings, tmp_path):
    entry, _ = roll_and_capture(page, log_in)
    assert page.evaluate("() => localStorage.getItem('poolside-keys')") is None
    page.goto(entry.get_absolute_url())
    verify(page)  # the first sight of the keys: pinned
    expect(page.locator("#verify-result")).to_contain_text(VERIFIED)
    pinned = page.evaluate("() => JSON.parse(localStorage.getItem('poolside-keys'))")
    assert [key["id"] for key in pinned] == [entry.proof["key"]]
    # An honest rotation: the key before signs the new one, then the server moves to it.
    rotated = tmp_path / "rotated.key"
    call_command("rotate_key", str(rotated), "--create", stdout=StringIO())
    settings.SIGNING_KEY_FILE = rotated
    after_rotation = roll_again(page, entry)
    assert after_rotation.proof["key"] != entry.proof["key"]
    page.goto(after_rotation.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_have_text(VERIFIED + OWN_NONCE + PINNED)
    # A key the server made for itself: published, proving, but nothing hands over to it.
    swapped = tmp_path / "swapped.key"
    swapped.write_text(secrets.token_hex(32) + "\n")
    settings.SIGNING_KEY_FILE = swapped
    after_swap = roll_again(page, entry)
    page.goto(after_swap.get_absolute_url())
    verify(page)
    expect(page.locator("#verify-result")).to_have_text(
        f"✗ Not verified. Key {after_swap.proof['key'][:8]}… is not a key this browser pinned: "
        "the server changed its key without a rotation signed by the key before."
    )
    # The pinned record is kept as it was: the swapped key was never added to it.
    held = page.evaluate("() => JSON.parse(localStorage.getItem('poolside-keys'))")
    assert [key["id"] for key in held] == [entry.proof["key"], after_rotation.proof["key"]]


def test_an_island_whose_key_is_its_own_record_fails_against_the_pin(page, log_in):
    # The review's island: a fresh key that /keys.json does not list, its record in the island.
    entry, _ = roll_and_capture(page, log_in)
    page.goto(entry.get_absolute_url())
    page.locator("#verify-data").evaluate(
        "(island) => { const d = JSON.parse(island.textContent); "
        "d.key = {...d.key, signing_key: d.key.vrf_key}; island.textContent = JSON.stringify(d); }"
    )
    verify(page)
    expect(page.locator("#verify-result")).to_have_text(re.compile(r"✗ Not verified\. Key "))


def test_another_browser_says_it_could_not_compare_the_nonce(page, log_in, browser):
    entry, _ = roll_and_capture(page, log_in)
    other = browser.new_context(base_url=page.url.split("/", 3)[0] + "//" + page.url.split("/")[2])
    other.add_cookies(page.context.cookies())
    fresh = other.new_page()
    fresh.goto(entry.get_absolute_url())
    verify(fresh)
    expect(fresh.locator("#verify-result")).to_have_text(
        VERIFIED
        + " This browser did not send this roll's nonce, so it could not compare it."
        + FIRST_SIGHT
    )
    other.close()
