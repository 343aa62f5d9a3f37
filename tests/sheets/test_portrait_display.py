"""Where portraits show: the sheet's head, the GM table's cards (with no query more per card), and
the initials where a character has none; alt text where the name isn't beside the picture."""

from __future__ import annotations

import secrets

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django.asserts import assertContains, assertNotContains

from sheets.models import Role, System
from tests import portrait_files as pf
from tests.factories import CampaignFactory, CharacterFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def party(parties):
    return parties[System.COGENT]


def test_the_sheet_shows_the_portrait_beside_the_name(client, party):
    client.force_login(party.player)
    pf.post_portrait(client, party.pc, pf.picture())
    party.pc.refresh_from_db()
    response = client.get(party.pc.get_absolute_url())
    # Decorative: the heading beside it says whose it is.
    assertContains(response, f'src="{party.pc.portrait_url}" alt=""')
    assertContains(response, "Change portrait")


def test_without_a_portrait_the_initials_stand_in(client, party):
    party.pc.name = "Ada Lovelace of Ockham"
    party.pc.save()
    client.force_login(party.other_player)
    response = client.get(party.pc.get_absolute_url())
    assertContains(response, 'aria-hidden="true">AL</span>')
    # Only its editors are offered the portrait page.
    assertNotContains(response, reverse("character_portrait", args=[party.pc.pk]))


def test_the_portrait_page_names_the_picture(client, party):
    client.force_login(party.player)
    pf.post_portrait(client, party.pc, pf.picture())
    party.pc.refresh_from_db()
    response = client.get(reverse("character_portrait", args=[party.pc.pk]))
    assertContains(response, f'src="{party.pc.portrait_url}" alt="{party.pc.name}"')
    assertContains(response, 'enctype="multipart/form-data"')
    assertContains(response, "Remove the portrait")


def test_gm_table_cards_show_thumbnails(client, party):
    client.force_login(party.gm)
    for character in (party.pc, party.hidden_npc):
        pf.post_portrait(client, character, pf.picture())
        character.refresh_from_db()
    response = client.get(reverse("campaign_dashboard", args=[party.campaign.pk]))
    for character in (party.pc, party.hidden_npc):
        assertContains(response, f'src="{character.thumbnail_url}" alt=""')
        assert client.get(character.thumbnail_url).status_code == 200


def _dashboard_queries(client, campaign) -> tuple[int, bytes]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("campaign_dashboard", args=[campaign.pk]))
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content


def test_portraits_cost_the_gm_table_no_query(client):
    """The portrait's key is a column of the character's row: 1 or 10 cards with portraits cost
    what cards without them cost (tests/rolls/test_gm_dashboard.py pins the figure)."""
    campaign = CampaignFactory(system=System.DAD6)
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    CharacterFactory(campaign=campaign)
    without, _ = _dashboard_queries(client, campaign)
    for _ in range(10):
        CharacterFactory(campaign=campaign, portrait=secrets.token_urlsafe(16))
    with_portraits, content = _dashboard_queries(client, campaign)
    assert with_portraits == without
    assert content.count(b'class="portrait portrait-card"') == 10
