"""An outside witness (docs/verifiable-dice.md#an-outside-witness): the log's signed fingerprint,
posted to the webhooks when a session ends and on demand, telling the channel nothing of the log,
and ``verify_log --witness`` holding the log to it."""

import hashlib
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from log.models import LogHead, Visibility
from log.models.keys import published_keys, server_key
from proofs.protocol import head_message
from proofs.witness import Witness
from rolls.models import WebhookDelivery, WebhookFormat
from rolls.sessions import actions
from rolls.webhooks.delivery import queue_witness, request_for
from tests.factories import CampaignFactory, WebhookFactory
from tests.rolls.helpers import append, tamper
from tests.rolls.helpers import verify_log as verify
from tests.rolls.receiver import deliver

pytestmark = pytest.mark.django_db


def witnesses(**filters):
    return WebhookDelivery.objects.filter(witness__isnull=False, **filters)


def head_of(campaign):
    return LogHead.objects.get(campaign_id=campaign.pk)


def token_now(campaign) -> str:
    """The fingerprint the page would post now, as the GM keeps it (with its salt)."""
    (delivery,) = queue_witness(campaign.pk)
    return delivery.witness_token.gm_copy


# --- queued when a session ends ------------------------------------------------------------


def test_ending_a_session_posts_the_head_it_ended_on_to_the_webhooks_that_want_it(
    party, django_capture_on_commit_callbacks
):
    wants = WebhookFactory(campaign=party.campaign, format=WebhookFormat.DISCORD)
    also = WebhookFactory(campaign=party.campaign)
    WebhookFactory(campaign=party.campaign, witness_sessions=False)
    actions.start_session(party.gm, party.campaign, "The heist")
    append(party.pc, label="Sneak", visibility=Visibility.SECRET)
    with django_capture_on_commit_callbacks(execute=True):
        marker = actions.end_session(party.gm, party.campaign)
    head = head_of(party.campaign)
    assert (head.length, head.hash) == (marker.seq, marker.hash)  # the end marker's own head
    assert {d.webhook_id for d in witnesses()} == {wants.pk, also.pk}
    for delivery in witnesses():
        assert delivery.witness | {"at": "", "salt": "", "token_signature": ""} == {
            "campaign": party.campaign.pk,
            "length": head.length,
            "hash": head.hash,
            "signature": head.signature,
            "key": head.signed_by,
            "salt": "",
            "token_signature": "",
            "token_key": server_key().id,
            "at": "",
        }
        assert len(delivery.witness["salt"]) == 64
        # Sent after the "Session ended" marker: the channel reads the end, then the fingerprint.
        ended = WebhookDelivery.objects.get(webhook_id=delivery.webhook_id, entry=marker)
        assert ended.pk < delivery.pk
    # Starting the next session while one is open ends it too, and posts its fingerprint.
    actions.start_session(party.gm, party.campaign)
    with django_capture_on_commit_callbacks(execute=True):
        actions.start_session(party.gm, party.campaign)
    assert witnesses(webhook=wants).count() == 2


def test_no_fingerprint_at_a_sessions_end_for_webhooks_without_it_or_paused(
    party, django_capture_on_commit_callbacks
):
    WebhookFactory(campaign=party.campaign, witness_sessions=False)
    paused = WebhookFactory(campaign=party.campaign)
    paused.pause("Paused by the GM.")
    actions.start_session(party.gm, party.campaign)
    with django_capture_on_commit_callbacks(execute=True):
        actions.end_session(party.gm, party.campaign)
    assert not witnesses().exists()
    assert WebhookDelivery.objects.filter(entry__kind="session_end").count() == 1


# --- on demand, from the webhooks page ------------------------------------------------------


def test_who_posts_the_fingerprint_now(client, party, django_capture_on_commit_callbacks):
    campaign = party.campaign
    url = reverse("webhook_witness", args=[campaign.pk])
    client.force_login(party.nonmember)
    assert client.post(url).status_code == 404
    client.force_login(party.gm)
    response = client.post(url)  # no webhook: said so, nothing queued
    assert response.status_code == 302
    assert "no active webhook" in client.get(response["Location"]).content.decode()
    webhook = WebhookFactory(campaign=campaign, witness_sessions=False)  # on demand: all of them
    for member in (party.observer, party.player):
        client.force_login(member)
        assert client.post(url).status_code == 403
        assert client.get(url).status_code in (403, 405)
    assert not witnesses().exists()

    client.force_login(party.gm)
    assert client.get(url).status_code == 405
    page = client.get(reverse("campaign_webhooks", args=[campaign.pk])).content.decode()
    assert "Post the log's fingerprint now" in page and f'action="{url}"' in page
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_webhooks", args=[campaign.pk])
    assert len(callbacks) == 1  # its sending, enqueued once the delivery committed
    (delivery,) = witnesses(webhook=webhook)
    assert delivery.witness["length"] == head_of(campaign).length
    page = client.get(response["Location"]).content.decode()
    assert "on its way to its webhook" in page and "Log fingerprint at #" in page

    response = client.post(url, headers={"HX-Request": "true"})  # htmx: the section, swapped
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<section id="webhooks"')
    assert "on its way to its webhook" in body and witnesses().count() == 2


def test_the_gm_switches_the_fingerprint_at_a_sessions_end(client, party):
    webhook = WebhookFactory(campaign=party.campaign)
    client.force_login(party.gm)
    off = reverse("webhook_action", args=[party.campaign.pk, webhook.pk, "witness-off"])
    response = client.post(off, headers={"HX-Request": "true"})
    assert "no longer posted" in response.content.decode()
    webhook.refresh_from_db()
    assert not webhook.witness_sessions
    client.post(reverse("webhook_action", args=[party.campaign.pk, webhook.pk, "witness-on"]))
    webhook.refresh_from_db()
    assert webhook.witness_sessions
    client.force_login(party.player)
    assert client.post(off).status_code == 403
    webhook.refresh_from_db()
    assert webhook.witness_sessions


# --- what is posted: the token, nothing of the log ------------------------------------------


def test_the_bodies_carry_the_token_and_nothing_of_the_log(party):
    append(party.pc, 3)
    append(party.pc, label="Whisper", visibility=Visibility.GM_ONLY)
    discord = WebhookFactory(campaign=party.campaign, format=WebhookFormat.DISCORD)
    signed = WebhookFactory(campaign=party.campaign)
    deliveries = {d.webhook_id: d for d in queue_witness(party.campaign.pk)}
    head = head_of(party.campaign)
    snapshot = deliveries[signed.pk].witness
    assert snapshot == deliveries[discord.pk].witness  # one snapshot, one token for all
    salted = hashlib.sha256(
        bytes.fromhex(snapshot["salt"]) + head_message(party.campaign.pk, head.length, head.hash)
    ).hexdigest()
    expected = Witness(
        party.campaign.pk, salted, server_key().id, snapshot["token_signature"], "v2"
    )
    token = expected.token
    assert token == deliveries[signed.pk].witness_token.token
    assert token == ":".join(
        ["poolside-head", "v2", str(party.campaign.pk), salted, server_key().id, expected.signature]
    )
    # Signed over the commitment, not the head's message: the signature is no oracle.
    VerifyKey(bytes.fromhex(published_keys()[-1]["signing_key"])).verify(
        b"poolside witness v1\n" + salted.encode(), bytes.fromhex(expected.signature)
    )

    body, headers = request_for(discord, deliveries[discord.pk])
    message = json.loads(body)
    assert message["allowed_mentions"] == {"parse": []} and message["username"] == "Poolside"
    (embed,) = message["embeds"]
    assert embed["title"] == "Log fingerprint"
    assert embed["description"].startswith("A signed fingerprint of the campaign's log")
    assert f"```\n{token}\n```" in embed["description"]
    assert "webhook-signature" not in headers

    append(party.pc)  # the head moves on; a retry sends the token it was queued with
    for webhook, delivery in ((discord, deliveries[discord.pk]), (signed, deliveries[signed.pk])):
        body, _ = request_for(webhook, delivery)
        text = body.decode()
        assert token in text
        for secret in (head.hash, head_of(party.campaign).hash, '"length"', f"#{head.length}"):
            assert secret not in text
        assert snapshot["salt"] not in text and head.signature not in text
    body, headers = request_for(signed, deliveries[signed.pk])
    payload = json.loads(body)
    assert payload == {
        "event": "witness",
        "campaign": {
            "id": party.campaign.pk,
            "name": party.campaign.name,
            "system": party.campaign.system,
        },
        "token": token,
        "commitment": expected.commitment,
        "key": server_key().id,
        "signature": expected.signature,
        "at": deliveries[signed.pk].witness["at"],
    }
    assert headers["webhook-signature"].startswith("v1,")


def test_a_fingerprint_reaches_a_real_receiver(party, receiver):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    append(party.pc, 2)
    token = token_now(party.campaign)
    assert deliver(webhook) == "drained"
    (request,) = receiver.received
    assert request.json["event"] == "witness" and token.startswith(request.json["token"] + ":")
    assert witnesses().get().status == "delivered"


# --- verify_log --witness -------------------------------------------------------------------


def test_verify_log_finds_the_current_and_an_older_witnessed_head(party):
    WebhookFactory(campaign=party.campaign)
    empty = token_now(party.campaign)  # the empty log's head: #0
    append(party.pc, 2)
    older = token_now(party.campaign)
    append(party.pc, 3)
    current = token_now(party.campaign)
    code, out = verify(party.campaign.pk, "--witness", older, "--witness", current)
    assert code == 0, out
    assert "witnessed head #2 found" in out and "witnessed head #5 found" in out
    code, out = verify("--witness", empty)  # every campaign; the token names its own
    assert code == 0 and "witnessed head #0 found" in out


def test_a_log_cut_below_the_witnessed_head_is_caught(party):
    WebhookFactory(campaign=party.campaign)
    entries = append(party.pc, 4)
    token = token_now(party.campaign)
    # Someone with the database and the key cuts the last two entries and signs the head they
    # leave: without a witness, nothing says so.
    kept = entries[1]
    tamper("DELETE FROM rolls_rollentry WHERE id IN (%s, %s)", [entries[2].pk, entries[3].pk])
    signature = server_key().sign(head_message(party.campaign.pk, 2, kept.hash))
    tamper(
        "UPDATE rolls_loghead SET length = 2, hash = %s, signature = %s WHERE campaign_id = %s",
        [kept.hash, signature, party.campaign.pk],
    )
    assert verify(party.campaign.pk)[0] == 0
    code, err = verify(party.campaign.pk, "--witness", token)
    assert code == 1
    commitment = Witness.parse(token).commitment
    assert (
        f"BROKEN: the witnessed head {commitment[:12]}… is not in the log: it was cut or "
        "rewritten below it" in err
    )


def test_a_token_with_a_bad_signature_fails(party):
    WebhookFactory(campaign=party.campaign)
    (entry,) = append(party.pc)
    witness = Witness.parse(token_now(party.campaign))
    # The entry's own signature: the server's, but over another message.
    forged = Witness(
        witness.campaign, witness.commitment, witness.key, entry.signature, "v2", witness.salt
    )
    code, err = verify(party.campaign.pk, "--witness", forged.gm_copy)
    assert code == 1 and "witness token of head #1 is not signed" in err
    unknown = Witness(
        witness.campaign, witness.commitment, "0" * 16, witness.signature, "v2", witness.salt
    )
    assert verify("--witness", unknown.gm_copy)[0] == 1


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("hello", "not a witness token"),
        ("poolside-head:v3:1:" + "a" * 64 + ":" + "b" * 16 + ":" + "c" * 128, "version 'v3'"),
        ("poolside-head:v2:1:" + "a" * 64 + ":" + "b" * 16 + ":" + "c" * 128 + ":x", "salt"),
        (
            "poolside-head:v1:1:" + "a" * 64 + ":" + "b" * 16 + ":" + "c" * 128 + ":" + "d" * 64,
            "no salt",
        ),
        ("poolside-head:v1:x:" + "a" * 64 + ":" + "b" * 16 + ":" + "c" * 128, "not a campaign"),
        ("poolside-head:v1:1:" + "A" * 64 + ":" + "b" * 16 + ":" + "c" * 128, "commitment"),
        ("poolside-head:v1:1:" + "a" * 64 + ":" + "b" * 15 + ":" + "c" * 128, "key"),
        ("poolside-head:v1:1:" + "a" * 64 + ":" + "b" * 16 + ":" + "c" * 12, "signature"),
    ],
)
def test_a_malformed_token_is_a_clear_error(party, token, says):
    with pytest.raises(CommandError, match="Can't read the witness token") as error:
        call_command("verify_log", "--witness", token, stdout=StringIO(), stderr=StringIO())
    assert says in str(error.value)


def test_a_token_of_another_campaign_is_a_clear_error(party):
    WebhookFactory(campaign=party.campaign)
    token = token_now(party.campaign)
    other = CampaignFactory()
    with pytest.raises(CommandError, match=f"of campaign {party.campaign.pk}, not campaign"):
        call_command("verify_log", other.pk, "--witness", token)


def test_a_posted_token_needs_its_salt_and_a_version_1_token_still_checks(party):
    WebhookFactory(campaign=party.campaign)
    append(party.pc, 2)
    posted = Witness.parse(token_now(party.campaign)).token
    with pytest.raises(CommandError, match="needs its salt"):
        call_command("verify_log", "--witness", posted, stdout=StringIO(), stderr=StringIO())
    # A token posted before tokens were salted: the head's own signature over its message.
    head = head_of(party.campaign)
    digest = hashlib.sha256(head_message(party.campaign.pk, 2, head.hash)).hexdigest()
    old = Witness(party.campaign.pk, digest, head.signed_by, head.signature, "v1")
    code, out = verify(party.campaign.pk, "--witness", old.token)
    assert code == 0 and "witnessed head #2 found" in out


def test_the_gms_export_keeps_each_token_with_its_salt_and_a_players_does_not(client, party):
    WebhookFactory(campaign=party.campaign)
    WebhookFactory(campaign=party.campaign, format=WebhookFormat.DISCORD)
    append(party.pc, 2)
    deliveries = queue_witness(party.campaign.pk)
    gm_copy = deliveries[0].witness_token.gm_copy
    url = reverse("campaign_log_json", args=[party.campaign.pk])
    client.force_login(party.gm)
    exported = json.loads(b"".join(client.get(url).streaming_content))
    assert exported["witnesses"] == [
        {
            "token": gm_copy.rsplit(":", 1)[0],
            "gm_copy": gm_copy,
            "length": 2,
            "at": deliveries[0].witness["at"],
        }
    ]
    assert verify(party.campaign.pk, "--witness", exported["witnesses"][0]["gm_copy"])[0] == 0
    client.force_login(party.player)
    body = b"".join(client.get(url).streaming_content).decode()
    assert "witnesses" not in json.loads(body) and gm_copy.rsplit(":", 1)[1] not in body


def test_a_player_with_their_export_and_the_token_learns_no_length(client, party):
    """The attack of the review: alice holds every readable entry's hash (her export) and the
    token the channel shows; she tries each length with each hash (and the empty log), against
    the commitment and against the signature. Nothing may match."""
    signed = WebhookFactory(campaign=party.campaign)
    append(party.pc, 3)
    append(party.pc, label="Whisper", visibility=Visibility.GM_ONLY)
    append(party.pc, label="Sneak", visibility=Visibility.SECRET)
    append(party.pc, 2)  # the newest entry is public: the head's hash is one alice holds
    (delivery,) = queue_witness(party.campaign.pk)
    posted = json.loads(request_for(signed, delivery)[0])
    witness = Witness.parse(posted["token"])
    client.force_login(party.player)
    exported = json.loads(
        b"".join(
            client.get(reverse("campaign_log_json", args=[party.campaign.pk])).streaming_content
        )
    )
    hashes = {"0" * 64} | {e["hash"] for e in exported["entries"] if e.get("hash")}
    assert head_of(party.campaign).hash in hashes  # what made the old token an oracle
    signing = VerifyKey(bytes.fromhex(published_keys()[-1]["signing_key"]))
    matches = []
    for length in range(0, 4 * len(exported["entries"]) + 10):
        for hash in hashes:
            message = head_message(party.campaign.pk, length, hash)
            if hashlib.sha256(message).hexdigest() == witness.commitment:
                matches.append((length, "commitment"))
            try:
                signing.verify(message, bytes.fromhex(witness.signature))
                matches.append((length, "signature"))
            except BadSignatureError:
                pass
    assert matches == []
