"""Follow-ups say what they will do to this roll before they are pressed, and the risky one after
a success is secondary (issue 34, item 7): Cold Stars' Correct under a clean success, on a phone
and a laptop, is an outlined button that says the new result replaces this Success."""

import re

import pytest
from playwright.sync_api import expect

from rules import cold_stars
from sheets.models import System
from tests.factories import CharacterFactory
from tests.rolls.helpers import seed_where

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
BACKGROUND = "el => getComputedStyle(el).backgroundColor"


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_correct_after_a_success_is_secondary_and_says_what_it_does(
    page, log_in, settings, viewport
):
    page.set_viewport_size(viewport)
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.strength, sheet.momentum_max, sheet.momentum = 2, 5, 3
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 2
    athletics.save()
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "success",
        lambda rng: cold_stars.roll(cold_stars.Pool(2, 2, 0), rng),
    )
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{athletics.pk} .roll-button").click()
    roll = page.locator("#roll-action-roll")
    primary = roll.evaluate(BACKGROUND)
    roll.click()
    expect(page.locator("#roll-result .headline-title")).to_have_text("Success")

    correct = page.locator("#follow-up-correct")
    # The chances of doing better, the same and worse than the result it replaces (RULES.md §8).
    expect(correct).to_contain_text(re.compile(r"better, .* same, .* worse than Success"))
    expect(correct).to_have_class("secondary")
    assert correct.evaluate(BACKGROUND) != primary
