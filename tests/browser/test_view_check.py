"""The log page holds the server to the member's view (docs/verifiable-dice.md#your-view-of-the-log):
a quiet "✓ verified" when the signed view still holds what this browser saw, and a plain alarm at
the top when an entry it saw was changed or the log got shorter."""

import pytest
from playwright.sync_api import expect

from log.models import EntryText, RollEntry
from rolls.messages.actions import post_message
from sheets.models import Membership
from tests.factories import CharacterFactory
from tests.rolls.helpers import append, tamper

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def open_log(page, character) -> None:
    page.goto(f"/campaigns/{character.campaign_id}/log/")


def test_the_view_checks_out_and_a_changed_history_is_said_plainly(page, log_in, violations):
    character = CharacterFactory()
    entries = append(character, 3)
    log_in(character.owner)
    open_log(page, character)
    check = page.locator("#view-check")
    expect(check).to_be_visible()
    expect(check).to_contain_text("✓ verified")
    expect(check).to_contain_text("3 entries")
    expect(page.locator("#view-alarm")).to_be_hidden()
    append(character, 2)
    open_log(page, character)
    expect(check).to_contain_text("still holds everything this browser saw before")
    # Someone with the database rewrites an entry this browser saw.
    tamper("UPDATE rolls_rollentry SET detail = 'rewritten' WHERE id = %s", [entries[1].pk])
    open_log(page, character)
    alarm = page.locator("#view-alarm")
    expect(alarm).to_be_visible()
    expect(alarm).to_have_attribute("role", "alert")
    expect(alarm).to_contain_text("History you saw has changed")
    expect(check).to_be_hidden()
    assert violations == []


def test_a_log_cut_below_what_this_browser_saw_is_shorter(page, log_in):
    character = CharacterFactory()
    entries = append(character, 3)
    log_in(character.owner)
    open_log(page, character)
    expect(page.locator("#view-check")).to_contain_text("✓ verified")
    tamper("DELETE FROM rolls_rollentry WHERE id = %s", [entries[2].pk])
    tamper("DELETE FROM rolls_seencheckpoint", [])
    tamper("DELETE FROM rolls_seenhead", [])
    open_log(page, character)
    expect(page.locator("#view-alarm")).to_contain_text(
        "shorter than when this browser last saw it"
    )
    assert RollEntry.objects.count() == 2


def test_a_removed_message_text_still_checks_out_and_a_changed_one_is_said(page, log_in):
    """Hash version 6: the view chains a message's commitment, not its text. Removing the text
    leaves the view verified; a text changed beside its commitment is caught by the browser."""
    character = CharacterFactory()
    append(character, 1)
    message = post_message(
        character.owner,
        Membership.objects.get(user=character.owner, campaign=character.campaign),
        character.campaign,
        text="Two words.",
        character=None,
    )
    other = append(character, 1)[0]
    log_in(character.owner)
    open_log(page, character)
    check = page.locator("#view-check")
    expect(check).to_contain_text("✓ verified")
    tamper("UPDATE log_entrytext SET text = 'Other words.' WHERE entry_id = %s", [message.pk])
    open_log(page, character)
    expect(page.locator("#view-alarm")).to_contain_text("doesn't say what the log recorded")
    EntryText.objects.filter(entry=message).delete()
    open_log(page, character)
    expect(check).to_contain_text("✓ verified")
    expect(check).to_contain_text("still holds everything this browser saw before")
    expect(page.locator("#view-alarm")).to_be_hidden()
    assert other.pk > message.pk
