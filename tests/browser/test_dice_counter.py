"""A server that grinds a player's dice is caught by the player's own browser
(docs/verifiable-dice.md, "What a player can check, and how"): a roll's dice are proven for the
roller's next number, so rolling again for better dice means skipping a number, and the log
page's check of the member's view finds the number missing from their own history."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from log.models import Visibility
from tests.factories import CharacterFactory
from tests.rolls.counters import grind
from tests.rolls.helpers import athletics, roll_url

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def roll(character, visibility=Visibility.PUBLIC) -> None:
    client = Client()
    client.force_login(character.owner)
    response = client.post(
        roll_url(character, "cogent-skill", athletics(character)),
        {"challenge_level": 2, "extra_penalty": 0, "visibility": visibility},
    )
    assert response.status_code == 302


def test_a_roll_drawn_and_never_logged_is_caught_by_the_players_browser(page, log_in):
    character = CharacterFactory()
    roll(character)
    log_in(character.owner)
    page.goto(f"/campaigns/{character.campaign_id}/log/")
    check = page.locator("#view-check")
    expect(check).to_contain_text("✓ verified")
    expect(check).to_contain_text("Your rolls count up to #1 with none missing")
    roll(character, Visibility.BLIND)  # the roller's own blind roll: a placeholder, no gap
    roll(character)
    page.goto(f"/campaigns/{character.campaign_id}/log/")
    expect(check).to_contain_text("Your rolls count up to #3 with none missing")
    # The grinding server: it drew dice for the player's roll #4, disliked them, and rolled
    # again for #5, which it logged.
    grind(character.campaign, character.owner)
    roll(character)
    page.goto(f"/campaigns/{character.campaign_id}/log/")
    alarm = page.locator("#view-alarm")
    expect(alarm).to_be_visible()
    expect(alarm).to_contain_text(
        "Your roll #4 is missing from your history: this log goes on to your roll #5."
    )
    expect(check).to_be_hidden()


def test_a_first_visit_counts_from_the_start_of_a_short_log(page, log_in):
    character = CharacterFactory()
    roll(character)
    grind(character.campaign, character.owner)
    roll(character)
    log_in(character.owner)
    page.goto(f"/campaigns/{character.campaign_id}/log/")
    expect(page.locator("#view-alarm")).to_contain_text("Your roll #2 is missing")
