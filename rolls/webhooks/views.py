"""The GM's webhooks page: the campaign's webhooks with their delivery logs, the form to add one,
per webhook pause/resume, "send a test", the fingerprint at a session's end on or off, and delete;
and "post the log's fingerprint now" to every active webhook.

One view serves HTMX and plain requests: HTMX gets the page's ``webhooks`` partial (with the form's
messages when it was refused), a plain POST a redirect (or the page with the messages, 400). Only
the GM: a player gets 403, a non-member 404 (``campaign_for_gm``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from rolls.models import Webhook, WebhookDelivery
from rolls.webhooks.delivery import queue_witness, send_test
from rolls.webhooks.forms import WebhookForm
from sheets.access import campaign_for_gm
from sheets.models import Campaign
from web.http import AuthenticatedHttpRequest, form_data

LOG_SIZE = 10  # deliveries shown per webhook, newest first

PAGE = "rolls/webhooks.html"


def _context(campaign: Campaign, form: WebhookForm | None = None) -> dict[str, Any]:
    """The webhooks and the last deliveries of each: two queries, however many there are."""
    webhooks = list(campaign.webhooks.order_by("pk"))
    ranked = (
        WebhookDelivery.objects.filter(webhook__campaign=campaign)
        .annotate(
            rank=Window(RowNumber(), partition_by=F("webhook_id"), order_by=F("pk").desc()),
            seq=F("entry__seq"),
            character_name=F("entry__character_name"),
            label=F("entry__label"),
        )
        .filter(rank__lte=LOG_SIZE)
        .order_by("webhook_id", "-pk")
    )
    log: dict[int, list[WebhookDelivery]] = {}
    for delivery in ranked:
        log.setdefault(delivery.webhook_id, []).append(delivery)
    for webhook in webhooks:
        webhook.log = log.get(webhook.pk, [])  # type: ignore[attr-defined]
    return {
        "campaign": campaign,
        "webhooks": webhooks,
        "form": form or WebhookForm(campaign),
        "now": timezone.now(),
    }


def _answer(
    request: AuthenticatedHttpRequest, campaign: Campaign, text: str, level: int = messages.SUCCESS
) -> HttpResponse:
    if request.htmx:
        context = _context(campaign) | {"notice": text}
        return render(request, f"{PAGE}#webhooks", context)
    messages.add_message(request, level, text)
    return redirect("campaign_webhooks", pk=campaign.pk)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_webhooks(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = WebhookForm(campaign, form_data(request))
    if request.method == "POST":
        if form.is_valid():
            webhook = form.save()
            text = f"Added the {webhook.get_format_display()} webhook."
            if webhook.signs:
                text += " Give its secret to the receiver: it checks the signature with it."
            return _answer(request, campaign, text)
        context = _context(campaign, form) | {"membership": membership}
        if request.htmx:  # htmx swaps only a 2xx: the section comes back with the messages
            return render(request, f"{PAGE}#webhooks", context)
        return render(request, PAGE, context, status=400)
    return render(request, PAGE, _context(campaign) | {"membership": membership})


ACTIONS = ("pause", "resume", "test", "witness-on", "witness-off", "rotate", "end-rotation")


@login_required
@require_POST
def webhook_action(
    request: AuthenticatedHttpRequest, pk: int, webhook_pk: int, action: str
) -> HttpResponse:
    """Pause, resume, queue a test message, turn the fingerprint at a session's end on or off,
    or rotate the signing secret (and end the rotation's grace)."""
    campaign, _ = campaign_for_gm(request, pk)
    webhook = get_object_or_404(campaign.webhooks, pk=webhook_pk)
    if action not in ACTIONS:
        raise Http404("No such webhook action.")
    if action in ("rotate", "end-rotation"):
        return _answer(request, campaign, _rotation(webhook, action))
    if action == "pause":
        if webhook.active:
            webhook.pause("Paused by the GM.")
        text = "Paused the webhook: rolls are not sent to it until you resume it."
    elif action == "resume":
        webhook.resume()
        text = "Resumed the webhook: the next readable roll is sent to it."
    elif action.startswith("witness-"):
        on = action == "witness-on"
        campaign.webhooks.filter(pk=webhook.pk).update(witness_sessions=on)
        text = (
            "The log's fingerprint will be posted to this webhook when a session ends."
            if on
            else "The log's fingerprint is no longer posted to this webhook when a session ends."
        )
    elif not webhook.active:
        text = "Resume the webhook to send a test."
    else:
        send_test(webhook)
        text = "A test message is on its way; its delivery shows below."
    return _answer(request, campaign, text)


def _rotation(webhook: Webhook, action: str) -> str:
    if not webhook.signs:
        return "A Discord webhook is not signed: its URL is its secret."
    if action == "end-rotation":
        webhook.end_rotation()
        return "Deliveries are signed with the new secret only."
    webhook.rotate(timezone.now())
    until = timezone.localtime(webhook.previous_until)
    return (
        "A new signing secret: give it to the receiver. Until "
        f"{until:%d %b %Y at %H:%M %Z} deliveries carry a signature by the old one too."
    )


@login_required
@require_POST
def webhook_witness(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Post the log's fingerprint now to every active webhook: a copy of the signed head outside
    the server, which tells the channel nothing of the log (docs/verifiable-dice.md)."""
    campaign, _ = campaign_for_gm(request, pk)
    with transaction.atomic():
        deliveries = queue_witness(campaign.pk)
    if not deliveries:
        text = "This campaign has no active webhook to post the log's fingerprint to."
        return _answer(request, campaign, text, messages.ERROR)
    count = len(deliveries)
    where = "its webhook" if count == 1 else f"{count} webhooks"
    text = f"The log's fingerprint is on its way to {where}; its deliveries show below."
    return _answer(request, campaign, text)


@login_required
@require_http_methods(["GET", "POST"])
def webhook_delete(request: AuthenticatedHttpRequest, pk: int, webhook_pk: int) -> HttpResponse:
    campaign, _ = campaign_for_gm(request, pk)
    webhook = get_object_or_404(campaign.webhooks, pk=webhook_pk)
    if request.method == "POST":
        webhook.remove()
        return _answer(request, campaign, "Deleted the webhook and its delivery log.")
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": "Delete this webhook?",
            "body": f"Rolls stop going to {webhook.display_url}, and its delivery log is "
            "deleted with it.",
            "action": reverse("webhook_delete", args=[campaign.pk, webhook.pk]),
            "button": "Delete webhook",
            "cancel_url": reverse("campaign_webhooks", args=[campaign.pk]),
        },
    )
