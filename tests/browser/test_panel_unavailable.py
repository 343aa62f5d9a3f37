"""What the character can't afford reads as unavailable, never as an error (issue 34, item 4): a
Cold Stars Brace that spends the last Momentum leaves the panel with "No modification" chosen and
Brace greyed out with its reason, nothing painted red, on a phone and a laptop."""

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}
COLOR = "el => getComputedStyle(el).color"


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_brace_on_the_last_momentum_leaves_a_calm_panel(page, log_in, viewport):
    page.set_viewport_size(viewport)
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.strength, sheet.momentum_max, sheet.momentum = 2, 5, 2
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 2
    athletics.save()
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{athletics.pk} .roll-button").click()
    risk = page.locator("#roll_risk")
    risk.fill("3")  # 2 Ability + 1 Risk: Brace has a Risk die to remove
    risk.dispatch_event("change")
    brace = page.locator("#roll_modification_brace")
    expect(brace).to_be_enabled()
    brace.check()
    expect(page.locator("#roll-odds .breakdown")).to_contain_text("Brace")
    page.locator("#roll-action-roll").click()
    expect(page.locator("#roll-result .result-headline")).to_be_visible()

    expect(page.locator("#roll_modification_none")).to_be_checked()
    expect(brace).to_be_disabled()
    why = page.locator("#roll_problem_brace")
    expect(why).to_have_text("Brace needs 2 Momentum; you have 0.")
    danger = page.evaluate("getComputedStyle(document.body).getPropertyValue('--danger')")
    muted = page.locator(".roll-panel .meta").first.evaluate(COLOR)
    assert why.evaluate(COLOR) == muted
    dialog = page.locator("#roll-dialog")
    expect(dialog.locator(".problem, .form-errors, .has-error, .errorlist")).to_have_count(0)
    assert danger  # the theme has a danger colour; nothing in the panel's options uses it
    expect(page.locator("#roll-action-roll")).to_be_visible()
