"""A session's recap (docs/sessions.md#recaps): Markdown for each member as the log shows them the
session, posted by the GM to the webhooks as every member may read it."""

import json

import pytest
from django.urls import reverse

from log.models import Visibility
from rolls.models import WebhookDelivery
from rolls.sessions import actions
from rolls.webhooks.delivery import request_for
from tests.factories import WebhookFactory
from tests.rolls.helpers import append

pytestmark = pytest.mark.django_db


def played(party):
    """Session 1, "The *heist*": a roll before the first scene, a scene with a public roll and
    a blind roll of ana's, then ended; and a roll after it, outside every session."""
    gm, campaign = party.gm, party.campaign
    append(party.pc)  # before the session: never in its recap
    actions.start_session(gm, campaign, "The *heist*")
    append(party.pc, label="Opening move")
    actions.mark_scene(gm, campaign, "The docks")
    append(party.other_pc, label="Swim")
    append(party.pc, label="Sneak", visibility=Visibility.BLIND, roller=party.player)
    actions.end_session(gm, campaign)
    append(party.pc, label="Afterwards")


def recap(client, campaign, number=1):
    return client.get(reverse("session_recap", args=[campaign.pk, number]))


def test_the_recap_is_the_session_as_the_member_knows_it(client, party):
    played(party)
    client.force_login(party.player)  # ana: her blind roll is a placeholder to her
    response = recap(client, party.campaign)
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"].endswith('-session-1.md"')
    text = response.content.decode()
    lines = text.splitlines()
    assert lines[0] == "# Session 1: The \\*heist\\*"  # the title as typed, not as emphasis
    assert "## Scene 1: The docks" in lines
    assert lines.index("## Scene 1: The docks") > next(
        i for i, line in enumerate(lines) if "Opening move" in line
    )
    assert any("**Bo** · Swim: **Success**" in line for line in lines)
    sneak = next(line for line in lines if "Sneak" in line)
    assert "a hidden roll was made; only the GM sees it" in sneak and "dice" not in sneak
    assert "Afterwards" not in text and "Skill 0" not in text  # outside the session
    # Bo's player never knew of ana's blind roll: not even its line.
    client.force_login(party.other_player)
    assert "Sneak" not in recap(client, party.campaign).content.decode()
    client.force_login(party.gm)
    assert "Sneak: **Success**" in recap(client, party.campaign).content.decode()


def test_who_reads_and_who_posts_a_recap(client, party):
    played(party)
    campaign = party.campaign
    post_url = reverse("session_recap_post", args=[campaign.pk, 1])
    client.force_login(party.nonmember)
    assert recap(client, campaign).status_code == 404
    assert client.post(post_url).status_code == 404
    for member in (party.observer, party.player):
        client.force_login(member)
        assert recap(client, campaign).status_code == 200
        assert client.post(post_url).status_code == 403
        assert client.get(post_url).status_code == 405
    client.force_login(party.gm)
    assert recap(client, campaign, 2).status_code == 404  # no such session
    response = client.post(post_url)  # no webhook: said so, nothing queued
    assert response.status_code == 302 and response["Location"].endswith("?session=1")
    page = client.get(response["Location"]).content.decode()
    assert "no active webhook to post the recap to" in page
    assert not WebhookDelivery.objects.exists()


def test_the_posted_recap_holds_only_what_every_member_may_read(client, party, settings):
    played(party)
    discord = WebhookFactory(campaign=party.campaign, format="discord")
    signed = WebhookFactory(campaign=party.campaign)
    client.force_login(party.gm)
    page = client.get(reverse("campaign_log", args=[party.campaign.pk]), {"session": 1})
    assert "Post it to the webhooks" in page.content.decode()
    table = client.get(reverse("campaign_dashboard", args=[party.campaign.pk])).content.decode()
    post_url = reverse("session_recap_post", args=[party.campaign.pk, 1])
    assert f'action="{post_url}"' in table  # the session just ended: its recap from the bar
    client.post(reverse("session_recap_post", args=[party.campaign.pk, 1]))
    deliveries = {d.webhook_id: d for d in WebhookDelivery.objects.filter(recap=1)}
    assert set(deliveries) == {discord.pk, signed.pk}

    body, _ = request_for(discord, deliveries[discord.pk])
    (embed,) = json.loads(body)["embeds"]
    assert embed["title"] == "Recap: Session 1: The \\*heist\\*"
    assert embed["url"].endswith(f"/campaigns/{party.campaign.pk}/log/?session=1")
    assert "**Scene 1: The docks**" in embed["description"]  # no headings in an embed
    assert "Swim" in embed["description"] and "Sneak" not in embed["description"]
    # The GM's webhooks page lists it as what it is.
    listed = client.get(reverse("campaign_webhooks", args=[party.campaign.pk])).content.decode()
    assert listed.count("Recap of Session 1</a>") == 2
    body, headers = request_for(signed, deliveries[signed.pk])
    payload = json.loads(body)
    assert payload["event"] == "recap" and payload["session"]["number"] == 1
    assert "Sneak" not in payload["markdown"]
    assert any("signature" in str(h).lower() for h in headers)


def test_a_long_recap_fits_in_one_discord_embed(party):
    actions.start_session(party.gm, party.campaign, "Marathon")
    append(party.pc, 300, label="A rather long label for a roll " * 3)
    webhook = WebhookFactory(campaign=party.campaign, format="discord")
    from rolls.webhooks.delivery import queue_recap

    (delivery,) = queue_recap(party.campaign.pk, 1)
    (embed,) = json.loads(request_for(webhook, delivery)[0])["embeds"]
    assert len(embed["description"]) <= 4096
    assert embed["description"].endswith("… the rest is in the log.")
    total = len(embed["title"]) + len(embed["description"]) + len(embed["footer"]["text"])
    assert total <= 6000
