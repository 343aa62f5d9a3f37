from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from sheets.models import Membership, Role
from tests.factories import InviteFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def join(client, invite, user=None):
    client.force_login(user or UserFactory())
    return client.post(reverse("invite_accept", args=[invite.token]))


def test_token_is_long_and_unique():
    a, b = InviteFactory(), InviteFactory()
    assert a.token != b.token
    assert len(a.token) >= 40


def test_joining_adds_the_role_and_counts_the_use(client):
    invite = InviteFactory(role=Role.OBSERVER, max_uses=2)
    user = UserFactory()
    response = join(client, invite, user)
    assert response.status_code == 302
    assert response["Location"] == invite.campaign.get_absolute_url()
    assert Membership.objects.get(campaign=invite.campaign, user=user).role == Role.OBSERVER
    invite.refresh_from_db()
    assert invite.use_count == 1


def test_get_shows_the_campaign_and_role_without_joining(client):
    invite = InviteFactory()
    client.force_login(UserFactory())
    response = client.get(reverse("invite_accept", args=[invite.token]))
    assert response.status_code == 200
    assert invite.campaign.name in response.content.decode()
    assert invite.campaign.memberships.count() == 1


def test_anonymous_visitor_is_asked_to_log_in_and_comes_back(client):
    invite = InviteFactory()
    response = client.get(reverse("invite_accept", args=[invite.token]))
    assert response.status_code == 200
    assert "Log in to join" in response.content.decode()
    response = client.post(reverse("invite_accept", args=[invite.token]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert invite.token in response["Location"]


def test_signup_through_an_invite_returns_to_it(client):
    invite = InviteFactory()
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "email": "n@example.com",
            "password1": "a-long-pass-123",
            "password2": "a-long-pass-123",
            "next": invite.get_absolute_url(),
        },
    )
    assert response.status_code == 302
    assert response["Location"] == invite.get_absolute_url()


def test_revoked(client):
    invite = InviteFactory()
    invite.revoke()
    response = join(client, invite)
    assert response.status_code == 410
    assert "revoked" in response.content.decode()
    assert invite.campaign.memberships.count() == 1


def test_expired(client):
    invite = InviteFactory(expires_at=timezone.now() - timedelta(seconds=1))
    response = join(client, invite)
    assert response.status_code == 410
    assert "expired" in response.content.decode()


def test_not_yet_expired(client):
    invite = InviteFactory(expires_at=timezone.now() + timedelta(hours=1))
    assert join(client, invite).status_code == 302


def test_used_up(client):
    invite = InviteFactory(max_uses=1)
    assert join(client, invite).status_code == 302
    response = join(client, invite)
    assert response.status_code == 410
    assert "used up" in response.content.decode()
    assert invite.campaign.memberships.count() == 2


def test_already_a_member_keeps_their_role_and_the_use(client):
    invite = InviteFactory(role=Role.OBSERVER, max_uses=1)
    member = MembershipFactory(campaign=invite.campaign, role=Role.PLAYER)
    response = join(client, invite, member.user)
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.role == Role.PLAYER
    invite.refresh_from_db()
    assert invite.use_count == 0


def test_the_gm_following_their_own_link_stays_gm(client):
    invite = InviteFactory()
    gm = invite.campaign.memberships.get(role=Role.GM).user
    assert join(client, invite, gm).status_code == 302
    assert invite.campaign.memberships.get(user=gm).role == Role.GM


def test_unknown_token_is_404(client):
    client.force_login(UserFactory())
    assert client.get(reverse("invite_accept", args=["nope"])).status_code == 404


def test_gm_creates_an_invite_with_expiry_and_limit(client):
    invite = InviteFactory()
    campaign = invite.campaign
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    response = client.post(
        reverse("invite_create", args=[campaign.pk]),
        {"role": "observer", "expires_in": "7", "max_uses": "3"},
    )
    assert response.status_code == 302
    new = campaign.invites.exclude(pk=invite.pk).get()
    assert (new.role, new.max_uses) == ("observer", 3)
    assert timedelta(days=6, hours=23) < new.expires_at - timezone.now() <= timedelta(days=7)


def test_invite_create_with_htmx_returns_the_invites_partial(client):
    invite = InviteFactory()
    campaign = invite.campaign
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    response = client.post(
        reverse("invite_create", args=[campaign.pk]),
        {"role": "player"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="invites"')
    assert "<html" not in html
    bad = client.post(
        reverse("invite_create", args=[campaign.pk]),
        {"role": "player", "max_uses": "0"},
        headers={"HX-Request": "true"},
    )
    assert bad.status_code == 200
    assert "greater than or equal to 1" in bad.content.decode()


def test_the_invite_pages_header_links_carry_the_invite(client):
    invite = InviteFactory()
    html = client.get(invite.get_absolute_url()).content.decode()
    nav = html.split('<nav aria-label="Main">')[1].split("</nav>")[0]
    for name in ("login", "signup"):
        assert f'href="{reverse(name)}?next=/invite/{invite.token}/"' in nav


def test_the_signup_pages_log_in_link_keeps_the_invite(client):
    invite = InviteFactory()
    html = client.get(reverse("signup"), {"next": invite.get_absolute_url()}).content.decode()
    assert f'href="{reverse("login")}?next=/invite/{invite.token}/"' in html


def signup(client, name="newbie", **extra):
    data = {"username": name, "email": f"{name}@example.com", "password1": "a-long-pass-123"}
    return client.post(reverse("signup"), {**data, "password2": data["password1"], **extra})


def test_a_lost_next_still_leads_back_to_the_invite_from_home(client):
    """Signed up without ?next= (a typed address, a password reset): the home page offers the
    invite this browser opened, and its button joins."""
    invite = InviteFactory(role=Role.PLAYER)
    client.get(invite.get_absolute_url())
    assert signup(client)["Location"] == reverse("home")
    html = client.get(reverse("home")).content.decode()
    assert f"Finish joining “{invite.campaign.name}”" in html
    assert f'action="{invite.get_absolute_url()}"' in html
    response = client.post(invite.get_absolute_url())
    assert response["Location"] == invite.campaign.get_absolute_url()
    assert "Finish joining" not in client.get(reverse("home")).content.decode()


def test_home_forgets_an_invite_that_cannot_be_used_any_more(client):
    invite = InviteFactory()
    client.get(invite.get_absolute_url())
    invite.revoke()
    signup(client)
    assert "Finish joining" not in client.get(reverse("home")).content.decode()
    assert "pending_invite" not in client.session


def test_home_offers_no_invite_to_someone_who_never_opened_one(client):
    InviteFactory()
    client.force_login(UserFactory())
    assert "Finish joining" not in client.get(reverse("home")).content.decode()


def test_after_joining_the_campaign_page_leads_to_creating_a_character(client):
    invite = InviteFactory(role=Role.PLAYER)
    user = UserFactory()
    response = join(client, invite, user)
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "Next, create your character." in html
    create = reverse("character_create", args=[invite.campaign.pk])
    assert f'<a class="button" href="{create}">Create your character</a>' in html


def test_the_next_step_goes_once_the_player_has_a_character(client):
    from tests.factories import CharacterFactory

    invite = InviteFactory(role=Role.PLAYER)
    user = UserFactory()
    join(client, invite, user)
    CharacterFactory(campaign=invite.campaign, owner=user)
    html = client.get(invite.campaign.get_absolute_url()).content.decode()
    assert "Create your character" not in html


def test_an_observer_is_not_asked_for_a_character(client):
    invite = InviteFactory(role=Role.OBSERVER)
    response = join(client, invite)
    html = client.get(response["Location"]).content.decode()
    assert "Create your character" not in html
    assert "Next, create" not in html


def test_the_gm_sees_a_copy_button_for_each_usable_link(client):
    invite = InviteFactory()
    revoked = InviteFactory(campaign=invite.campaign)
    revoked.revoke()
    client.force_login(invite.campaign.memberships.get(role=Role.GM).user)
    html = client.get(invite.campaign.get_absolute_url()).content.decode()
    assert f'data-copy="invite-link-{invite.pk}" hidden' in html
    assert f'data-copy="invite-link-{revoked.pk}"' not in html
