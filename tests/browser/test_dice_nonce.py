"""The roller's nonce (static/js/dice-nonce.js, docs/verifiable-dice.md): a request that rolls
carries 32 fresh hex characters from the browser, whether htmx sends the form or the browser does;
a request that rolls nothing carries none."""

import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

HEX32 = re.compile(r"[0-9a-f]{32}")


def _panel(page, log_in):
    character = CharacterFactory(campaign__system=System.COGENT)
    skill = character.cogent.skills.get(name="Athletics")
    skill.rating = 2  # a rated skill: its Roll button is on the sheet's first view
    skill.save()
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{skill.pk} .roll-button").click()
    expect(page.locator("#roll-panel .roll-panel")).to_be_visible()
    return character


def _nonce_of(request) -> list[str]:
    return parse_qs(request.post_data or "").get("nonce", [])


def test_an_htmx_roll_sends_a_nonce_and_a_new_one_next_time(page, log_in, violations):
    _panel(page, log_in)
    sent = []
    for _ in range(2):
        # Waited for to its answer: a roll still being written when the test ends would hold
        # SQLite's table while the test database is flushed.
        with page.expect_response(
            lambda r: r.request.method == "POST" and "/roll/" in r.url
        ) as answer:
            page.locator("#roll-form").evaluate("(form) => form.requestSubmit()")
        request = answer.value.request
        sent += _nonce_of(request)
        assert request.headers.get("hx-request") == "true"
    assert len(sent) == 2 and all(HEX32.fullmatch(n) for n in sent)
    assert sent[0] != sent[1]
    assert violations == []


def test_a_plain_submit_of_a_dice_form_sends_one_too(page, log_in):
    _panel(page, log_in)
    # The same form without htmx: the browser itself posts it and the page is replaced.
    # A copy holds none of the listeners htmx put on the original.
    page.locator("#roll-form").evaluate(
        "(form) => { form.removeAttribute('hx-post'); form.replaceWith(form.cloneNode(true)); }"
    )
    with page.expect_request(lambda r: r.method == "POST" and "/roll/" in r.url) as sent:
        page.locator("#roll-action-roll").click()
    assert "hx-request" not in sent.value.headers
    (first,) = _nonce_of(sent.value)
    assert HEX32.fullmatch(first)


def test_a_form_that_rolls_nothing_sends_no_nonce(page, log_in):
    character = CharacterFactory(campaign__system=System.COGENT)
    log_in(character.owner)
    page.goto("/account/")
    with page.expect_request(lambda r: r.method == "POST") as sent:
        page.locator("main form.stacked button[type=submit]").first.click()
    assert _nonce_of(sent.value) == []
