"""A roll made in the app and its permalink's Verify, as the verify tests drive them
(test_verify_permalink.py, test_verify_held.py)."""

from playwright.sync_api import expect

from log.models import RollEntry
from sheets.models import System
from tests.factories import CharacterFactory


def _row(system: str):
    """A character of ``system`` and the id of a rollable row on its sheet."""
    character = CharacterFactory(campaign__system=system)
    if system == System.COGENT:
        skill = character.cogent.skills.get(name="Athletics")
        skill.rating = 2
        skill.save()
    elif system == System.DAD6:
        skill = character.dad6.skills.create(name="Cooking", competence="trained")
    else:
        skill = character.cold_stars.skills.get(name="Athletics")
        skill.trained, skill.rating = True, 2
        skill.save()
    return character, f"skill-{skill.pk}"


def roll_in_the_app(page, log_in, system: str) -> RollEntry:
    """Roll from the sheet's panel as a player does (the browser sends its nonce)."""
    character, row = _row(system)
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#{row} .roll-button").click()
    page.locator("#roll-action-roll").click()
    expect(page.locator("#roll-result .entry")).to_be_visible()
    return RollEntry.objects.get(character=character)


def verify(page) -> None:
    page.get_by_role("button", name="Verify these dice").click()
