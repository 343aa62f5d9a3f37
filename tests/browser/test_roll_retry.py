"""A roll whose answer never arrived (static/js/dice-nonce.js, docs/rolling.md "When a roll's
answer is lost"): the panel says so, and Roll again sends the same nonce — the roll's idempotency
key — so a roll the server made after all is shown, never rolled a second time."""

from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from log.models import RollEntry
from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

ROLL = "**/roll/cogent-skill/**"


def _panel(page, log_in):
    character = CharacterFactory(campaign__system=System.COGENT)
    skill = character.cogent.skills.get(name="Athletics")
    skill.rating = 2
    skill.save()
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{skill.pk} .roll-button").click()
    expect(page.locator("#roll-panel .roll-panel")).to_be_visible()
    return character


def _nonce(request) -> str:
    return parse_qs(request.post_data or "")["nonce"][0]


def _roll(page):
    with page.expect_request(lambda r: r.method == "POST" and "/roll/" in r.url) as sent:
        page.locator("#roll-form").evaluate("(form) => form.requestSubmit()")
    return sent.value


@pytest.mark.parametrize("reached_the_server", [False, True])
def test_roll_again_after_a_lost_answer_is_the_same_roll(page, log_in, reached_the_server):
    _panel(page, log_in)

    def lose_the_answer(route):
        if reached_the_server:
            route.fetch()  # the server rolls and writes; its answer is lost on the way back
        route.abort("connectionreset")

    page.route(ROLL, lose_the_answer)
    first = _roll(page)
    expect(page.locator("#request-status")).to_contain_text("a roll sent again from the same form")
    page.unroute(ROLL)
    with page.expect_response(lambda r: r.request.method == "POST" and "/roll/" in r.url) as got:
        page.locator("#roll-form").evaluate("(form) => form.requestSubmit()")
    assert _nonce(got.value.request) == _nonce(first)
    assert got.value.status == 200
    expect(page.locator(".roll-result").first).to_be_visible()
    assert RollEntry.objects.count() == 1
    # Once an answer came, the next roll is a new one, with a new nonce.
    with page.expect_response(lambda r: r.request.method == "POST" and "/roll/" in r.url) as next_:
        page.locator("#roll-form").evaluate("(form) => form.requestSubmit()")
    assert _nonce(next_.value.request) != _nonce(first)
    assert RollEntry.objects.count() == 2


def test_a_503_says_nothing_was_rolled_and_the_retry_rolls(page, log_in):
    _panel(page, log_in)
    page.route(
        ROLL,
        lambda route: route.fulfill(
            status=503,
            headers={"Retry-After": "5"},
            body="database away",
            content_type="text/plain",
        ),
    )
    first = _roll(page)
    expect(page.locator("#request-status")).to_contain_text("a roll was not rolled yet")
    page.unroute(ROLL)
    with page.expect_response(lambda r: r.request.method == "POST" and "/roll/" in r.url) as got:
        page.locator("#roll-form").evaluate("(form) => form.requestSubmit()")
    assert _nonce(got.value.request) == _nonce(first) and got.value.status == 200
    assert RollEntry.objects.count() == 1
