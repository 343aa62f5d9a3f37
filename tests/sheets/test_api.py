"""The API's campaigns and characters (api/campaigns.py): what the pages let each member read."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sheets.character_json import export_character
from sheets.models import ApiToken, Scope
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def api(user) -> Client:
    _, raw = ApiToken.issue(user, name="test", scope=Scope.READ)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def test_campaigns_are_the_users_own(party, django_assert_max_num_queries):
    CampaignFactory(name="Someone else's", gm=party.nonmember)
    client = api(party.player)
    client.get(reverse("api:me"))  # the token's first use is recorded (then once a minute)
    with django_assert_max_num_queries(3):  # the token, its count, the list
        listed = client.get(reverse("api:campaigns"))
    assert [(c["name"], c["role"]) for c in listed.json()] == [(party.campaign.name, "player")]
    detail = client.get(reverse("api:campaign", args=[party.campaign.pk])).json()
    names = [c["name"] for c in detail["characters"]]
    assert "Spy" not in names and {"Ada", "Bo", "Warden"} <= set(names)
    ada = next(c for c in detail["characters"] if c["name"] == "Ada")
    assert ada["can_roll"] and ada["can_edit"] and ada["player"] == "ana"
    bo = next(c for c in detail["characters"] if c["name"] == "Bo")
    assert not bo["can_roll"] and not bo["can_edit"]
    gm_view = api(party.gm).get(reverse("api:campaign", args=[party.campaign.pk])).json()
    spy = next(c for c in gm_view["characters"] if c["name"] == "Spy")
    assert spy["hidden_from_players"] and gm_view["role"] == "gm"
    stranger = api(party.nonmember).get(reverse("api:campaign", args=[party.campaign.pk]))
    assert stranger.status_code == 404 and api(party.nonmember).get(
        reverse("api:campaigns")
    ).json() == [c for c in api(party.nonmember).get(reverse("api:campaigns")).json()]


def test_campaign_detail_query_count_does_not_grow_with_characters(
    party, django_assert_num_queries
):
    client = api(party.gm)
    url = reverse("api:campaign", args=[party.campaign.pk])
    client.get(url)
    with django_assert_num_queries(4):  # the token, its count, the membership, characters
        client.get(url)


def test_characters_as_the_pages_allow(party):
    url = reverse("api:character", args=[party.pc.pk])
    expected = {
        "gm": 200,
        "player": 200,
        "other_player": 200,
        "observer": 200,
        "nonmember": 404,
    }
    assert {u: api(getattr(party, u)).get(url).status_code for u in expected} == expected
    body = api(party.player).get(url).json()
    assert {k: body[k] for k in export_character(party.pc)} == export_character(party.pc)
    assert body["can_roll"] and body["id"] == party.pc.pk
    spy = reverse("api:character", args=[party.hidden_npc.pk])
    assert api(party.player).get(spy).status_code == 404
    assert api(party.gm).get(spy).json()["character"]["hidden_from_players"] is True
