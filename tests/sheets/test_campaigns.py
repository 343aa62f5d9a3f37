import pytest
from django.core import mail
from django.urls import reverse

from sheets.models import Campaign, Membership, Role, System
from tests.factories import (
    PASSWORD,
    CampaignFactory,
    CharacterFactory,
    MembershipFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_creator_becomes_gm(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("campaign_create"), {"name": "Belt", "description": "", "system": "cold_stars"}
    )
    campaign = Campaign.objects.get(name="Belt")
    assert response["Location"] == campaign.get_absolute_url()
    assert campaign.memberships.get().user == user and campaign.memberships.get().role == Role.GM


def test_invalid_campaign_shows_errors(client):
    client.force_login(UserFactory())
    response = client.post(reverse("campaign_create"), {"name": "", "system": "chess"})
    assert response.status_code == 400
    assert not Campaign.objects.exists()


def test_system_cannot_change_through_a_crafted_post(client):
    character = CharacterFactory(campaign__system=System.COGENT)
    campaign = character.campaign
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    client.post(reverse("campaign_edit", args=[campaign.pk]), {"name": "New", "system": "dad6"})
    campaign.refresh_from_db()
    assert (campaign.name, campaign.system) == ("New", "cogent")


def test_hand_gm_role_over_moves_npcs(client):
    campaign = CampaignFactory()
    gm = campaign.memberships.get().user
    npc = campaign.new_character(owner=gm, name="Villain", is_npc=True, hidden_from_players=True)
    heir = MembershipFactory(campaign=campaign)
    client.force_login(gm)
    client.post(reverse("member_make_gm", args=[campaign.pk, heir.pk]))
    roles = dict(campaign.memberships.values_list("user", "role"))
    assert roles == {gm.pk: Role.PLAYER, heir.user.pk: Role.GM}
    npc.refresh_from_db()
    assert npc.owner == heir.user
    # The old GM no longer sees the hidden NPC.
    assert client.get(npc.get_absolute_url()).status_code == 404


def test_gm_cannot_remove_themselves_or_leave(client):
    campaign = CampaignFactory()
    gm = campaign.memberships.get()
    client.force_login(gm.user)
    assert client.post(reverse("member_remove", args=[campaign.pk, gm.pk])).status_code == 403
    assert client.post(reverse("campaign_leave", args=[campaign.pk])).status_code == 403
    assert Membership.objects.filter(pk=gm.pk).exists()


def test_removed_member_loses_access_but_characters_stay(client):
    character = CharacterFactory()
    campaign = character.campaign
    member = campaign.memberships.get(user=character.owner)
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    client.post(reverse("member_remove", args=[campaign.pk, member.pk]))
    client.force_login(character.owner)
    assert client.get(campaign.get_absolute_url()).status_code == 404
    assert client.get(character.get_absolute_url()).status_code == 404
    assert campaign.characters.filter(pk=character.pk).exists()


def test_member_leaves(client):
    member = MembershipFactory()
    client.force_login(member.user)
    assert client.post(reverse("campaign_leave", args=[member.campaign.pk]))["Location"] == "/"
    assert not Membership.objects.filter(pk=member.pk).exists()


def test_a_user_in_many_campaigns_with_different_roles(client):
    user = UserFactory()
    gm_of = CampaignFactory(gm=user, name="A")
    MembershipFactory(user=user, role=Role.PLAYER, campaign__name="B")
    MembershipFactory(user=user, role=Role.OBSERVER, campaign__name="C")
    client.force_login(user)
    campaigns = list(client.get("/").context["campaigns"])
    assert [(c.name, c.my_role) for c in campaigns] == [
        ("A", "gm"),
        ("B", "player"),
        ("C", "observer"),
    ]
    assert campaigns[0].gm_name == user.username and gm_of.pk == campaigns[0].pk


# Accounts ------------------------------------------------------------------------------------


def test_signup_logs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "neo",
            "email": "neo@example.com",
            "password1": "a-long-pass-123",
            "password2": "a-long-pass-123",
        },
    )
    assert response["Location"] == "/"
    assert client.get("/").context["user"].username == "neo"


def test_login_logout(client):
    user = UserFactory()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == user
    assert client.post(reverse("logout")).status_code == 302
    assert not client.get("/").context["user"].is_authenticated


def test_password_change(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "n3w-passw0rd!",
            "new_password2": "n3w-passw0rd!",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("n3w-passw0rd!")


def test_password_reset_sends_a_working_link(client):
    user = UserFactory(email="me@example.com")
    response = client.post(reverse("password_reset"), {"email": "me@example.com"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your Poolside password"
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line)
    path = link.split("testserver", 1)[1]
    response = client.get(path, follow=True)
    assert response.context["validlink"]
    response = client.post(
        response.redirect_chain[-1][0],
        {"new_password1": "fresh-pass-99", "new_password2": "fresh-pass-99"},
    )
    assert response["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password("fresh-pass-99")


def test_home_cards_and_the_campaign_page_name_your_character(client):
    from tests.factories import CharacterFactory, MembershipFactory

    member = MembershipFactory()
    mine = CharacterFactory(campaign=member.campaign, owner=member.user, name="Ada")
    other = CharacterFactory(campaign=member.campaign, name="Bo")
    client.force_login(member.user)
    home = client.get("/").content.decode()
    assert f'Your character: <a href="{mine.get_absolute_url()}">Ada</a>' in home
    assert other.get_absolute_url() not in home
    page = client.get(member.campaign.get_absolute_url()).content.decode()
    row = page.split(f'href="{mine.get_absolute_url()}"')[1].split("</tr>")[0]
    assert '<span class="tag accent">yours</span>' in row
    assert "yours" not in page.split(f'href="{other.get_absolute_url()}"')[1].split("</tr>")[0]
