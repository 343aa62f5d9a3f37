"""``/poolside`` (link, unbind), ``/poolside-bind`` and ``/sheet``: joining Discord to Poolside,
and a character in brief (docs/discord.md)."""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest
from django.urls import reverse

from discord import answers, rest
from discord.context import (
    NOT_BOUND,
    Here,
    Stop,
    bound,
    discord_user,
    display_name,
    linked,
    manages_server,
    snowflake,
)
from discord.models import LINK_CODE_LIFETIME, ChannelBinding, LinkCode
from rolls.rolling.display import headline
from rolls.rolling.waiting import ASSIST_WAITING, priced_targets
from rolls.webhooks import payloads
from sheets.access import character_for_reader
from sheets.converters import parse_id
from sheets.models import Campaign, Character, Membership

MANAGERS_ONLY = (
    "Only someone who may manage this server or its channels (Discord's Manage Server or "
    "Manage Channels permission) can bind a channel to a campaign, and only to one they are "
    "the GM of."
)
SHEET_ROWS_MAX = 40  # rows in /sheet's summary: the description's 4,096 characters hold them


def link(interaction: dict[str, object]) -> dict[str, object]:
    """A one-time link, shown only to the user, that links their Discord user to the Poolside
    account that opens it and confirms."""
    who = discord_user(interaction)
    code = LinkCode.issue(snowflake(who["id"]), display_name(who))
    url = settings.SITE_URL + reverse("discord_link", args=[code])
    minutes = int(LINK_CODE_LIFETIME.total_seconds() // 60)
    return answers.Secret(
        answers.private(
            f"Open this link, log in to Poolside and confirm to link your Discord account "
            f"(it works once, for {minutes} minutes; don't share it):\n{url}"
        ),
        # What a retry of this interaction gets: the code was shown once and is stored nowhere.
        kept=answers.private(
            "Poolside answered this with a private one-time link. If it didn't reach you, use "
            "`/poolside link` again for a new one."
        ),
    )


def gm_campaigns(here: Here, typed: str) -> list[tuple[str, str]]:
    typed = typed.casefold()
    memberships = Membership.objects.filter(user=here.user).select_related("campaign")
    return [
        (f"{m.campaign.name} ({m.campaign.get_system_display()})", str(m.campaign_id))
        for m in memberships.order_by("campaign__name")
        if m.is_gm and typed in m.campaign.name.casefold()
    ]


def _campaign_of_gm(here: Here, value: object) -> Campaign:
    pk = parse_id(str(value or ""))
    membership = (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=pk or 0, user=here.user)
        .first()
    )
    # A campaign the user doesn't run and one that doesn't exist answer alike.
    if membership is None or not membership.is_gm:
        raise Stop("Choose one of the campaigns you are the GM of from the list.")
    return membership.campaign


def bind(request: HttpRequest, interaction: dict[str, object], value: object) -> dict[str, object]:
    """Bind the channel to one of the GM's campaigns, then (deferred: Discord's API may take
    longer than the 3 seconds an answer may) register the server's commands for its system."""
    here = linked(request, interaction)
    if not here.guild or not here.channel:
        raise Stop("Bind a channel of a server: a direct message plays no campaign.")
    # Which campaign a channel plays is the server's business: whoever can merely type in a
    # channel must not squat it (and, one system per server, the whole server) for theirs.
    if not manages_server(interaction):
        raise Stop(MANAGERS_ONLY)
    campaign = _campaign_of_gm(here, value)
    current = ChannelBinding.objects.filter(channel=here.channel).first()
    if current is not None and current.campaign_id != campaign.pk:
        raise Stop(
            "This channel already plays a campaign; its GM or a server manager unbinds it "
            "first with `/poolside unbind`."
        )
    # A server's /roll takes one system's options: its channels all play that system.
    others = ChannelBinding.objects.filter(guild=here.guild).exclude(channel=here.channel)
    if others.exclude(campaign__system=campaign.system).exists():
        raise Stop(
            "This server's other channels play another rule system, and a server's /roll "
            f"takes one system's options: bind a channel of another server to {campaign.name}."
        )
    with transaction.atomic():
        ChannelBinding.objects.update_or_create(
            channel=here.channel, defaults={"guild": here.guild, "campaign": campaign}
        )
        transaction.on_commit(
            partial(
                rest.register_and_answer.enqueue,
                here.guild,
                str(interaction.get("token", "")),
                f"This channel now plays {campaign.name}.",
            ),
            robust=True,
        )
    return {"type": answers.DEFERRED_CHANNEL_MESSAGE, "data": {"flags": answers.EPHEMERAL}}


def unbind(request: HttpRequest, interaction: dict[str, object]) -> dict[str, object]:
    """The bound campaign's GM, or anyone who may manage the server or its channels (linked or
    not: it is their server's channel), ends the binding."""
    channel = snowflake(interaction.get("channel_id"))
    if not manages_server(interaction):
        here = bound(request, interaction)
        if not here.member.is_gm:
            raise Stop(
                "Only the campaign's GM, or someone who may manage this server or its channels, "
                "can unbind this channel."
            )
    elif not channel or not ChannelBinding.objects.filter(channel=channel).exists():
        raise Stop(NOT_BOUND)
    ChannelBinding.objects.filter(channel=channel).delete()
    return answers.private("This channel no longer plays a campaign.")


def readable(here: Here, typed: str) -> list[tuple[str, str]]:
    typed = typed.casefold()
    characters = Character.objects.visible_to(here.member)
    return [(c.name, str(c.pk)) for c in characters if typed in c.name.casefold()]


def sheet(here: Here, value: object) -> dict[str, object]:
    """A character in brief, as its reader may read it: each row's pool and odds at the
    panel's default options. Only to the asker."""
    try:
        character, _ = character_for_reader(here.request, parse_id(str(value or "")) or 0)  # type: ignore[arg-type]
    except (Http404, PermissionDenied):
        character = None
    if character is None or character.campaign_id != here.member.campaign_id:
        raise Stop("Choose a character of this channel's campaign from the list.")
    rows = priced_targets(character, here.member)
    lines = [
        f"**{payloads.plain(row.target.label)}**: {headline(row.bands)}"
        + (f" ({ASSIST_WAITING}: {payloads.plain(row.assist)})" if row.assist else "")
        for row in rows[:SHEET_ROWS_MAX]
    ]
    if len(rows) > SHEET_ROWS_MAX:
        lines.append(f"… and {len(rows) - SHEET_ROWS_MAX} more on the sheet.")
    return answers.private_embed(
        {
            "title": payloads.plain(character.name),
            "url": settings.SITE_URL + character.get_absolute_url(),
            "description": "\n".join(lines) or "Nothing to roll on this sheet yet.",
            "footer": {"text": f"{character.campaign.name} · odds at the default options"},
        }
    )
