"""Sending webhooks: the background task that posts a webhook's deliveries in order, with retries,
and the HTTP request itself, which refuses to reach into the server's own network.

The task (``deliver_webhook``) runs on Django's Tasks framework: `manage.py db_worker` picks it up
from the database (django-tasks-db). One worker at a time sends a webhook's deliveries, oldest
first (a lease on the webhook row, taken by an atomic UPDATE), so a receiver gets them in the
log's order; a failed one is retried with exponential backoff and the ones after it wait for it
(docs/webhooks.md).

The request (``post``) resolves the host itself and refuses an address in our own table of
reserved ranges (rolls/webhooks/reserved.py: loopback, private, link-local, multicast, reserved,
unspecified, documentation, …), or an IPv6 address standing for one (IPv4-mapped, 6to4, NAT64),
unless ``WEBHOOKS_ALLOW_PRIVATE``; then it connects to
the very address it checked — so a DNS answer that changes between the check and the connection
(DNS rebinding) can't move it — with the Host header and TLS server name of the URL. No redirect
is followed: a 3xx is a failure. Every step has a timeout, and at most 4 KiB of the answer is read.
"""

from __future__ import annotations

import http.client
import ipaddress
import logging
import socket
import ssl
from dataclasses import dataclass
from datetime import timedelta
from email.utils import parsedate_to_datetime
from functools import partial
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from log.models import LogHead, RollEntry
from rolls.log.records import public_record
from rolls.models import (
    MAX_ATTEMPTS,
    DeliveryStatus,
    Webhook,
    WebhookDelivery,
    WebhookFormat,
    retry_delay,
)
from rolls.sessions import recap
from rolls.sessions.state import session
from rolls.webhooks import payloads
from rolls.webhooks.reserved import reserved
from sheets.models import Campaign
from sheets.portraits import avatar_token

logger = logging.getLogger(__name__)

ANSWER_READ_MAX = 4096  # bytes of a receiver's answer read, for the delivery log
RETRY_AFTER_MAX = 3600  # seconds: a longer Retry-After is taken as an hour
USER_AGENT = "Poolside-Webhooks/1"


class Refused(Exception):
    """The URL may not be posted to (scheme, host, or an address in the server's own network)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query
    addresses: tuple[str, ...]  # every address the host resolved to, all checked


@dataclass(frozen=True)
class Answer:
    status: int | None  # None when no HTTP answer came (a refusal, a timeout, a lost connection)
    error: str  # empty when delivered
    retry_after: float | None = None  # seconds, from a 429's Retry-After

    @property
    def ok(self) -> bool:
        return not self.error


# NAT64 (RFC 6052): a NAT64 gateway on the server's network would turn these into its IPv4
# address space. The well-known prefix carries the IPv4 address in its last 32 bits.
NAT64_WELL_KNOWN = ipaddress.ip_network("64:ff9b::/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address stands for: IPv4-mapped (``::ffff:a.b.c.d``), 6to4
    (``2002:AABB:CCDD::``), Teredo (server and client) and NAT64's well-known prefix. Each must
    pass on its own: ``2002:7f00:1::`` is 127.0.0.1 to a 6to4 relay. (These read the address's
    bits, not a table of Python's.)"""
    found = [v4 for v4 in (ip.ipv4_mapped, ip.sixtofour) if v4 is not None]
    if ip.teredo is not None:
        found.extend(ip.teredo)
    if ip in NAT64_WELL_KNOWN:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return found


def forbidden(address: str) -> bool:
    """Is this an address of the server's own network, or one nobody should post to? Judged by
    our own table of reserved ranges (rolls/webhooks/reserved.py), never by ``ipaddress``'s
    ``is_private``/``is_global``, which differ between Python's patch releases."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone id is no part of it
    if isinstance(ip, ipaddress.IPv6Address):
        if any(reserved(v4) for v4 in embedded_ipv4(ip)):
            return True
        if ip.ipv4_mapped is not None or ip in NAT64_WELL_KNOWN:
            # That IPv4 address, judged above: ::ffff:93.184.216.34 is a public address, and so
            # is 64:ff9b::808:808 (which a DNS64 resolver of an IPv6-only server answers for
            # 8.8.8.8), though both prefixes lie outside the global unicast space.
            return False
    return bool(reserved(ip))


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    return True


def resolve(url: str) -> Target:
    """The URL's parts and its host's addresses, every one of them checked; raises ``Refused``
    with a sentence for the GM."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise Refused("This isn't a valid URL.") from None
    if parts.scheme not in ("http", "https"):
        raise Refused("Only http:// and https:// URLs can receive webhooks.")
    if not parts.hostname:
        raise Refused("The URL has no host name.")
    if parts.username is not None or parts.password is not None:
        raise Refused("Put no user name or password in the URL.")
    port = port or (443 if parts.scheme == "https" else 80)
    # A name that doesn't resolve and one that resolves to a private address get the same
    # sentence: the form must not let anyone map the server's internal DNS (which names exist
    # inside) by trying names. An address typed as such tells nothing about DNS.
    literal = _is_address(parts.hostname)
    unreachable = (
        f"{parts.hostname} is an address of a private, local or reserved network; "
        "webhooks are only sent to public addresses."
        if literal
        else f"The host {parts.hostname} can't be used: it doesn't resolve, or not only to "
        "public addresses; webhooks are only sent to public addresses."
    )
    try:
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Refused(unreachable) from None
    addresses = tuple(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise Refused(unreachable)
    if not settings.WEBHOOKS_ALLOW_PRIVATE and any(forbidden(a) for a in addresses):
        raise Refused(unreachable)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path, addresses)


class _PinnedHTTP(http.client.HTTPConnection):
    """Connects to the address that was checked, whatever the host name resolves to now."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        # Kept as our own: the connection's copy of it is http.client's private attribute.
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        # The certificate is checked against the URL's host name, as the server name sent.
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str]) -> Answer:
    """POST ``body`` to ``url``; never raises for anything the network or the receiver does."""
    try:
        target = resolve(url)
    except Refused as refused:
        return Answer(None, f"Not sent: {refused}")
    timeout = settings.WEBHOOK_TIMEOUT
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **headers,
    }
    error = ""
    for address in target.addresses:
        kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
        connection = kind(target.host, target.port, address, timeout)
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            response = connection.getresponse()
            answer = response.read(ANSWER_READ_MAX)
            return _judge(response, answer)
        except TimeoutError:
            error = f"No answer within {timeout} seconds."
        except ssl.SSLError as exc:
            return Answer(None, f"TLS failed: {exc.reason or exc}")
        except (OSError, http.client.HTTPException) as exc:
            error = f"Connection failed: {exc or type(exc).__name__}"
        finally:
            connection.close()
    return Answer(None, error)


def _judge(response: http.client.HTTPResponse, answer: bytes) -> Answer:
    status = response.status
    if 200 <= status < 300:
        return Answer(status, "")
    if 300 <= status < 400:
        location = response.getheader("Location", "")[:200]
        return Answer(
            status,
            f"The receiver redirected ({status}) to {location or 'another address'}; "
            "webhooks never follow redirects. Use the final URL.",
        )
    text = answer.decode("utf-8", "replace").strip()
    error = f"The receiver answered {status} {response.reason}" + (f": {text}" if text else ".")
    retry_after = _retry_after(response.getheader("Retry-After")) if status == 429 else None
    return Answer(status, error, retry_after)


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait, from a Retry-After of seconds or of an HTTP date (Discord sends seconds)."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = (parsedate_to_datetime(value) - timezone.now()).total_seconds()
        except (TypeError, ValueError):
            return None
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), RETRY_AFTER_MAX)


# --- what is sent ----------------------------------------------------------------------------


def request_for(webhook: Webhook, delivery: WebhookDelivery) -> tuple[bytes, dict[str, str]]:
    """The body and headers of one delivery, built when it is sent (a signature's timestamp is
    the time of the attempt)."""
    headers = {payloads.DELIVERY_HEADER: delivery.uid}
    if delivery.recap is not None:
        return _recap_request(webhook, delivery.recap, headers)
    if delivery.witness is not None:
        return _witness_request(webhook, delivery, headers)
    record = (
        None
        if delivery.entry_id is None
        else public_record(delivery.entry_id, base_url=settings.SITE_URL)
    )
    if webhook.format == WebhookFormat.DISCORD:
        avatar = _avatar_url(delivery.entry_id)
        message = payloads.discord_message(webhook.campaign, record, avatar)
        return payloads.encode(message), headers
    body = payloads.encode(payloads.json_payload(webhook.campaign, record))
    return body, _signed(webhook, delivery.uid, body)


def _signed(webhook: Webhook, uid: str, body: bytes) -> dict[str, str]:
    """Standard Webhooks' headers for this attempt: the delivery's id, now, and a signature per
    secret the webhook signs with now (two during a rotation's grace)."""
    now = timezone.now()
    secrets = webhook.signing_secrets(now)
    return payloads.signed_headers(secrets, uid, int(now.timestamp()), body)


def _avatar_url(entry_pk: int | None) -> str:
    """The portrait of the entry's character as Discord may fetch it (absolute under SITE_URL,
    by a signed token): "" without one, and never a hidden NPC's (a revealed roll of one is
    sent, its portrait not)."""
    if entry_pk is None:
        return ""
    found = (
        RollEntry.objects.filter(pk=entry_pk, character__hidden_from_players=False)
        .exclude(character__portrait="")
        .values_list("character_id", "character__portrait")
        .first()
    )
    if found is None:
        return ""
    return settings.SITE_URL + reverse("portrait_avatar", args=[avatar_token(*found)])


def _recap_request(
    webhook: Webhook, number: int, headers: dict[str, str]
) -> tuple[bytes, dict[str, str]]:
    """A session's recap, made now from what every member may read."""
    campaign = webhook.campaign
    item = session(campaign.pk, number)
    if item is None:  # markers are never deleted, so this was never a session of the campaign
        raise ValueError(f"Campaign {campaign.pk} has no session {number}.")
    base = settings.SITE_URL
    text = recap.markdown(campaign, item, recap.rows_for(campaign, item, None), base)
    url = base + reverse("campaign_log", args=[campaign.pk]) + f"?session={number}"
    if webhook.format == WebhookFormat.DISCORD:
        message = payloads.discord_recap(campaign, recap.title(item), text, url)
        return payloads.encode(message), headers
    about: payloads.SessionPart = {
        "number": number,
        "title": item.state.title,
        "name": item.state.name,
        "url": url,
    }
    body = payloads.encode(payloads.json_recap(campaign, about, text))
    return body, headers | _signed(webhook, headers[payloads.DELIVERY_HEADER], body)


def queue_recap(campaign_pk: int, number: int) -> list[WebhookDelivery]:
    """The GM posts a session's recap: a delivery per active webhook of the campaign, sent in
    order with the rolls (after the transaction commits)."""
    webhooks = Webhook.objects.active().filter(campaign_id=campaign_pk)
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(webhook=webhook, recap=number) for webhook in webhooks
    )
    for webhook_pk in {delivery.webhook_id for delivery in deliveries}:
        transaction.on_commit(partial(deliver_webhook.enqueue, webhook_pk), robust=True)
    return deliveries


def _witness_request(
    webhook: Webhook, delivery: WebhookDelivery, headers: dict[str, str]
) -> tuple[bytes, dict[str, str]]:
    """The log's fingerprint as it was queued: the token only, never the head's length or hash."""
    witness = delivery.witness_token
    assert witness is not None and delivery.witness is not None
    at = delivery.witness["at"]
    if webhook.format == WebhookFormat.DISCORD:
        return payloads.encode(payloads.discord_witness(webhook.campaign, witness, at)), headers
    body = payloads.encode(payloads.json_witness(webhook.campaign, witness, at))
    return body, _signed(webhook, delivery.uid, body)


def queue_witness(
    campaign_pk: int, head: dict[str, object] | None = None, *, session_end: bool = False
) -> list[WebhookDelivery]:
    """Post the log's fingerprint (docs/verifiable-dice.md#an-outside-witness): one delivery per
    active webhook (at a session's end, those that want it), each sent after the transaction
    commits. ``head`` is the snapshot (``LogHead.witness``) to post, by default the head as it
    stands now."""
    webhooks = Webhook.objects.active().filter(campaign_id=campaign_pk)
    if session_end:
        webhooks = webhooks.filter(witness_sessions=True)
    webhook_pks = list(webhooks.values_list("pk", flat=True))
    if not webhook_pks:
        return []
    if head is None:
        head = LogHead.objects.get(campaign_id=campaign_pk).witness()
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(webhook_id=pk, witness=head) for pk in webhook_pks
    )
    for webhook_pk in webhook_pks:
        transaction.on_commit(partial(deliver_webhook.enqueue, webhook_pk), robust=True)
    return deliveries


def witness_session_end(campaign: Campaign) -> None:
    """At a session's end, inside the transaction that appended its marker: the head as that
    marker left it, posted once the transaction commits — after the marker itself (its
    deliveries are queued on commit too, first), so the channel reads "Session ended", then the
    fingerprint."""
    if not campaign.has_webhooks:  # no query for a campaign without webhooks
        return
    head = LogHead.objects.get(campaign_id=campaign.pk).witness()
    transaction.on_commit(partial(queue_witness, campaign.pk, head, session_end=True), robust=True)


# --- the task --------------------------------------------------------------------------------


@task()
def deliver_webhook(webhook_pk: int) -> str:
    """Send the webhook's waiting deliveries, oldest first, until none is left or one fails
    (then a retry is scheduled and the others wait behind it). Enqueued after every delivery
    is queued and for every retry; a run that finds another worker sending leaves it to that
    one, which looks again for new deliveries before it lets go."""
    while True:
        if not Webhook.objects.claim(webhook_pk):
            return "busy"
        try:
            outcome = _drain(webhook_pk)
        finally:
            Webhook.objects.release(webhook_pk)
        # A delivery queued while this run held the lease found it taken and left it to us.
        if outcome != "drained" or not _due(webhook_pk):
            return outcome


def queue_entry(entry_pk: int) -> list[WebhookDelivery]:
    """After the entry's transaction committed: its deliveries (decided by the models,
    ``WebhookDeliveryQuerySet.record_entry``) and the sending of each webhook that got one."""
    deliveries = WebhookDelivery.objects.record_entry(entry_pk)
    for webhook in dict.fromkeys(delivery.webhook_id for delivery in deliveries):
        deliver_webhook.enqueue(webhook)
    return deliveries


def entry_committed(sender: object, entry_pk: int, **kwargs: object) -> None:
    """Receiver of ``log.models.chain.webhook_entry_committed`` (connected in RollsConfig.ready):
    an appended entry in a campaign with an active webhook has committed."""
    queue_entry(entry_pk)


def send_test(webhook: Webhook) -> WebhookDelivery:
    """Queue a test message (no roll in it) and its sending, after commit."""
    delivery = WebhookDelivery.objects.create(webhook=webhook, entry=None)
    transaction.on_commit(partial(deliver_webhook.enqueue, webhook.pk), robust=True)
    return delivery


def _due(webhook_pk: int) -> bool:
    first = _next(webhook_pk)
    return first is not None and first.is_due(timezone.now())


def _next(webhook_pk: int) -> WebhookDelivery | None:
    return WebhookDelivery.objects.filter(webhook_id=webhook_pk).unsent().order_by("pk").first()


def _drain(webhook_pk: int) -> str:
    while True:
        webhook = Webhook.objects.select_related("campaign").filter(pk=webhook_pk).first()
        if webhook is None:
            return "deleted"
        if not webhook.active:
            return "paused"
        delivery = _next(webhook_pk)
        if delivery is None:
            return "drained"
        if not delivery.is_due(timezone.now()):
            return "waiting"  # its retry is scheduled; the ones after it wait for it
        Webhook.objects.renew(webhook_pk)
        try:
            body, headers = request_for(webhook, delivery)
        except Exception as exc:  # a bug of ours: retried and shown like any failure, not lost
            logger.exception("Webhook %s: delivery %s could not be built", webhook_pk, delivery.pk)
            answer = Answer(
                None, f"Not sent: the message could not be built ({type(exc).__name__})."
            )
        else:
            answer = post(webhook.url, body, headers)
        if not record(webhook, delivery, answer):
            return "failed"


def record(webhook: Webhook, delivery: WebhookDelivery, answer: Answer) -> bool:
    """Write how the attempt went; schedule the retry, or give up and pause the webhook."""
    now = timezone.now()
    delivery.attempts += 1
    delivery.last_attempt_at = now
    delivery.last_status_code = answer.status
    delivery.last_error = answer.error[: WebhookDelivery._meta.get_field("last_error").max_length]
    if answer.ok:
        delivery.status, delivery.next_attempt_at = DeliveryStatus.DELIVERED, None
        with transaction.atomic():
            delivery.save()
            Webhook.objects.filter(pk=webhook.pk).update(consecutive_failures=0)
        return True
    Webhook.objects.filter(pk=webhook.pk).update(consecutive_failures=F("consecutive_failures") + 1)
    if delivery.attempts >= MAX_ATTEMPTS:
        delivery.status, delivery.next_attempt_at = DeliveryStatus.GIVEN_UP, None
        delivery.save()
        webhook.pause(
            f"Paused on {now:%d %b %Y at %H:%M} UTC: a delivery failed {delivery.attempts} times "
            f"in a row (last: {answer.error[:150]}). Check the URL and the receiver, then resume."
        )
        logger.warning("Webhook %s paused after %s failed attempts", webhook.pk, MAX_ATTEMPTS)
        return False
    wait = retry_delay(delivery.attempts)
    if answer.retry_after is not None:
        wait = max(wait, timedelta(seconds=answer.retry_after))
    delivery.status, delivery.next_attempt_at = DeliveryStatus.FAILED, now + wait
    delivery.save()
    deliver_webhook.using(run_after=delivery.next_attempt_at).enqueue(webhook.pk)
    return False
