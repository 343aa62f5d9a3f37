"""Outgoing webhooks: where a campaign's readable rolls are posted, and the log of each delivery.

What is sent is decided once, here (``WebhookDeliveryQuerySet.record_entry``), from the log's own
rule for "readable by every member" (``RollEntryQuerySet.readable_by_everyone``). Sending happens
in the background (rolls/webhooks/delivery.py); docs/webhooks.md describes it all.
"""

from __future__ import annotations

import base64
import secrets
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.db import models, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from log.models.entry import RollEntry
from proofs.witness import Witness, commitment
from sheets.models import Campaign

# Attempts per delivery before it is given up: the first try and retries after 30 s, 2, 8, 32 and
# 128 minutes (``retry_delay``), about 2 h 50 min of a receiver failing without a break.
MAX_ATTEMPTS = 6
FIRST_RETRY_SECONDS = 30
BACKOFF_FACTOR = 4

# A worker that holds a webhook's sending lease longer than this is taken for dead (a lost
# process): another worker may take the webhook over. Each send renews the lease, and one send
# takes at most WEBHOOK_TIMEOUT to connect plus WEBHOOK_TIMEOUT per read.
LEASE = timedelta(minutes=2)

# What the delivery log keeps of an error (a receiver's answer is read up to 4 KiB).
ERROR_MAX_LENGTH = 500

# After the GM rotates a webhook's secret, deliveries are signed with the old one too for this
# long, so the receiver can take the new secret at its own pace (docs/webhooks.md).
ROTATION_GRACE = timedelta(hours=24)
# Standard Webhooks' form of a secret: the prefix, then base64. A prefix, not a secret.
SECRET_PREFIX = "whsec_"  # noqa: S105


def new_secret() -> str:
    """A signing secret as Standard Webhooks writes one: ``whsec_`` and 32 random bytes in
    base64 (the HMAC key is those bytes)."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def new_delivery_id() -> str:
    """A delivery's id (``webhook-id``): opaque and random, so it tells a receiver nothing of
    how many deliveries the server made, and holds no ``.`` (it is part of the signed text)."""
    return "msg_" + secrets.token_urlsafe(16)


def retry_delay(attempts: int) -> timedelta:
    """How long after its ``attempts``-th failed attempt a delivery is tried again."""
    return timedelta(seconds=FIRST_RETRY_SECONDS * BACKOFF_FACTOR ** (attempts - 1))


class WebhookFormat(models.TextChoices):
    DISCORD = "discord", "Discord"
    JSON = "json", "JSON, signed"


class WebhookQuerySet(models.QuerySet["Webhook"]):
    def active(self) -> WebhookQuerySet:
        return self.filter(active=True)

    def claim(self, pk: int) -> bool:
        """Take the webhook's sending lease (one worker sends a webhook's deliveries at a time,
        so they leave in order): an atomic UPDATE, no lock held while sending."""
        now = timezone.now()
        free = Q(sending_since__isnull=True) | Q(sending_since__lt=now - LEASE)
        return bool(self.filter(free, pk=pk).update(sending_since=now))

    def renew(self, pk: int) -> None:
        self.filter(pk=pk).update(sending_since=timezone.now())

    def release(self, pk: int) -> None:
        self.filter(pk=pk).update(sending_since=None)


class Webhook(models.Model):
    """A URL the campaign's readable rolls are posted to, as a Discord message or signed JSON."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField("URL", max_length=2000)
    format = models.CharField(max_length=16, choices=WebhookFormat.choices)
    # The key of the JSON format's HMAC signature: the receiver keeps a copy to check it.
    secret = models.CharField(max_length=100, default=new_secret, editable=False)
    # The secret before the GM's last rotation, still signed with until ``previous_until``.
    previous_secret = models.CharField(max_length=100, blank=True, editable=False)
    previous_until = models.DateTimeField(null=True, blank=True, editable=False)
    active = models.BooleanField(default=True)
    # A witness token of the log's head each time the GM ends a session
    # (docs/verifiable-dice.md#an-outside-witness); the GM can post one any time besides.
    witness_sessions = models.BooleanField(
        "Post the log's signed fingerprint when a session ends", default=True
    )
    paused_reason = models.CharField(max_length=300, blank=True)
    consecutive_failures = models.PositiveIntegerField(
        default=0, help_text="Failed attempts since the last delivered one."
    )
    sending_since = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = WebhookQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=WebhookFormat.values), name="webhook_format_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_format_display()} webhook to {self.display_url}"

    @property
    def display_url(self) -> str:
        """The URL without its path: a Discord webhook's path is its password."""
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}/…" if parts.path not in ("", "/") else self.url

    @property
    def signs(self) -> bool:
        return self.format == WebhookFormat.JSON

    def signing_secrets(self, now: datetime) -> list[str]:
        """The secrets a delivery is signed with now: the current one, and during a rotation's
        grace period the previous one too (each gives its own ``v1,`` signature)."""
        if self.previous_secret and self.previous_until and now < self.previous_until:
            return [self.secret, self.previous_secret]
        return [self.secret]

    def rotate(self, now: datetime) -> None:
        """A new secret; the current one is still signed with for ``ROTATION_GRACE`` (a
        rotation during another's grace ends the older secret's at once)."""
        self.previous_secret, self.previous_until = self.secret, now + ROTATION_GRACE
        self.secret = new_secret()
        self.save(update_fields=["secret", "previous_secret", "previous_until"])

    def end_rotation(self) -> None:
        """Stop signing with the previous secret now (the receiver has the new one)."""
        self.previous_secret, self.previous_until = "", None
        self.save(update_fields=["previous_secret", "previous_until"])

    def add(self) -> None:
        with transaction.atomic():
            self.save()
            sync_has_webhooks(self.campaign_id)
        if Webhook.campaign.is_cached(self):
            self.campaign.has_webhooks = self.active

    def pause(self, reason: str) -> None:
        """Stop sending: what still waits is given up (a backlog of hours-old rolls would only
        flood the channel on resume), and the campaign's rolls stop queuing deliveries."""
        with transaction.atomic():
            Webhook.objects.filter(pk=self.pk).update(active=False, paused_reason=reason)
            self.active, self.paused_reason = False, reason
            self.deliveries.unsent().update(
                status=DeliveryStatus.GIVEN_UP,
                next_attempt_at=None,
                last_error="Not sent: the webhook was paused.",
            )
            sync_has_webhooks(self.campaign_id)

    def resume(self) -> None:
        with transaction.atomic():
            Webhook.objects.filter(pk=self.pk).update(
                active=True, paused_reason="", consecutive_failures=0
            )
            self.active, self.paused_reason, self.consecutive_failures = True, "", 0
            sync_has_webhooks(self.campaign_id)

    def remove(self) -> None:
        with transaction.atomic():
            campaign_id = self.campaign_id
            self.delete()
            sync_has_webhooks(campaign_id)


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed, will retry"
    GIVEN_UP = "given_up", "Given up"


UNSENT = (DeliveryStatus.PENDING, DeliveryStatus.FAILED)


class WebhookDeliveryQuerySet(models.QuerySet["WebhookDelivery"]):
    def unsent(self) -> WebhookDeliveryQuerySet:
        return self.filter(status__in=UNSENT)

    def record_entry(self, entry_pk: int) -> list[WebhookDelivery]:
        """After the entry's transaction committed: a delivery per active webhook of its
        campaign, if every member may read it (``rolls.webhooks.delivery.queue_entry`` then
        enqueues their sending).

        A reveal also sends the follow-ups of the roll it reveals (destiny, a re-roll, a bought
        boon: readable by everyone from now on), after it. Nothing hidden is ever queued, not
        even a notice that something was rolled: the one rule is the log's own."""
        entry = (
            RollEntry.objects.filter(pk=entry_pk)
            .readable_by_everyone()
            .values("pk", "campaign_id", "kind", "reveals_id")
            .first()
        )
        if entry is None:
            return []
        pks = [entry["pk"]]
        if entry["reveals_id"] is not None:  # a reveal: the chain it opens goes out too
            chain = RollEntry.objects.filter(root_id=entry["reveals_id"]).readable_by_everyone()
            pks += chain.order_by("seq").values_list("pk", flat=True)
        webhooks = list(
            Webhook.objects.active()
            .filter(campaign_id=entry["campaign_id"])
            .values_list("pk", flat=True)
        )
        deliveries = WebhookDelivery.objects.bulk_create(
            [WebhookDelivery(webhook_id=webhook, entry_id=pk) for webhook in webhooks for pk in pks]
        )
        return deliveries


class WebhookDelivery(models.Model):
    """One entry (or a session's recap, or the log's fingerprint, or a test message, with none of
    them) for one webhook, and how sending it went."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    # Sent as ``webhook-id`` and signed with the body: the same on every retry of this delivery,
    # so a receiver drops a duplicate by it, and opaque (never the row's sequential pk).
    uid = models.CharField(max_length=40, unique=True, default=new_delivery_id, editable=False)
    entry = models.ForeignKey(
        RollEntry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # A session's recap (docs/sessions.md#recaps) instead of an entry: the session's number. Its
    # text is made when it is sent, from what every member may read.
    recap = models.PositiveIntegerField(null=True, blank=True)
    # The log's fingerprint (a witness token) instead: the head as it stood when this was queued
    # ({"campaign", "length", "hash", "signature", "key", "at"}, ``LogHead.witness``), so a retry
    # sends the same token. Only the token leaves the server: the length and the hash never do.
    witness = models.JSONField(null=True, blank=True)
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=ERROR_MAX_LENGTH, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_attempt_at = models.DateTimeField(null=True, blank=True)

    objects = WebhookDeliveryQuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=DeliveryStatus.values), name="webhook_delivery_status_valid"
            ),
        ]
        indexes = [
            # The next unsent delivery of a webhook, oldest first; the log page's newest first.
            models.Index(fields=["webhook", "status", "id"], name="webhook_delivery_queue"),
        ]

    def __str__(self) -> str:
        what = self.entry_id or (
            f"recap {self.recap}" if self.recap else "witness" if self.witness else "test"
        )
        return f"{self.webhook_id}: {what} {self.status}"

    @property
    def is_test(self) -> bool:
        return self.entry_id is None and self.recap is None and self.witness is None

    @property
    def witness_token(self) -> Witness | None:
        """The fingerprint this delivery posts, from the head it snapshot (None for others)."""
        head = self.witness
        if not head:
            return None
        if "salt" not in head:  # queued before tokens were salted: the version 1 token
            digest = commitment(head["campaign"], head["length"], head["hash"])
            return Witness(head["campaign"], digest, head["key"], head["signature"], "v1")
        return Witness.of_head(
            head["campaign"],
            head["length"],
            head["hash"],
            head["token_key"],
            head["token_signature"],
            head["salt"],
        )

    def is_due(self, now: datetime) -> bool:
        return self.next_attempt_at is None or self.next_attempt_at <= now


def sync_has_webhooks(campaign_id: int) -> None:
    """Keep ``Campaign.has_webhooks`` true exactly when the campaign has an active webhook (one
    UPDATE): the roll path reads the flag with the campaign it loads anyway, so a campaign
    without webhooks pays no query for them (tests/rolls/test_query_counts.py)."""
    active = Webhook.objects.filter(campaign_id=OuterRef("pk"), active=True)
    Campaign.objects.filter(pk=campaign_id).update(has_webhooks=Exists(active))
