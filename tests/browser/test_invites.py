"""The way in through an invite, in the browser, at both sizes and without JavaScript: every way
from an invite to an account comes back to it, joining leads to creating a character, and the
GM copies a link with one click."""

import pytest
from playwright.sync_api import expect

from sheets.models import Role
from tests.factories import InviteFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])


def sign_up_from_the_header(page, invite, name):
    page.goto(invite.get_absolute_url())
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Sign up").click()
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.com")
    page.fill("#id_password1", "a-long-pass-123")
    page.fill("#id_password2", "a-long-pass-123")
    page.get_by_role("button", name="Create account").click()


def join_and_create(page, invite):
    page.wait_for_url(f"**{invite.get_absolute_url()}")
    page.get_by_role("button", name="Join as player").click()
    page.wait_for_url(f"**{invite.campaign.get_absolute_url()}")
    expect(page.get_by_role("status")).to_contain_text("Next, create your character.")
    create = page.get_by_role("link", name="Create your character")
    expect(create).to_be_in_viewport()
    create.click()
    page.wait_for_url("**/characters/new/")


@VIEWPORTS
def test_the_headers_sign_up_comes_back_to_the_invite(page, viewport, violations):
    invite = InviteFactory(role=Role.PLAYER)
    page.set_viewport_size(viewport)
    sign_up_from_the_header(page, invite, "newbie")
    join_and_create(page, invite)
    assert invite.campaign.memberships.filter(user__username="newbie").exists()
    assert violations == []


def test_without_javascript_the_way_in_is_the_same(browser, live_server):
    invite = InviteFactory(role=Role.PLAYER)
    context = browser.new_context(
        base_url=live_server.url, java_script_enabled=False, viewport=PHONE
    )
    page = context.new_page()
    try:
        page.goto(invite.get_absolute_url())
        page.get_by_role("link", name="Log in to join").click()
        page.get_by_role("link", name="Create an account").click()  # changed their mind
        page.fill("#id_username", "nojs")
        page.fill("#id_email", "nojs@example.com")
        page.fill("#id_password1", "a-long-pass-123")
        page.fill("#id_password2", "a-long-pass-123")
        page.get_by_role("button", name="Create account").click()
        join_and_create(page, invite)
        expect(page.get_by_role("button", name="Copy")).to_have_count(0)
    finally:
        context.close()


def test_a_lost_way_back_is_offered_on_home(page):
    """Signed up from the landing page's own button after opening the invite (the link's ?next=
    is gone): home offers to finish joining."""
    invite = InviteFactory(role=Role.PLAYER)
    page.goto(invite.get_absolute_url())
    page.goto("/accounts/signup/")
    page.fill("#id_username", "wanderer")
    page.fill("#id_email", "w@example.com")
    page.fill("#id_password1", "a-long-pass-123")
    page.fill("#id_password2", "a-long-pass-123")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url("**/")
    heading = page.get_by_role("heading", name=f"Finish joining “{invite.campaign.name}”")
    expect(heading).to_be_in_viewport()
    page.get_by_role("button", name="Join as player").click()
    page.wait_for_url(f"**{invite.campaign.get_absolute_url()}")
    expect(page.get_by_role("link", name="Create your character")).to_be_visible()


@VIEWPORTS
def test_the_gm_copies_an_invite_link(browser, live_server, viewport):
    invite = InviteFactory()
    gm = invite.campaign.memberships.get(role=Role.GM).user
    gm.set_password("pw")
    gm.save()
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        page.goto("/accounts/login/")
        page.fill("#id_username", gm.username)
        page.fill("#id_password", "pw")
        page.click("main button[type=submit]")
        page.goto(invite.campaign.get_absolute_url())
        copy = page.locator(f"button[data-copy='invite-link-{invite.pk}']")
        expect(copy).to_have_accessible_name("Copy invite link 1")
        copy.click()
        expect(copy).to_have_text("Copied invite link 1")
        assert page.evaluate("navigator.clipboard.readText()") == (
            live_server.url + invite.get_absolute_url()
        )
        # The button sits beside its link, inside the table's cell, on a phone too.
        field = page.get_by_label("Invite link 1").bounding_box()
        button = copy.bounding_box()
        assert abs(field["y"] - button["y"]) < field["height"]
        assert button["x"] + button["width"] <= viewport["width"]
    finally:
        context.close()
