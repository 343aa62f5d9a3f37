"""The interactions endpoint as Discord's own endpoint check exercises it: signatures, stale
timestamps, PING, and a retried interaction."""

import json
import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from nacl.signing import SigningKey

from discord.checks import discord_settings_check
from discord.models import Interaction
from log.models import RollEntry
from tests.discord.helpers import command, post, sign, target_value
from tests.rolls.helpers import athletics

pytestmark = pytest.mark.django_db

PING = {"id": "123456789", "type": 1, "application_id": "1", "token": "t", "version": 1}


def test_ping_is_answered_with_pong(client, key):
    response = post(client, key, PING)
    assert response.status_code == 200
    assert response.json() == {"type": 1}


def test_a_bad_signature_is_refused_before_anything_is_read(client, key):
    other = SigningKey.generate()  # someone who isn't Discord
    response = post(client, other, PING)
    assert response.status_code == 401
    assert b"signature" in response.content
    # A body changed after signing: the signature no longer covers it.
    body = json.dumps(PING).encode()
    headers = sign(key, body)
    tampered = client.post(
        reverse("discord_interactions"),
        body.replace(b"123456789", b"987654321"),
        content_type="application/json",
        **headers,
    )
    assert tampered.status_code == 401


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"HTTP_X_SIGNATURE_ED25519": "zz", "HTTP_X_SIGNATURE_TIMESTAMP": "1"},
        {"HTTP_X_SIGNATURE_ED25519": "00" * 64, "HTTP_X_SIGNATURE_TIMESTAMP": "now"},
        {
            "HTTP_X_SIGNATURE_ED25519": "00" * 10,
            "HTTP_X_SIGNATURE_TIMESTAMP": str(int(time.time())),
        },
    ],
)
def test_missing_or_malformed_signatures_are_refused(client, key, headers):
    response = client.post(
        reverse("discord_interactions"),
        json.dumps(PING),
        content_type="application/json",
        **headers,
    )
    assert response.status_code == 401


def test_a_stale_timestamp_is_refused_even_with_a_good_signature(client, key):
    body = json.dumps(PING).encode()
    old = str(int(time.time()) - 3600)  # a captured request replayed an hour later
    response = client.post(
        reverse("discord_interactions"),
        body,
        content_type="application/json",
        **sign(key, body, old),
    )
    assert response.status_code == 401
    future = str(int(time.time()) + 3600)
    response = client.post(
        reverse("discord_interactions"),
        body,
        content_type="application/json",
        **sign(key, body, future),
    )
    assert response.status_code == 401


def test_a_stale_request_logs_how_far_the_clocks_disagree(client, key, caplog):
    """A server whose clock drifted refuses every interaction: the log says by how much, so the
    operator sees it's the clock (docs/discord.md: keep it synchronised with NTP)."""
    body = json.dumps(PING).encode()
    behind = str(int(time.time()) - 612)
    caplog.set_level("WARNING", logger="discord.signature")
    response = client.post(
        reverse("discord_interactions"),
        body,
        content_type="application/json",
        **sign(key, body, behind),
    )
    assert response.status_code == 401
    [logged] = [r for r in caplog.records if r.name == "discord.signature"]
    message = logged.getMessage()
    assert "stale" in message and "NTP" in message
    assert any(f"{seconds} s behind" in message for seconds in range(611, 616))
    # A forged request with an old timestamp is refused without a word in the log.
    caplog.clear()
    forged = sign(SigningKey.generate(), body, behind)
    client.post(reverse("discord_interactions"), body, content_type="application/json", **forged)
    assert not [r for r in caplog.records if r.name == "discord.signature"]


def test_signed_nonsense_is_a_readable_400(client, key):
    body = b"not json"
    response = client.post(
        reverse("discord_interactions"), body, content_type="application/json", **sign(key, body)
    )
    assert response.status_code == 400 and b"JSON" in response.content
    assert post(client, key, ["a", "list"]).status_code == 400
    assert post(client, key, {"type": 1}).status_code == 400  # no id


def test_only_post(client, key):
    assert client.get(reverse("discord_interactions")).status_code == 405


def test_without_settings_the_endpoint_says_what_to_set(client, settings):
    settings.DISCORD_PUBLIC_KEY = ""
    response = client.post(reverse("discord_interactions"), b"{}", content_type="application/json")
    assert response.status_code == 503
    assert b"DISCORD_PUBLIC_KEY" in response.content


def test_the_system_check_names_what_is_missing_or_wrong(settings):
    settings.DISCORD_PUBLIC_KEY = "not a key"
    settings.DISCORD_APPLICATION_ID = ""
    settings.DISCORD_BOT_TOKEN = ""
    found = {message.id: message.msg for message in discord_settings_check()}
    assert set(found) == {"discord.E001", "discord.W001"}
    assert "DISCORD_APPLICATION_ID" in found["discord.W001"]
    settings.DISCORD_PUBLIC_KEY = ""
    assert discord_settings_check() == []  # none set: Discord is optional


def test_a_retried_interaction_never_rolls_twice(client, key, table):
    party = table.party
    sent = command(
        table.id("player"),
        "roll",
        target=target_value(party.pc, "cogent-skill", athletics(party.pc)),
    )
    first = post(client, key, sent)
    assert first.status_code == 200 and first.json()["type"] == 4
    assert RollEntry.objects.count() == 1
    again = post(client, key, sent)  # Discord sends the same interaction again
    assert again.json() == first.json()
    assert RollEntry.objects.count() == 1
    assert Interaction.objects.filter(interaction=sent["id"]).count() == 1


def test_interactions_are_remembered_for_a_day(client, key, table):
    old = Interaction.objects.create(interaction="1", answer={"type": 4})
    Interaction.objects.filter(pk=old.pk).update(received_at=timezone.now() - timedelta(days=2))
    post(client, key, command(table.id("player"), "poolside", "link"))
    assert not Interaction.objects.filter(pk="1").exists()
    assert Interaction.objects.count() == 1
