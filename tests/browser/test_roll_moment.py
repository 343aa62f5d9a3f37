"""The moment of the roll in the dialog: the dice are drawn as dice, they tumble in (a CSS animation
the panel's script starts by a class) unless the player asks for reduced motion, and a page that
loads with results on it animates none of them."""

import re

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

# The names of the animations running on the result's dice faces and headline.
RUNNING = """() => document.getAnimations()
    .filter(a => a.effect && a.effect.target && a.effect.target.closest('#roll-result'))
    .map(a => a.animationName)"""


def roll_in_the_dialog(page, log_in, system):
    character = CharacterFactory(campaign__system=system)
    # A skill that reads on the sheet (a blank sheet's rows are folded under "Show all").
    if system == System.DAD6:  # a new DAD6 sheet has no skills yet
        character.dad6.skills.create(name="Tracking", competence="trained")
    elif system == System.COGENT:
        character.cogent.skills.filter(name="Athletics").update(rating=1)
    else:
        character.cold_stars.skills.filter(name="Piloting").update(trained=True, rating=1)
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(".roll-button:visible").first.click()
    expect(page.locator("#roll-dialog")).to_be_visible()
    page.locator("#roll-action-roll").click()
    expect(page.locator("#roll-result .entry")).to_be_visible()
    return character


@pytest.mark.parametrize("system", System.values)
def test_the_dice_are_drawn_and_tumble_in(page, log_in, system):
    roll_in_the_dialog(page, log_in, system)
    dice = page.locator("#roll-result .die")
    assert dice.count() > 0
    # Every die is a drawing (hidden from screen readers) with its sentence beside it.
    assert (
        page.locator("#roll-result .die svg.die-face[aria-hidden='true']").count() == dice.count()
    )
    labels = page.locator("#roll-result .die .visually-hidden").all_inner_texts()
    assert len(labels) == dice.count() and all(labels)
    expect(page.locator("#roll-result .entry")).to_have_class(re.compile(r"\bjust-rolled\b"))
    expect(page.locator("#roll-result .result-headline")).to_have_class(
        re.compile(r"\bjust-rolled\b")
    )
    face = page.locator("#roll-result .die .die-face").first
    assert face.evaluate("e => getComputedStyle(e).animationName") == "die-tumble"
    # The whole moment, stagger included, is over within 700 ms.
    longest = page.evaluate(
        """() => Math.max(...document.getAnimations().map(a => {
            const t = a.effect.getComputedTiming(); return t.delay + t.activeDuration; }))"""
    )
    assert 0 < longest <= 700
    expect(page.locator("#roll-result .result-headline")).to_be_visible()


def test_no_animation_under_reduced_motion(browser, live_server):
    context = browser.new_context(base_url=live_server.url, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    context.route(
        "**/campaigns/*/events/**",
        lambda route: route.fulfill(status=501, body="Live updates need the ASGI server."),
    )
    page = context.new_page()
    try:
        character = CharacterFactory(campaign__system=System.COLD_STARS)
        character.cold_stars.skills.filter(name="Piloting").update(trained=True, rating=1)
        page.goto("/accounts/login/")
        page.fill("#id_username", character.owner.username)
        page.fill("#id_password", "pw")
        page.click("main button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)
        page.goto(character.get_absolute_url())
        page.locator(".roll-button:visible").first.click()
        page.locator("#roll-action-roll").click()
        expect(page.locator("#roll-result .entry")).to_be_visible()
        assert page.locator("#roll-result .die svg.die-face").count() > 0
        assert page.locator(".just-rolled").count() == 0
        face = page.locator("#roll-result .die .die-face").first
        assert face.evaluate("e => getComputedStyle(e).animationName") == "none"
        assert page.evaluate(RUNNING) == []
        # The headline is there at once, the announcement too.
        expect(page.locator("#roll-result .result-headline")).to_be_visible()
        expect(page.locator("#roll-announce")).not_to_be_empty(timeout=15_000)
    finally:
        context.close()


def test_a_page_that_loads_with_results_animates_none(page, log_in):
    character = roll_in_the_dialog(page, log_in, System.DAD6)
    for path in (f"/campaigns/{character.campaign_id}/log/", character.get_absolute_url()):
        page.goto(path)
        expect(page.locator(".entry .die").first).to_be_visible()
        assert page.locator(".just-rolled").count() == 0
        assert page.evaluate("() => document.getAnimations().length") == 0


# Your own critical result, as the stylesheet gives it a moment: the headline as a critical
# outcome's (its class is the outcome's; the dice decide which, so the test sets it).
CRITICAL = """outcome => {
  const h = document.querySelector('#roll-result .result-headline');
  h.className = h.className.replace(/outcome-\\S+/, 'outcome-' + outcome);
  const s = getComputedStyle(h);
  return [s.animationName, s.borderLeftWidth, s.backgroundColor !== 'rgba(0, 0, 0, 0)'];
}"""


@pytest.mark.parametrize("outcome", ["critical_success", "critical_failure"])
def test_a_critical_result_gets_a_moment_calm_under_reduced_motion(browser, live_server, outcome):
    for motion, glows in (("no-preference", True), ("reduce", False)):
        context = browser.new_context(base_url=live_server.url, reduced_motion=motion)
        context.set_default_timeout(10_000)
        context.route("**/campaigns/*/events/**", lambda route: route.fulfill(status=501))
        page = context.new_page()
        try:
            character = CharacterFactory(campaign__system=System.COLD_STARS)
            character.cold_stars.skills.filter(name="Piloting").update(trained=True, rating=1)
            page.goto("/accounts/login/")
            page.fill("#id_username", character.owner.username)
            page.fill("#id_password", "pw")
            page.click("main button[type=submit]")
            page.wait_for_url(lambda url: "/accounts/login/" not in url)
            page.goto(character.get_absolute_url())
            page.locator(".roll-button:visible").first.click()
            page.locator("#roll-action-roll").click()
            expect(page.locator("#roll-result .result-headline")).to_be_visible()
            names, border, tinted = page.evaluate(CRITICAL, outcome)
            assert border == "10px" and tinted
            assert ("critical-glow" in names) is glows, names
            # The glow keeps to the roll's moment: everything is over within 700 ms.
            longest = page.evaluate(
                """() => Math.max(0, ...document.getAnimations().map(a => {
                    const t = a.effect.getComputedTiming(); return t.delay + t.activeDuration; }))"""
            )
            assert longest <= 700
        finally:
            context.close()
