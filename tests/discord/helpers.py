"""Talking to the interactions endpoint as Discord does: a locally made Ed25519 key pair signs
each request over the timestamp and the raw body (tests/discord/conftest.py puts the public half
in the settings), and interactions are built as Discord's documentation shows them."""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from nacl.signing import SigningKey

from discord.models import ChannelBinding, DiscordLink
from tests.factories import ChannelBindingFactory, DiscordLinkFactory

ENDPOINT = "/discord/interactions/"
GUILD = "700000000000000001"
CHANNEL = "800000000000000042"
APPLICATION = "600000000000000001"
EPHEMERAL = 64

_ids = itertools.count(500000000000000000)


def interaction_id() -> str:
    return str(next(_ids))


def sign(key: SigningKey, body: bytes, timestamp: str | None = None) -> dict[str, str]:
    timestamp = timestamp or str(int(time.time()))
    signature = key.sign(timestamp.encode() + body).signature.hex()
    return {"HTTP_X_SIGNATURE_ED25519": signature, "HTTP_X_SIGNATURE_TIMESTAMP": timestamp}


def post(client: Any, key: SigningKey, payload: Any, **headers: str) -> Any:
    body = json.dumps(payload).encode()
    signed = sign(key, body) | headers
    return client.post(
        reverse("discord_interactions"), body, content_type="application/json", **signed
    )


def _user(discord_user: str) -> dict[str, Any]:
    return {"id": discord_user, "username": f"user{discord_user[-4:]}", "global_name": None}


def interaction(
    kind: int, discord_user: str, data: dict[str, Any], *, channel: str = CHANNEL, **extra: Any
) -> dict[str, Any]:
    return {
        "id": interaction_id(),
        "application_id": APPLICATION,
        "type": kind,
        "token": "interaction-token-" + interaction_id(),
        "version": 1,
        "guild_id": GUILD,
        "channel_id": channel,
        "member": {"user": _user(discord_user), "roles": []},
        "data": data,
    } | extra


def options(values: dict[str, Any], focused: str = "") -> list[dict[str, Any]]:
    return [
        {"name": name, "type": 3, "value": value} | ({"focused": True} if name == focused else {})
        for name, value in values.items()
    ]


def command(discord_user: str, name: str, sub: str = "", **values: Any) -> dict[str, Any]:
    given = options(values)
    if sub:
        given = [{"name": sub, "type": 1, "options": given}]
    return interaction(2, discord_user, {"id": "1", "name": name, "type": 1, "options": given})


# Discord's permission bits as a member's ``permissions`` carries them (a string of digits).
MANAGE_CHANNELS, MANAGE_GUILD = str(0x10), str(0x20)
# What a member who may only talk has: View Channel, Send Messages, Read Message History, …
TALKS = str(0x400 | 0x800 | 0x10000 | 0x40 | 0x80000000)


def bind(discord_user: str, campaign: Any, permissions: str = MANAGE_GUILD) -> dict[str, Any]:
    """``/poolside-bind campaign:`` by a member with ``permissions`` in the channel."""
    sent = command(discord_user, "poolside-bind", campaign=campaign)
    sent["member"]["permissions"] = permissions
    return sent


def autocomplete(
    discord_user: str, name: str, focused: str, sub: str = "", **values: Any
) -> dict[str, Any]:
    given = options(values, focused)
    if sub:
        given = [{"name": sub, "type": 1, "options": given}]
    return interaction(4, discord_user, {"id": "1", "name": name, "type": 1, "options": given})


def press(discord_user: str, custom_id: str) -> dict[str, Any]:
    return interaction(3, discord_user, {"custom_id": custom_id, "component_type": 2})


def target_value(character: Any, kind: str, row: Any) -> str:
    return f"{character.pk}.{kind}.{row.pk}"


@dataclass
class Table:
    """A party playing in a bound Discord channel: each of its people linked."""

    party: Any
    links: dict[str, DiscordLink]
    binding: ChannelBinding

    def id(self, who: str) -> str:
        return self.links[who].discord_user


def at_the_table(party: Any) -> Table:
    people = ("gm", "player", "other_player", "observer", "nonmember")
    links = {who: DiscordLinkFactory(user=getattr(party, who)) for who in people}
    binding = ChannelBindingFactory(channel=CHANNEL, guild=GUILD, campaign=party.campaign)
    return Table(party, links, binding)


def buttons(answer: dict[str, Any]) -> list[dict[str, Any]]:
    rows = answer["data"].get("components", [])
    return [button for row in rows for button in row["components"]]


def is_private(answer: dict[str, Any]) -> bool:
    return bool(answer["data"].get("flags", 0) & EPHEMERAL)


def a_row(party: Any) -> tuple[str, Any]:
    """A row the party's pc (Ada) can roll, in the party's system: its URL kind and the row."""
    sheet_name = party.campaign.system
    if sheet_name == "cogent":
        return "cogent-skill", party.pc.cogent.skills.get(name="Athletics")
    if sheet_name == "dad6":
        skill, _ = party.pc.dad6.skills.get_or_create(name="Tracking", is_class_skill=True)
        return "dad6-skill", skill
    return "cold-stars-skill", party.pc.cold_stars.skills.get(name="Piloting")


def roll(client: Any, key: SigningKey, table: Table, who: str = "player", **values: Any) -> Any:
    """``/roll`` as ``who``, of Ada's row unless ``target`` is given; the answer's JSON."""
    if "target" not in values:
        kind, row = a_row(table.party)
        values["target"] = target_value(table.party.pc, kind, row)
    return post(client, key, command(table.id(who), "roll", **values)).json()
