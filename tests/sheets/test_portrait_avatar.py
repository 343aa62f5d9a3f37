"""A roll posted to Discord carries its character's portrait as the webhook's avatar_url
(docs/portraits.md, docs/webhooks.md): an address Discord can fetch without a login, by a token
this site signed, naming the current portrait of a character every member may see."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from rolls.models import WebhookDelivery
from rolls.webhooks.delivery import request_for
from sheets.models import System
from tests import portrait_files as pf
from tests.factories import RollEntryFactory, WebhookFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def party(parties):
    return parties[System.COGENT]


def posted(party, character):
    """A public roll of ``character`` as the Discord webhook would post it."""
    webhook = WebhookFactory(campaign=party.campaign, format="discord")
    entry = RollEntryFactory(character=character)
    delivery = WebhookDelivery.objects.create(webhook=webhook, entry=entry)
    return json.loads(request_for(webhook, delivery)[0])


def test_a_roll_goes_out_with_its_characters_portrait(client, party, settings):
    settings.SITE_URL = "https://poolside.example"
    assert "avatar_url" not in posted(party, party.pc)  # no portrait yet: Discord's default
    client.force_login(party.player)
    assert pf.post_portrait(client, party.pc, pf.picture()).status_code == 302
    message = posted(party, party.pc)
    avatar = message["avatar_url"]
    assert avatar.startswith("https://poolside.example/portraits/")
    client.logout()  # Discord has no login
    path = avatar.removeprefix("https://poolside.example")
    response = client.get(path)
    assert response.status_code == 200 and response["Content-Type"] == "image/webp"
    # A token the site didn't sign, or another character's made up, is nothing.
    assert client.get(path.replace("/avatar.webp", "x/avatar.webp")).status_code == 404
    forged = reverse("portrait_avatar", args=[f'[{party.pc.pk},"x"]'])
    assert client.get(forged).status_code == 404
    # A new portrait retires the old address.
    client.force_login(party.player)
    assert pf.post_portrait(client, party.pc, pf.picture(color=(0, 0, 255))).status_code == 302
    client.logout()
    assert client.get(path).status_code == 404
    assert client.get(posted(party, party.pc)["avatar_url"].split(".example")[1]).status_code == 200


def test_a_hidden_npcs_portrait_never_leaves(client, party):
    client.force_login(party.gm)
    assert pf.post_portrait(client, party.hidden_npc, pf.picture()).status_code == 302
    party.hidden_npc.refresh_from_db()
    client.logout()
    # A revealed roll of the hidden NPC is sent; its portrait is not.
    assert "avatar_url" not in posted(party, party.hidden_npc)
    from sheets.portraits import avatar_token

    token = avatar_token(party.hidden_npc.pk, party.hidden_npc.portrait)
    assert client.get(reverse("portrait_avatar", args=[token])).status_code == 404
