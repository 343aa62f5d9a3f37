"""The view check can't be reset or silenced by the server (docs/verifiable-dice.md#your-view-of-
the-log): a head is kept per role, an answer in another role is still folded and its signature
checked (and the change said on the page), and a check the server refuses after this browser
has kept a record is said too, never silence."""

import json

import pytest
from playwright.sync_api import expect

from proofs.protocol import view_step
from sheets.models import Membership, Role
from tests.factories import CharacterFactory
from tests.rolls.helpers import append

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def open_log(page, character) -> None:
    page.goto(f"/campaigns/{character.campaign_id}/log/")


def checked_once(page, log_in, character):
    append(character, 3)
    log_in(character.owner)
    open_log(page, character)
    expect(page.locator("#view-check")).to_contain_text("✓ verified")


def answer_as_gm(rewrite: bool):
    """A server that says the member is now the GM, so that the browser starts a new record
    (and, ``rewrite``, whose newest item was rewritten, the head's hash made to match)."""

    def handle(route):
        response = route.fetch()
        body = response.json()
        body["role"] = "gm"
        if rewrite and body["items"]:
            body["items"][-1]["detail"] = "rewritten"
            running = body["start"]["hash"]
            for item in body["items"]:
                running = view_step(running, item)
            body["head"]["hash"] = running
        route.fulfill(response=response, body=json.dumps(body))

    return handle


@pytest.mark.parametrize("rewrite", [True, False])
def test_an_answer_that_claims_another_role_is_still_checked(page, log_in, rewrite):
    character = CharacterFactory()
    checked_once(page, log_in, character)
    page.route("**/log/view/**", answer_as_gm(rewrite))
    open_log(page, character)
    # The view answered as the GM's is signed over role "member": its signature doesn't hold.
    alarm = page.locator("#view-alarm")
    expect(alarm).to_be_visible()
    expect(alarm).to_contain_text("The server's signature on your view of this log doesn't match")
    expect(page.locator("#view-check")).to_be_hidden()


def test_a_real_role_change_is_said_and_each_roles_record_is_kept(page, log_in):
    character = CharacterFactory()
    checked_once(page, log_in, character)
    membership = Membership.objects.get(user=character.owner, campaign=character.campaign)
    gm = Membership.objects.get(campaign=character.campaign, role=Role.GM)
    Membership.objects.filter(pk=gm.pk).update(role=Role.PLAYER)  # one GM a campaign
    Membership.objects.filter(pk=membership.pk).update(role=Role.GM)
    open_log(page, character)
    check = page.locator("#view-check")
    expect(check).to_contain_text("verified as the GM (your role changed)")
    expect(check).to_contain_text("The record of your view as a member is kept too")
    Membership.objects.filter(pk=membership.pk).update(role=membership.role)
    Membership.objects.filter(pk=gm.pk).update(role=Role.GM)
    append(character, 1)
    open_log(page, character)
    # Back as a member: checked against the member's own record, kept all along.
    expect(check).to_contain_text("verified as a member (your role changed)")
    expect(check).to_contain_text("still holds everything this browser saw before")


def test_a_check_the_server_refuses_after_a_record_exists_is_said(page, log_in):
    character = CharacterFactory()
    checked_once(page, log_in, character)
    page.route("**/log/view/**", lambda route: route.fulfill(status=503, body="busy"))
    open_log(page, character)
    alarm = page.locator("#view-alarm")
    expect(alarm).to_be_visible()
    expect(alarm).to_contain_text("Couldn't check your history")
    expect(alarm).to_contain_text("the server answered 503")
    expect(alarm).to_contain_text("(3 entries)")
