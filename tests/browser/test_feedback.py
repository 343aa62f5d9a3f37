"""Never silence: while a request is in flight its control is disabled and busy; when the network
drops or the server fails, a message says what happened and what to do."""

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

ROLL_POST = "**/roll/dad6-skill/*/roll/"


@pytest.fixture
def panel(page, log_in):
    character = CharacterFactory(campaign__system=System.DAD6)
    skill = character.dad6.skills.create(name="Cooking", competence="trained")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    page.locator(f"#skill-{skill.pk} .roll-button").click()
    expect(page.locator("#roll-panel .roll-panel")).to_be_visible()
    return page.locator("#roll-action-roll")


def test_a_control_is_busy_while_its_request_is_in_flight(page, panel):
    held = []
    page.route(ROLL_POST, lambda route: held.append(route))  # it waits until the test lets it go
    panel.click()
    expect(panel).to_be_disabled()
    expect(page.locator("#roll-panel form[aria-busy=true]")).to_have_count(1)
    held[0].continue_()
    expect(page.locator("#roll-result .entry")).to_be_visible()
    expect(page.locator("[aria-busy=true]")).to_have_count(0)
    expect(page.locator("#request-status")).to_be_hidden()


def test_a_dropped_request_says_so(page, panel):
    page.route(ROLL_POST, lambda route: route.abort())
    panel.click()
    status = page.locator("#request-status")
    expect(status).to_be_visible()
    expect(status).to_contain_text("Couldn't reach Poolside: check your connection")
    expect(panel).to_be_enabled()  # it can be tried again
    status.get_by_role("button", name="Dismiss").click()
    expect(status).to_be_hidden()


def test_a_server_error_says_so(page, panel):
    page.route(ROLL_POST, lambda route: route.fulfill(status=500, body="boom"))
    panel.click()
    expect(page.locator("#request-status")).to_contain_text(
        "Something went wrong on the server (error 500)"
    )
