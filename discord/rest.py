"""Calls to Discord's REST API, made by the task worker (`manage.py db_worker`), never while
Discord waits for an interaction's answer: registering the commands, and editing a deferred
answer once the slow part is done (docs/discord.md).

The address is ``DISCORD_API_URL`` (Discord's, unless a test points it at a stand-in); the bot
token authenticates the command registrations, the interaction's own token the edit.
"""

from __future__ import annotations

import json
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass
from urllib.parse import quote

from django.conf import settings
from django.tasks import task

from discord.commands import global_commands, guild_commands
from discord.models import ChannelBinding
from sheets.systems import rule_system

logger = logging.getLogger(__name__)

TIMEOUT = 10  # seconds for each call: a worker never hangs on Discord
USER_AGENT = "DiscordBot (Poolside, 1)"  # the form Discord asks bots to send
ANSWER_READ_MAX = 65536


class DiscordError(Exception):
    """Discord refused a call, or didn't answer."""


@dataclass(frozen=True)
class Answer:
    status: int
    body: object


def call(method: str, path: str, payload: object, *, bot: bool = True) -> Answer:
    """One call to Discord's API with a JSON body; raises :class:`DiscordError` on anything
    but a 2xx, with Discord's own message."""
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT}
    if bot:
        headers["Authorization"] = f"Bot {settings.DISCORD_BOT_TOKEN}"
    request = urllib.request.Request(  # noqa: S310 — the address below, as for urlopen
        settings.DISCORD_API_URL + path,
        data=json.dumps(payload).encode(),
        headers=headers,
        method=method,
    )
    try:
        # settings.DISCORD_API_URL: Discord's https address, or a test's local stand-in.
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310
            raw = response.read(ANSWER_READ_MAX)
            return Answer(response.status, json.loads(raw) if raw else None)
    except urllib.error.HTTPError as refused:
        text = refused.read(ANSWER_READ_MAX).decode(errors="replace")
        raise DiscordError(f"Discord answered {refused.code}: {text[:500]}") from None
    except (OSError, ValueError) as failed:
        raise DiscordError(f"Discord could not be reached: {failed}") from None


def register_global() -> Answer:
    app = settings.DISCORD_APPLICATION_ID
    return call("PUT", f"/applications/{app}/commands", global_commands())


def guild_system(guild: str) -> str | None:
    """The rule system a server's channels play (one per server), or None when none is bound."""
    return (
        ChannelBinding.objects.filter(guild=guild)
        .values_list("campaign__system", flat=True)
        .first()
    )


def register_guild(guild: str) -> Answer | None:
    """Overwrite the server's commands with those of the system its channels play."""
    system = guild_system(guild)
    if system is None:
        return None
    app = settings.DISCORD_APPLICATION_ID
    return call(
        "PUT", f"/applications/{app}/guilds/{guild}/commands", guild_commands(rule_system(system))
    )


def edit_answer(token: str, message: dict[str, object]) -> Answer:
    """Edit a deferred interaction's answer (its "original response"), within the 15 minutes
    its token lives."""
    app = settings.DISCORD_APPLICATION_ID
    path = f"/webhooks/{app}/{quote(token, safe='')}/messages/@original"
    return call("PATCH", path, message, bot=False)


@task()
def register_and_answer(guild: str, token: str, done: str) -> str:
    """After a channel is bound: register the server's commands, then tell the GM (the deferred
    answer) whether /roll is ready."""
    try:
        register_guild(guild)
    except DiscordError as failed:
        logger.warning("Registering the commands of server %s failed: %s", guild, failed)
        text = (
            f"{done} Registering this server's commands failed ({failed}); the site's "
            "administrator can run `manage.py discord_commands` to try again."
        )
    else:
        text = f"{done} `/roll`, `/odds` and `/sheet` are ready in this server."
    try:
        edit_answer(token, {"content": text, "allowed_mentions": {"parse": []}})
    except DiscordError as failed:
        logger.warning("Editing a deferred answer failed: %s", failed)
        return "unanswered"
    return "answered"
