"""Issue 48 item 6: a Cold Stars character imported without Momentum and Willpower maxima gets
the campaign's defaults (a GM setting), not the blank sheet's 0 — on which a first Press spends a
Risk die and gains nothing. The import page says so (docs/character-json.md)."""

import json

import pytest
from django.urls import reverse

from sheets.models import Role, System
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def stars():
    """A Cold Stars campaign whose GM set the defaults to 4 Momentum and 2 Willpower."""
    campaign = CampaignFactory(
        system=System.COLD_STARS, momentum_max_default=4, willpower_max_default=2
    )
    gm = campaign.memberships.get(role=Role.GM).user
    player = MembershipFactory(campaign=campaign, role=Role.PLAYER).user
    return campaign, gm, player


def _import(client, user, campaign, sheet):
    client.force_login(user)
    data = {
        "format": "poolside-character",
        "version": 1,
        "system": System.COLD_STARS,
        "character": {"name": "Nova"},
        "sheet": sheet,
    }
    url = reverse("character_import", args=[campaign.pk])
    response = client.post(url, {"text": json.dumps(data)})
    assert response.status_code == 302, response.content[:800]
    return campaign.characters.get(name="Nova").cold_stars


@pytest.mark.parametrize("who", ["gm", "player"])
def test_an_import_without_maxima_gets_the_campaigns_defaults(client, stars, who):
    campaign, gm, player = stars
    sheet = _import(client, gm if who == "gm" else player, campaign, {"agility": 3, "momentum": 1})
    assert (sheet.momentum_max, sheet.willpower_max, sheet.momentum) == (4, 2, 1)


def test_the_gms_import_with_maxima_keeps_them(client, stars):
    campaign, gm, _ = stars
    sheet = _import(client, gm, campaign, {"momentum_max": 7, "willpower_max": 0})
    assert (sheet.momentum_max, sheet.willpower_max) == (7, 0)


def test_a_first_press_after_the_import_gains_momentum(client, stars):
    campaign, _, player = stars
    sheet = _import(client, player, campaign, {"agility": 3})
    skill = next(s for s in sheet.skills.order_by("pk") if not s.needs_domain)
    url = reverse("roll_create", args=[sheet.pk, "cold-stars-skill", skill.pk])
    response = client.post(
        url, {"ability": "agility", "risk": 0, "modification": "press", "action": "roll"}
    )
    assert response.status_code == 302, response.content[:800]
    sheet.refresh_from_db()
    assert sheet.momentum == 1


@pytest.mark.parametrize("who", ["gm", "player"])
def test_the_import_page_says_so(client, stars, who):
    campaign, gm, player = stars
    client.force_login(gm if who == "gm" else player)
    page = client.get(reverse("character_import", args=[campaign.pk])).content.decode()
    assert "gets this campaign's defaults: Momentum 4, Willpower 2" in page


def test_the_gm_edits_the_defaults_in_the_campaigns_settings(client, stars):
    campaign, gm, player = stars
    client.force_login(gm)
    url = reverse("campaign_edit", args=[campaign.pk])
    base = {"name": campaign.name, "description": "", "system": System.COLD_STARS}
    bad = client.post(url, base | {"momentum_max_default": 21, "willpower_max_default": 2})
    assert bad.status_code == 400
    assert "less than or equal to 20" in bad.content.decode()
    good = client.post(url, base | {"momentum_max_default": 6, "willpower_max_default": 5})
    assert good.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.momentum_max_default, campaign.willpower_max_default) == (6, 5)
    client.force_login(player)
    assert client.post(url, base | {"momentum_max_default": 1}).status_code == 403


def test_other_systems_have_no_such_setting(client):
    campaign = CampaignFactory(system=System.COGENT)
    client.force_login(campaign.memberships.get(role=Role.GM).user)
    page = client.get(reverse("campaign_edit", args=[campaign.pk])).content.decode()
    assert "momentum_max_default" not in page
