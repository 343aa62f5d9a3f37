"""No page breaks the Content-Security-Policy in a real browser: Chromium reports every violation on
the console, and none may appear while a player and the GM use the main pages."""

import pytest
from playwright.sync_api import expect

from sheets.models import Role, System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def test_main_pages_run_without_csp_violations(page, log_in, violations):
    character = CharacterFactory(campaign__system=System.COGENT)
    skill = character.cogent.skills.get(name="Athletics")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    # A section in edit mode and back, then a skill from the folded ones (rated 0).
    page.get_by_role("link", name="Edit core skills").click()
    page.locator("#skills").get_by_role("link", name="Cancel").click()
    page.locator("#skills details.fold summary").click()
    page.locator(f"#skill-{skill.pk} .roll-button").click()
    expect(page.locator("#roll-panel .roll-panel")).to_be_visible()
    page.select_option("#roll_challenge_level", "2")
    page.locator("#roll-action-roll").click()
    expect(page.locator("#roll-result .entry")).to_be_visible()
    for url in (
        "/",
        character.campaign.get_absolute_url(),
        f"/campaigns/{character.campaign_id}/log/",
        f"/campaigns/{character.campaign_id}/stats/",
        "/account/",
    ):
        page.goto(url)
        expect(page.locator("main h1")).to_be_visible()
    # A token made on the account page (htmx swaps the section in).
    page.get_by_label("Name").fill("bot")
    page.get_by_role("button", name="Create token").click()
    expect(page.locator(".token-created")).to_be_visible()
    # The API's browsable docs: Swagger UI from our static files, under the same policy.
    page.goto("/api/v1/docs")
    expect(page.get_by_text("/api/v1/campaigns/{pk}/log")).to_be_visible()
    gm = character.campaign.memberships.get(role=Role.GM).user
    page.context.clear_cookies()
    log_in(gm)
    page.goto(f"/campaigns/{character.campaign_id}/log/")
    expect(page.locator("main h1")).to_be_visible()
    assert violations == []
