"""Who and where an interaction is: the Discord user's linked Poolside user, the channel's bound
campaign, and the user's membership of it. Anything missing ends the interaction with a private
message saying what to do (:class:`Stop`), and nothing else happens (docs/discord.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.http import HttpRequest

from discord.models import ChannelBinding, DiscordLink
from sheets.models import Campaign, Membership

NOT_LINKED = (
    "Your Discord account isn't linked to Poolside yet. Use `/poolside link` to get a private "
    "link, log in to Poolside with it and confirm."
)
NOT_BOUND = (
    "This channel plays no Poolside campaign. A linked GM who may manage the server or its "
    "channels binds it to one of their campaigns with `/poolside-bind`."
)
NOT_MEMBER = (
    "You're not a member of the campaign this channel plays. Ask its GM for an invite link."
)


# A Discord id (a "snowflake"): a 64-bit integer, sent as up to 20 ASCII digits.
SNOWFLAKE = re.compile(r"^[0-9]{1,20}$")


def snowflake(value: object) -> str:
    """A Discord id as sent, or "" when it can't be one."""
    text = str(value) if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    return text if SNOWFLAKE.match(text) else ""


class Stop(Exception):
    """End the interaction with ``message``, privately: nothing is written, nothing is posted."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def discord_user(interaction: dict[str, object]) -> dict[str, object]:
    """The Discord user who acted: in a server, the member's user; in a direct message, the
    user."""
    member = interaction.get("member")
    found = member.get("user") if isinstance(member, dict) else interaction.get("user")
    if not isinstance(found, dict) or not snowflake(found.get("id")):
        raise Stop("Discord sent no user with this interaction.")
    return found


# Discord's permission bits (Permissions: "Bitwise Permission Flags"). Binding a channel is the
# server's business: its managers decide which campaign a channel plays.
ADMINISTRATOR, MANAGE_CHANNELS, MANAGE_GUILD = 0x8, 0x10, 0x20
MANAGES = ADMINISTRATOR | MANAGE_CHANNELS | MANAGE_GUILD
PERMISSIONS = re.compile(r"^[0-9]{1,40}$")


def manages_server(interaction: dict[str, object]) -> bool:
    """Whether the member who acted may manage the server or its channels: Manage Server,
    Manage Channels or Administrator in ``member.permissions``, the member's total permissions
    in this channel (overwrites included) as Discord computed them, a bit set sent as a string
    of digits. Outside a server (no member) nobody does."""
    member = interaction.get("member")
    given = member.get("permissions") if isinstance(member, dict) else None
    if not isinstance(given, str) or not PERMISSIONS.match(given):
        return False
    return bool(int(given) & MANAGES)


def display_name(user: dict[str, object]) -> str:
    return str(user.get("global_name") or user.get("username") or user["id"])[:100]


@dataclass
class Here:
    """The linked user, the request acting as them, and (when needed) the channel's campaign
    with their membership of it."""

    user: User
    request: HttpRequest
    campaign: Campaign | None = None
    membership: Membership | None = None
    guild: str = ""
    channel: str = ""
    # The interaction's id: Discord chose it, and it is in the answer's message for anyone in
    # the channel to read, so it is the dice's nonce (the server can't pick it).
    interaction: str = ""

    @property
    def member(self) -> Membership:
        assert self.membership is not None  # bound() found it
        return self.membership


def linked(request: HttpRequest, interaction: dict[str, object]) -> Here:
    """The interaction as its linked Poolside user. The request's user becomes them, so the
    permission helpers the pages and the API use (sheets/access.py, rolls/rolling/access.py)
    answer for them exactly as they would on a page; refuses an unlinked Discord user."""
    who = discord_user(interaction)
    link = (
        DiscordLink.objects.select_related("user").filter(discord_user=snowflake(who["id"])).first()
    )
    if link is None or not link.user.is_active:
        raise Stop(NOT_LINKED)
    request.user = link.user
    return Here(
        user=link.user,
        request=request,
        guild=snowflake(interaction.get("guild_id")),
        channel=snowflake(interaction.get("channel_id")),
        interaction=snowflake(interaction.get("id")),
    )


def bound(request: HttpRequest, interaction: dict[str, object]) -> Here:
    """:func:`linked`, in a channel bound to a campaign the user is a member of."""
    here = linked(request, interaction)
    binding = (
        ChannelBinding.objects.select_related("campaign").filter(channel=here.channel).first()
        if here.channel
        else None
    )
    if binding is None:
        raise Stop(NOT_BOUND)
    membership = (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=binding.campaign_id, user=here.user)
        .first()
    )
    if membership is None:
        raise Stop(NOT_MEMBER)
    here.campaign, here.membership = membership.campaign, membership
    return here
