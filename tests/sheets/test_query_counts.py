"""Pinned query counts: pages must not grow a query per row (skills, characters, campaigns)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from sheets.models import Role, System
from tests.factories import CampaignFactory, CharacterFactory, InviteFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_home(client):
    member = MembershipFactory()
    client.force_login(member.user)
    small = count(client, "/")
    for _ in range(5):
        CharacterFactory(campaign=MembershipFactory(user=member.user).campaign)
    # session, its user, campaigns (with role, GM, head counts in one query), the user's own
    # characters (one query for every card)
    assert count(client, "/") == small == 4


def test_campaign_page(client):
    campaign = CampaignFactory()
    gm = campaign.memberships.get(role=Role.GM).user
    client.force_login(gm)
    small = count(client, campaign.get_absolute_url())
    for _ in range(5):
        CharacterFactory(campaign=campaign)
        InviteFactory(campaign=campaign)
    # session, its user, membership+campaign, characters, members, invites
    assert count(client, campaign.get_absolute_url()) == small == 6


def add_rows(character, n):
    system = character.campaign.system
    if system == System.COGENT:
        for _ in range(n):
            i = character.cogent.vocations.count()
            vocation = character.cogent.vocations.create(name=f"V{i}", attribute="reflex", rating=2)
            vocation.subskills.create(slot=1, kind="combat", name="Small", rating=1)
            vocation.subskills.create(slot=2, kind="vocational", name="X", attribute="reflex")
    elif system == System.DAD6:
        for _ in range(n):
            character.dad6.skills.create(
                name=f"S{character.dad6.skills.count()}", competence="expert"
            )
            character.dad6.banes.create(description="A bane")
    else:
        for skill in character.cold_stars.skills.filter(is_domain=True, domains=None)[:n]:
            skill.domains.create(name="Somewhere")


@pytest.mark.parametrize(
    ("system", "expected"), [(System.COGENT, 14), (System.DAD6, 9), (System.COLD_STARS, 9)]
)
def test_sheet_page(client, system, expected):
    # session, its user, character with its membership, sheet reload, recent rolls, the GM's
    # open calls and contests for the character (the prompts), then one query per row table (Cogent: injuries
    # and disabling characteristics too, and the assist prompts: the waiting assist, open assist
    # requests; DAD6: skills, banes). Read mode builds no form.
    character = CharacterFactory(campaign__system=system)
    client.force_login(character.owner)
    add_rows(character, 1)
    one = count(client, character.get_absolute_url())
    add_rows(character, 3)
    assert count(client, character.get_absolute_url()) == one == expected


@pytest.mark.parametrize(
    ("system", "section", "expected"),
    [
        (System.COGENT, "skills", 15),
        (System.COGENT, "vocations", 17),
        (System.DAD6, "skills", 10),
        (System.COLD_STARS, "skills", 11),
    ],
)
def test_sheet_page_with_a_section_in_edit_mode(client, system, section, expected):
    # As in read mode, plus the section's own rows read once more for its forms (the forms a
    # Save validates; Cogent vocations: the vocations and their sub-skills), and the campaign's
    # combat skills once for every vocation's add form; Cold Stars: the skills and their domains.
    character = CharacterFactory(campaign__system=system)
    client.force_login(character.owner)
    url = f"{character.get_absolute_url()}?edit={section}"
    add_rows(character, 1)
    one = count(client, url)
    add_rows(character, 3)
    assert count(client, url) == one == expected


def test_sheet_page_for_the_gm_of_a_big_campaign(client):
    campaign = CampaignFactory(system=System.COGENT)
    characters = [CharacterFactory(campaign=campaign) for _ in range(4)]
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    # no vocations: no prefetch; +2 for the GM's prompts (open calls, contests), +2 for the
    # injuries and disabling characteristics, assist prompts (the waiting assist, open assist
    # requests)
    assert count(client, characters[0].get_absolute_url()) == 13
