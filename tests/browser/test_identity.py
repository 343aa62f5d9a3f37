"""The look in a real browser: nothing widens the page on a phone, and the landing page's demo
buttons log in with one click."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE = {"width": 390, "height": 844}
# One unbroken word as long as a name may be (100 characters, with its 3-letter prefix below).
LONG = ("Supercalifragilisticexpialidocious" * 3)[:97]


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("system", [System.COGENT, System.DAD6, System.COLD_STARS])
def test_long_unbroken_names_wrap_instead_of_widening_the_phone_page(page, log_in, system):
    character = CharacterFactory(
        name=f"Sir{LONG}", campaign__system=system, campaign__name=f"The{LONG}"
    )
    page.set_viewport_size(PHONE)
    log_in(character.owner)
    for url in ("/", character.campaign.get_absolute_url(), character.get_absolute_url()):
        page.goto(url)
        expect(page.locator("main h1")).to_be_visible()
        assert page_width(page) <= PHONE["width"], url


def test_landing_and_error_pages_fit_a_phone(page):
    page.set_viewport_size(PHONE)
    for url, status in (("/", 200), ("/accounts/login/", 200), ("/no/such/page/", 404)):
        response = page.goto(url)
        assert response.status == status
        expect(page.locator("main h1")).to_be_visible()
        assert page_width(page) <= PHONE["width"], url


def test_a_demo_button_logs_in_with_one_click(page, settings):
    settings.DEMO_LOGINS = True
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 — it prints the logins
    page.goto("/")
    page.get_by_role("button", name="Try it as alice").click()
    expect(page.locator("main h1")).to_have_text("My campaigns")
    expect(page.get_by_text("You are logged in as alice")).to_be_visible()
    expect(page.get_by_role("link", name="Cogent demo")).to_be_visible()
