"""The interactions endpoint Discord posts to, and the pages that link a Discord account
(docs/discord.md)."""

from __future__ import annotations

import json
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from discord import answers
from discord.context import snowflake
from discord.interactions import AUTOCOMPLETE, PING, answer
from discord.models import DiscordLink, Interaction, LinkCode
from discord.signature import SIGNATURE_HEADER, TIMESTAMP_HEADER, verified
from web.http import AuthenticatedHttpRequest, form_data

NOT_SET_UP = (
    "Discord is not set up on this server: set DISCORD_APPLICATION_ID and DISCORD_PUBLIC_KEY "
    "(docs/discord.md)."
)
REMEMBERED = timedelta(days=1)
STILL_ANSWERING = "Poolside is still answering this interaction."
LINK_GONE = "This link has expired or was used; ask for a new one with /poolside link."


def _text(status: int, text: str) -> HttpResponse:
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


def _claimed(interaction_id: str) -> Interaction | None:
    """Remember the interaction before carrying it out; the one remembered already (a retry)
    when Discord sent it before."""
    # Discord retries within seconds and an interaction's token lives 15 minutes: a day's
    # memory is plenty, and keeps the table small without a job of its own.
    Interaction.objects.filter(received_at__lt=timezone.now() - REMEMBERED).delete()
    try:
        with transaction.atomic():
            Interaction.objects.create(interaction=interaction_id)
    except IntegrityError:
        return Interaction.objects.get(interaction=interaction_id)
    return None


@csrf_exempt  # Discord signs its requests instead; it has no CSRF token to send
@require_POST
def interactions(request: HttpRequest) -> HttpResponse:
    """Discord's HTTP interactions endpoint: the signature is checked over the raw body before
    any of it is read, and each interaction is carried out once however often it is sent."""
    if not settings.DISCORD_PUBLIC_KEY or not settings.DISCORD_APPLICATION_ID:
        return _text(503, NOT_SET_UP)
    body = request.body
    signature = request.headers.get(SIGNATURE_HEADER, "")
    timestamp = request.headers.get(TIMESTAMP_HEADER, "")
    if not verified(settings.DISCORD_PUBLIC_KEY, signature, timestamp, body):
        return _text(401, "Invalid request signature, or a stale timestamp.")
    try:
        interaction: object = json.loads(body)
    except ValueError:
        return _text(400, "The body is not JSON.")
    if not isinstance(interaction, dict) or not snowflake(interaction.get("id")):
        return _text(400, "The body is not an interaction.")
    if interaction.get("type") == PING:
        return JsonResponse({"type": answers.PONG})
    if interaction.get("type") == AUTOCOMPLETE:
        # Reads only, and Discord sends one per keystroke: nothing to remember.
        return JsonResponse(answer(request, interaction))
    interaction_id = snowflake(interaction["id"])
    seen = _claimed(interaction_id)
    if seen is not None:
        return JsonResponse(seen.answer or answers.private(STILL_ANSWERING))
    reply = answer(request, interaction)
    # Never a credential at rest: a link's answer is stored without its code (answers.Secret).
    Interaction.objects.filter(interaction=interaction_id).update(answer=answers.to_keep(reply))
    return JsonResponse(reply)


@login_required
def link(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    """The page a ``/poolside link`` link opens: confirm, and this account is the Discord
    user's. The code works once and expires; an unknown and a used one answer alike."""
    found = LinkCode.objects.usable().filter(digest=LinkCode.digest_of(code)).first()
    if found is None:
        raise Http404(LINK_GONE)
    if form_data(request) is None:
        return render(request, "discord/link.html", {"code": found})
    with transaction.atomic():
        # Used up by this very statement: of two confirmations at once, only one deletes it.
        used, _ = LinkCode.objects.filter(pk=found.pk).delete()
        if not used:
            raise Http404(
                "This link has expired or was used; ask for a new one with /poolside link."
            )
        # One Discord user per account and one account per Discord user: a new link replaces
        # either side's old one.
        DiscordLink.objects.filter(discord_user=found.discord_user).delete()
        DiscordLink.objects.update_or_create(
            user=request.user,
            defaults={"discord_user": found.discord_user, "discord_name": found.discord_name},
        )
    messages.success(request, f"Your account is linked to Discord's {found.discord_name}.")
    return redirect("account")


@login_required
@require_POST
def unlink(request: AuthenticatedHttpRequest) -> HttpResponse:
    DiscordLink.objects.filter(user=request.user).delete()
    messages.success(request, "Your account is no longer linked to Discord.")
    return redirect("account")
