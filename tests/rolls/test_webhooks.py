"""Outgoing webhooks end to end, against a real HTTP receiver on 127.0.0.1: the signed JSON and
the Discord message, retries with backoff, pausing, redirects, timeouts, the address rules, and
what is (never) sent for each visibility (docs/webhooks.md)."""

from __future__ import annotations

import base64
import json
import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone
from standardwebhooks.webhooks import Webhook as StandardWebhook

from log.models import RollEntry, Visibility
from rolls.models import MAX_ATTEMPTS, DeliveryStatus, Webhook, WebhookDelivery, WebhookFormat
from rolls.webhooks import payloads
from rolls.webhooks.delivery import queue_entry, send_test
from tests.factories import RollEntryFactory, WebhookFactory
from tests.rolls.helpers import roll_athletics
from tests.rolls.receiver import Reply, deliver, make_due, run_worker

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"


def documented_check():
    """The receiver's check, exactly as docs/webhooks.md prints it."""
    code = re.search(r"```python\n(.*?)```", DOCS.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(code, namespace)
    return namespace["verify"]


# --- the generic JSON format -----------------------------------------------------------------


def test_a_public_roll_is_posted_signed_and_the_documented_check_accepts_it(
    client, party, receiver, django_capture_on_commit_callbacks
):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        entry = roll_athletics(client, party, Visibility.PUBLIC)
    assert deliver(webhook) == "drained"

    [request] = receiver.received
    body = request.json
    assert body["event"] == "roll"
    assert body["campaign"] == {
        "id": party.campaign.pk,
        "name": party.campaign.name,
        "system": party.campaign.system,
    }
    assert body["entry"]["character"] == "Ada" and body["entry"]["label"] == "Athletics"
    assert body["entry"]["faces"] == entry.faces and body["entry"]["outcome"] == entry.outcome
    assert body["entry"]["url"] == "https://poolside.example" + entry.get_absolute_url()
    assert "seq" not in body["entry"] and "salt" not in body["entry"]

    verify = documented_check()
    headers = {name.lower(): value for name, value in request.headers.items()}
    timestamp, signature = headers["webhook-timestamp"], headers["webhook-signature"]
    assert abs(int(timestamp) - time.time()) < 60
    assert verify(webhook.secret, request.body, headers)
    # Standard Webhooks' own receiver library takes it as it is.
    assert StandardWebhook(webhook.secret).verify(request.body, headers) == body
    # Any change to the body, the time, the id or the key fails the check, and so does an old
    # delivery signed again.
    assert not verify(webhook.secret, request.body + b" ", headers)
    assert not verify(
        webhook.secret, request.body, headers | {"webhook-timestamp": str(int(timestamp) + 1)}
    )
    assert not verify(webhook.secret, request.body, headers | {"webhook-id": "msg_another"})
    other = "whsec_" + base64.b64encode(b"x" * 32).decode()
    assert not verify(other, request.body, headers)
    old = int(time.time()) - 301
    resigned = payloads.signed_headers([webhook.secret], headers["webhook-id"], old, request.body)
    assert not verify(webhook.secret, request.body, resigned)

    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 1, 204)
    assert headers["webhook-id"] == delivery.uid and signature.startswith("v1,")


def test_delivery_ids_are_opaque_and_the_same_on_a_retry(party, receiver):
    """Not the row's sequential number (it told a receiver the server's volume), and signed: a
    replay under a new id fails the signature."""
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    receiver.answer(Reply(503))
    for _ in range(2):
        queue_entry(RollEntryFactory(character=party.pc).pk)
    deliver(webhook)
    make_due()
    deliver(webhook)
    first, retry, second = (r.headers["webhook-id"] for r in receiver.received)
    assert first == retry != second
    deliveries = WebhookDelivery.objects.order_by("pk")
    assert [d.uid for d in deliveries] == [first, second]
    for uid in (first, second):
        assert re.fullmatch(r"msg_[A-Za-z0-9_-]{22}", uid)
        assert str(WebhookDelivery.objects.get(uid=uid).pk) not in uid.removeprefix("msg_")


def test_a_rotation_signs_with_both_secrets_for_a_grace_period(client, party, receiver):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    old = webhook.secret
    client.force_login(party.gm)
    rotate = reverse("webhook_action", args=[party.campaign.pk, webhook.pk, "rotate"])
    page = client.post(rotate, follow=True).content.decode()
    webhook.refresh_from_db()
    new = webhook.secret
    assert new != old and new.startswith("whsec_") and webhook.previous_secret == old
    assert new in page and "previous secret too" in page
    send_test(webhook)
    deliver(webhook)
    request = receiver.received[-1]
    headers = {name.lower(): value for name, value in request.headers.items()}
    assert len(headers["webhook-signature"].split(" ")) == 2
    verify = documented_check()
    for secret in (old, new):  # a receiver with either secret accepts it
        assert verify(secret, request.body, headers) and request.signed_by(secret)
    # After the grace, the old secret signs nothing.
    Webhook.objects.filter(pk=webhook.pk).update(
        previous_until=timezone.now() - timedelta(seconds=1)
    )
    send_test(webhook)
    deliver(webhook)
    headers = {name.lower(): value for name, value in receiver.received[-1].headers.items()}
    assert len(headers["webhook-signature"].split(" ")) == 1
    assert verify(new, receiver.received[-1].body, headers)
    assert not verify(old, receiver.received[-1].body, headers)
    assert not receiver.received[-1].signed_by(old)
    # The GM may end a grace early; a player may rotate nothing.
    client.post(rotate)
    webhook.refresh_from_db()
    assert webhook.previous_secret == new
    end = reverse("webhook_action", args=[party.campaign.pk, webhook.pk, "end-rotation"])
    client.post(end)
    webhook.refresh_from_db()
    assert webhook.previous_secret == "" and webhook.signing_secrets(timezone.now()) == [
        webhook.secret
    ]
    client.force_login(party.player)
    assert client.post(rotate).status_code == 403
    assert Webhook.objects.get(pk=webhook.pk).secret == webhook.secret


def test_discord_gets_one_embed_with_who_what_outcome_dice_odds_and_the_link(
    client, party, receiver, django_capture_on_commit_callbacks
):
    webhook = WebhookFactory(
        campaign=party.campaign, url=receiver.url, format=WebhookFormat.DISCORD
    )
    with django_capture_on_commit_callbacks(execute=True):
        entry = roll_athletics(client, party, Visibility.PUBLIC)
    deliver(webhook)
    [request] = receiver.received
    message = request.json
    assert "webhook-signature" not in request.headers
    assert message["allowed_mentions"] == {"parse": []}
    [embed] = message["embeds"]
    assert embed["title"] == "Ada: Athletics"
    assert embed["author"]["name"] == "ana"
    assert entry.outcome_label in embed["description"]
    assert embed["url"] == "https://poolside.example" + entry.get_absolute_url()
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["Dice"].count("(") == len(entry.faces)
    assert fields["Odds of this outcome"].endswith("%")
    assert party.campaign.name in embed["footer"]["text"]


# --- retries, pausing ------------------------------------------------------------------------


def test_a_500_is_retried_with_backoff_then_delivered(party, receiver):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    receiver.answer(Reply(500, body=b"database down"))
    first = RollEntryFactory(character=party.pc, label="First")
    second = RollEntryFactory(character=party.pc, label="Second")
    queue_entry(first.pk)
    queue_entry(second.pk)

    before = timezone.now()
    assert deliver(webhook) == "failed"
    delivery = WebhookDelivery.objects.get(entry=first)
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("failed", 1, 500)
    assert "500" in delivery.last_error and "database down" in delivery.last_error
    # 30 s after the first failure; the second roll waits behind it, so they arrive in order.
    wait = delivery.next_attempt_at - before
    assert timedelta(seconds=29) < wait < timedelta(seconds=35)
    assert WebhookDelivery.objects.get(entry=second).attempts == 0
    assert deliver(webhook) == "waiting"
    assert len(receiver.received) == 1

    make_due()
    assert deliver(webhook) == "drained"
    labels = [r.json["entry"]["label"] for r in receiver.received]
    assert labels == ["First", "First", "Second"]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("delivered", 2, "")
    webhook.refresh_from_db()
    assert webhook.consecutive_failures == 0 and webhook.active


def test_the_backoff_grows_fourfold_and_a_429_waits_for_retry_after(party, receiver):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    queue_entry(RollEntryFactory(character=party.pc).pk)
    waits = []
    receiver.answer(Reply(503), Reply(503), Reply(429, headers={"Retry-After": "900"}))
    for _ in range(3):
        before = timezone.now()
        deliver(webhook)
        delivery = WebhookDelivery.objects.get()
        waits.append((delivery.next_attempt_at - before).total_seconds())
        make_due()
    assert 29 < waits[0] < 35  # 30 s
    assert 119 < waits[1] < 125  # 2 min
    assert 899 < waits[2] < 905  # 8 min asked for, but Discord's 15 min come first


def test_repeated_failures_pause_the_webhook_with_a_message_on_the_page(client, party, receiver):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    receiver.answer(*[Reply(500)] * MAX_ATTEMPTS)
    queue_entry(RollEntryFactory(character=party.pc).pk)
    queue_entry(RollEntryFactory(character=party.pc).pk)
    for _ in range(MAX_ATTEMPTS):
        deliver(webhook)
        make_due()
    assert len(receiver.received) == MAX_ATTEMPTS
    webhook.refresh_from_db()
    party.campaign.refresh_from_db()
    assert not webhook.active and not party.campaign.has_webhooks
    assert f"failed {MAX_ATTEMPTS} times in a row" in webhook.paused_reason
    # What waited behind it is given up, not sent hours late.
    assert set(WebhookDelivery.objects.values_list("status", flat=True)) == {"given_up"}
    # Rolls while it is paused queue nothing.
    RollEntryFactory(character=party.pc)
    assert deliver(webhook) == "paused"

    client.force_login(party.gm)
    page = client.get(reverse("campaign_webhooks", args=[party.campaign.pk])).content.decode()
    assert f"failed {MAX_ATTEMPTS} times in a row" in page and "Resume" in page
    # Resuming clears the message and sends again.
    client.post(reverse("webhook_action", args=[party.campaign.pk, webhook.pk, "resume"]))
    webhook.refresh_from_db()
    party.campaign.refresh_from_db()
    assert webhook.active and not webhook.paused_reason and party.campaign.has_webhooks
    assert webhook.consecutive_failures == 0


# --- what is sent, and what never is ---------------------------------------------------------

HIDDEN = "HIDDEN-DETAIL"


def test_only_what_every_member_may_read_is_ever_sent(
    client, party, receiver, django_capture_on_commit_callbacks
):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    gm_party = {"as_user": "gm"}
    with django_capture_on_commit_callbacks(execute=True):
        public = roll_athletics(client, party, Visibility.PUBLIC)
        gm_only = roll_athletics(client, party, Visibility.GM_ONLY)
        blind = roll_athletics(client, party, Visibility.BLIND)
        secret = roll_athletics(client, party, Visibility.SECRET, **gm_party)
        spy = RollEntryFactory(
            character=party.hidden_npc, campaign=party.campaign, label="Lockpicking"
        )
        npc_secret = RollEntryFactory(
            character=party.npc,
            campaign=party.campaign,
            visibility=Visibility.SECRET,
            label="Ambush",
            detail=HIDDEN,
        )
    deliver(webhook)
    sent = [r.json["entry"]["id"] for r in receiver.received]
    assert len(sent) == 1 and receiver.received[0].json["entry"]["url"].endswith(
        public.get_absolute_url()
    )
    assert spy.hidden_character and npc_secret.visibility == "secret"
    for hidden in (gm_only, blind, secret, spy, npc_secret):
        assert not WebhookDelivery.objects.filter(entry=hidden).exists()
    assert b"Lockpicking" not in receiver.bodies and b"Ambush" not in receiver.bodies
    assert HIDDEN.encode() not in receiver.bodies
    assert b'"visibility":"public"' in receiver.bodies
    assert all(v not in receiver.bodies for v in (b"gm_only", b"blind", b"secret"))


def test_readable_by_everyone_agrees_with_every_members_reading(client, party):
    """The one rule, in SQL (what webhooks send) and in Python (``is_hidden``), and what each
    member reads: an entry goes out exactly when every member may read it."""
    entries = [
        RollEntryFactory(character=party.pc, visibility=visibility)
        for visibility in Visibility.values
    ]
    entries.append(RollEntryFactory(character=party.hidden_npc))
    entries.append(RollEntryFactory(character=party.npc, visibility=Visibility.BLIND))
    client.force_login(party.gm)
    client.post(reverse("roll_reveal", args=[entries[-1].pk]))
    members = list(party.campaign.memberships.all())
    everyone = set(RollEntry.objects.readable_by_everyone().values_list("pk", flat=True))
    # The public roll, the revealed blind one and its reveal; no other.
    assert everyone == {
        entries[0].pk,
        entries[-1].pk,
        RollEntry.objects.get(reveals=entries[-1]).pk,
    }
    for entry in RollEntry.objects.filter(campaign=party.campaign):
        by_all = all(entry.is_readable_by(m) for m in members)
        assert (entry.pk in everyone) == by_all == (not entry.is_hidden), entry


def test_a_reveal_sends_the_roll_it_reveals_and_its_follow_ups(
    client, party, receiver, django_capture_on_commit_callbacks
):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        blind = roll_athletics(client, party, Visibility.BLIND)
        # A follow-up takes its root's audience: blind too.
        follow_up = RollEntryFactory(
            character=party.pc, kind="destiny", follows=blind, label="Athletics", detail=HIDDEN
        )
    assert follow_up.visibility == Visibility.BLIND
    deliver(webhook)
    assert receiver.received == []  # nothing of the blind roll, not even that it happened
    follow_ups = list(RollEntry.objects.filter(root=blind).order_by("seq"))

    client.force_login(party.gm)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("roll_reveal", args=[blind.pk]))
    assert response.status_code == 302
    deliver(webhook)
    reveal = RollEntry.objects.get(reveals=blind)
    entries = [r.json["entry"] for r in receiver.received]
    assert [e["url"].rsplit("/", 2)[-2] for e in entries] == [
        e.get_absolute_url().rsplit("/", 2)[-2] for e in [reveal, *follow_ups]
    ]
    assert entries[0]["kind"] == "reveal" and entries[0]["faces"] == blind.faces
    assert all(not e["placeholder"] for e in entries)


def test_a_hidden_npcs_roll_is_sent_only_when_revealed(
    client, party, receiver, django_capture_on_commit_callbacks
):
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True):
        spy = RollEntryFactory(character=party.hidden_npc, label="Disguise")
    deliver(webhook)
    assert receiver.received == []
    client.force_login(party.gm)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("roll_reveal", args=[spy.pk]))
    deliver(webhook)
    [request] = receiver.received
    assert request.json["entry"]["label"] == "Disguise" and request.json["entry"]["character"] == (
        "Spy"
    )


def test_a_rolled_back_roll_sends_nothing(party, receiver, django_capture_on_commit_callbacks):
    from django.db import transaction

    WebhookFactory(campaign=party.campaign, url=receiver.url)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                RollEntryFactory(character=party.pc)
                raise RuntimeError("the roll failed after its append")
        except RuntimeError:
            pass
    assert callbacks == [] and not WebhookDelivery.objects.exists()


def test_send_a_test_from_the_page(client, party, receiver, django_capture_on_commit_callbacks):
    webhook = WebhookFactory(
        campaign=party.campaign, url=receiver.url, format=WebhookFormat.DISCORD
    )
    client.force_login(party.gm)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("webhook_action", args=[party.campaign.pk, webhook.pk, "test"]),
            headers={"HX-Request": "true"},
        )
    assert (
        response.status_code == 200 and "A test message is on its way" in response.content.decode()
    )
    deliver(webhook)
    [request] = receiver.received
    assert request.json["embeds"][0]["title"] == "Poolside webhook test"
    page = client.get(reverse("campaign_webhooks", args=[party.campaign.pk])).content.decode()
    assert "Test message" in page and "Delivered" in page


# --- through the database backend and a worker -----------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_worker_delivers_through_the_database_backend(client, party, receiver):
    from django_tasks_db.models import DBTaskResult

    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    receiver.answer(Reply(500))
    entry = roll_athletics(client, party, Visibility.PUBLIC)  # commits: the callback runs
    [task] = DBTaskResult.objects.all()
    assert task.task_path == "rolls.webhooks.delivery.deliver_webhook"
    assert task.args_kwargs["args"] == [webhook.pk]

    run_worker()
    assert len(receiver.received) == 1
    retry = DBTaskResult.objects.filter(status="READY").get()
    assert retry.run_after > timezone.now() + timedelta(seconds=25)
    run_worker()  # not due yet: nothing runs
    assert len(receiver.received) == 1

    DBTaskResult.objects.filter(pk=retry.pk).update(run_after=timezone.now())
    make_due()
    run_worker()
    assert [r.json["entry"]["url"] for r in receiver.received] == [
        "https://poolside.example" + entry.get_absolute_url()
    ] * 2
    assert WebhookDelivery.objects.get().status == DeliveryStatus.DELIVERED
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {"SUCCESSFUL"}


# --- permissions -----------------------------------------------------------------------------

ONLY_THE_GM = {"anonymous": "login", "nonmember": 404, "observer": 403, "player": 403}
PUBLIC_URL = "http://93.184.216.34/hook"  # an address literal: no DNS lookup in the tests


@pytest.mark.parametrize("actor", ["anonymous", "nonmember", "observer", "player", "gm"])
def test_only_the_gm_sees_and_changes_webhooks(client, party, actor):
    webhook = WebhookFactory(campaign=party.campaign, format=WebhookFormat.JSON)
    campaign = party.campaign.pk
    if user := party.user(actor):
        client.force_login(user)
    page = reverse("campaign_webhooks", args=[campaign])
    delete = reverse("webhook_delete", args=[campaign, webhook.pk])
    requests = [
        ("get", page, {}, 200),
        ("post", page, {"url": PUBLIC_URL, "format": "discord"}, 302),
        ("post", reverse("webhook_action", args=[campaign, webhook.pk, "test"]), {}, 302),
        ("post", reverse("webhook_action", args=[campaign, webhook.pk, "pause"]), {}, 302),
        ("post", reverse("webhook_action", args=[campaign, webhook.pk, "resume"]), {}, 302),
        ("get", delete, {}, 200),
    ]
    for method, url, data, gm_status in requests:
        response = getattr(client, method)(url, data)
        expected = ONLY_THE_GM.get(actor, gm_status)
        if expected == "login":
            assert response.status_code == 302 and response["Location"].startswith(
                reverse("login")
            ), url
        else:
            assert response.status_code == expected, (method, url)
    if actor != "gm":
        # Nothing was added, sent or changed, and the secret was never shown.
        assert Webhook.objects.get().active and not WebhookDelivery.objects.exists()
        assert webhook.secret not in client.get(page).content.decode()
        assert client.post(delete).status_code != 302 or actor == "anonymous"
        assert Webhook.objects.filter(pk=webhook.pk).exists()
        return
    assert webhook.secret in client.get(page).content.decode()
    assert Webhook.objects.filter(url=PUBLIC_URL, format="discord").exists()
    assert WebhookDelivery.objects.filter(webhook=webhook, entry=None).count() == 1
    assert client.post(delete).status_code == 302
    assert not Webhook.objects.filter(pk=webhook.pk).exists()
    # An unknown action is a 404; a webhook of another campaign is a 404 too.
    other = WebhookFactory()
    assert (
        client.post(reverse("webhook_action", args=[campaign, other.pk, "pause"])).status_code
        == 404
    )
    assert client.post(reverse("webhook_delete", args=[campaign, other.pk])).status_code == 404
    mine = Webhook.objects.get(url=PUBLIC_URL)
    assert (
        client.post(reverse("webhook_action", args=[campaign, mine.pk, "explode"])).status_code
        == 404
    )


def test_the_campaign_page_links_the_gm_to_webhooks(client, party):
    page = reverse("campaign_webhooks", args=[party.campaign.pk])
    client.force_login(party.gm)
    assert page in client.get(party.campaign.get_absolute_url()).content.decode()
    client.force_login(party.player)
    assert page not in client.get(party.campaign.get_absolute_url()).content.decode()


def test_has_webhooks_follows_the_active_webhooks(party):
    campaign = party.campaign

    def flag():
        campaign.refresh_from_db()
        return campaign.has_webhooks

    assert not flag()
    first = WebhookFactory(campaign=campaign)
    second = WebhookFactory(campaign=campaign)
    assert flag()
    first.pause("Paused by the GM.")
    assert flag()
    second.pause("Paused by the GM.")
    assert not flag()
    second.resume()
    assert flag()
    second.remove()
    assert not flag()
    first.resume()
    assert flag()


# The page: the session, its user, the campaign with the GM's membership, the webhooks, and
# the last deliveries of all of them in one query (a window per webhook) — however many there are.
PAGE_QUERIES = 5


@pytest.mark.parametrize("webhooks", [1, 4])
def test_the_page_costs_the_same_for_one_webhook_and_many(
    client, party, django_assert_num_queries, webhooks
):
    for _ in range(webhooks):
        webhook = WebhookFactory(campaign=party.campaign)
        for entry in RollEntryFactory.create_batch(3, character=party.pc):
            WebhookDelivery.objects.create(webhook=webhook, entry=entry, status="delivered")
        WebhookDelivery.objects.create(webhook=webhook, entry=None, last_error="x" * 400)
    client.force_login(party.gm)
    with django_assert_num_queries(PAGE_QUERIES):
        response = client.get(reverse("campaign_webhooks", args=[party.campaign.pk]))
    assert response.content.decode().count("Test message") == webhooks


# --- documentation ---------------------------------------------------------------------------


def test_the_docs_name_the_headers_and_the_limits_the_code_uses():
    text = DOCS.read_text()
    for name in (payloads.DELIVERY_HEADER, payloads.TIMESTAMP_HEADER, payloads.SIGNATURE_HEADER):
        assert f"`{name}`" in text
    assert "Poolside-Signature" not in text  # the old scheme, gone
    assert "WEBHOOKS_ALLOW_PRIVATE" in text and "db_worker" in text
    assert json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))["event"] == "roll"


def test_a_stale_campaign_save_keeps_the_webhooks_flag(party):
    """A campaign row read before a webhook was added, then saved whole (the campaign form
    does), leaves has_webhooks as the webhooks set it."""
    from sheets.models import Campaign

    stale = Campaign.objects.get(pk=party.campaign.pk)
    assert not stale.has_webhooks
    WebhookFactory(campaign=party.campaign)
    stale.name = "Renamed"
    stale.save()
    fresh = Campaign.objects.get(pk=party.campaign.pk)
    assert fresh.name == "Renamed" and fresh.has_webhooks
