"""Once per system, as a player would: log in, open the sheet, open a roll panel, change an option
and watch the odds change, roll, see the dice and the new log entry."""

import pytest
from playwright.sync_api import expect

from log.models import RollEntry
from sheets.models import System
from tests.factories import CharacterFactory
from tests.rolls.helpers import token

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    # The live server starts before the per-test settings point WhiteNoise at static/.
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def open_panel(page, character, row_id):
    page.goto(character.get_absolute_url())
    page.locator(f"#{row_id} .roll-button").click()
    expect(page.locator("#roll-panel .roll-panel")).to_be_visible()
    expect(page.locator("#roll-heading")).to_be_focused()


def change_and_watch_odds(page, selector, value, *, select=False):
    odds = page.locator("#roll-odds .odds-text").first
    before = odds.inner_text()
    field = page.locator(selector)
    field.select_option(str(value)) if select else field.fill(str(value))
    field.dispatch_event("change")
    expect(odds).not_to_have_text(before)
    return odds.inner_text()


def roll_and_check(page, character):
    page.locator("#roll-action-roll").click()
    card = page.locator("#roll-result .entry")
    expect(card).to_be_visible()
    entry = RollEntry.objects.get(character=character)
    expect(page.locator("#roll-announce")).to_contain_text(entry.outcome_label)
    assert page.locator("#roll-result .die").count() == len(entry.faces) > 0
    # The sheet refreshed itself (HX-Trigger) and lists the roll; so does the campaign log.
    expect(page.locator(f"#recent-rolls #entry-{token(entry)}")).to_be_visible()
    page.goto(f"/campaigns/{character.campaign_id}/log/")
    expect(page.locator(f"#entry-{token(entry)} .outcome")).to_have_text(entry.outcome_label)
    return entry


def test_cogent(page, log_in):
    character = CharacterFactory(campaign__system=System.COGENT)
    skill = character.cogent.skills.get(name="Athletics")
    skill.rating = 2
    skill.save()
    log_in(character.owner)
    open_panel(page, character, f"skill-{skill.pk}")
    change_and_watch_odds(page, "#roll_challenge_level", 3, select=True)
    # 5 dice against CL 3; expect() waits out a swap still in flight on a busy machine.
    expect(page.locator("#roll-odds .odds-text").first).to_contain_text("50.0% (1/2)")
    entry = roll_and_check(page, character)
    assert entry.options["challenge_level"] == 3


def test_dad6_by_keyboard(page, log_in):
    character = CharacterFactory(campaign__system=System.DAD6)
    skill = character.dad6.skills.create(name="Cooking", competence="trained")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{skill.pk} .roll-button").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#roll-heading")).to_be_focused()
    change_and_watch_odds(page, "#roll_difficulty", 2)
    page.locator("#roll-action-roll").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#roll-result .entry")).to_be_visible()
    entry = RollEntry.objects.get(character=character)
    assert entry.options["difficulty"] == 2
    expect(page.locator(f"#recent-rolls #entry-{token(entry)}")).to_be_visible()
    page.goto(f"/campaigns/{character.campaign_id}/log/")
    expect(page.locator(f"#entry-{token(entry)}")).to_be_visible()


def test_cold_stars(page, log_in):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.strength, sheet.momentum_max, sheet.momentum = 3, 5, 1
    sheet.save()
    skill = sheet.skills.get(name="Athletics")
    skill.trained, skill.rating = True, 1
    skill.save()
    log_in(character.owner)
    open_panel(page, character, f"skill-{skill.pk}")
    change_and_watch_odds(page, "#roll_risk", 3)
    # Brace is shown beside the other choices but refused for want of Momentum.
    expect(page.locator("#roll_problem_brace")).to_have_text("Brace needs 2 Momentum; you have 1.")
    expect(page.locator("#roll_modification_brace")).to_be_disabled()
    page.locator("#roll_modification_press").check()
    expect(page.locator("#roll-odds .breakdown")).to_contain_text("Press: 3 Ability + 3 Risk")
    entry = roll_and_check(page, character)
    assert entry.options["modification"] == "press" and entry.resource_changes == {"momentum": 1}


def test_rolls_in_a_row_go_on_top_of_the_recent_rolls(page, log_in):
    """A roll that changes nothing else on the sheet brings its result and its card alone: the
    form stays as it was, the card goes on top of the recent rolls, which keep their length."""
    character = CharacterFactory(campaign__system=System.COGENT)
    skill = character.cogent.skills.get(name="Athletics")
    skill.rating = 2
    skill.save()
    log_in(character.owner)
    open_panel(page, character, f"skill-{skill.pk}")
    expect(page.locator("#recent-rolls .no-rolls")).to_be_visible()
    form = page.locator("#roll-form").element_handle()
    result = page.locator("#roll-result .entry")
    shown = ""
    for n in range(1, 7):
        page.locator("#roll-action-roll").click()
        if shown:  # this click's result, not the one before
            expect(result).not_to_have_id(shown)
        expect(result).to_be_in_viewport()
        shown = result.get_attribute("id")
        expect(page.locator("#recent-rolls-list > li")).to_have_count(min(n, 5))
        expect(page.locator("#recent-rolls-list > li").first.locator(".entry")).to_have_id(
            shown.replace("result-", "entry-", 1)
        )
    assert RollEntry.objects.filter(character=character).count() == 6
    expect(page.locator("#recent-rolls .no-rolls")).to_be_hidden()
    assert form.evaluate("f => f.isConnected")  # the same form: never drawn again
