"""What a webhook posts: a Discord message (one embed per roll, inside Discord's documented limits)
or the generic JSON body and its HMAC-SHA256 signature (docs/webhooks.md has examples and the
receiver's check).

Both are built from the entry's public record (``rolls.log.records.public_record``: the entry as
the API returns it to a member who may read it), never from the model, so a webhook can't carry a
field the API wouldn't show a player.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TypedDict

from log.models import READING_WORDS, kind_info
from log.models.kinds import WebhookShape
from log.models.texts import TITLE_REMOVED
from proofs.witness import Witness
from rolls.log.records import Record
from rolls.messages.text import speaker_name
from rolls.models.webhooks import SECRET_PREFIX
from rolls.rolling.display import percent
from sheets.models import Campaign

# Standard Webhooks (standardwebhooks.com, spec 1.0): the delivery's id, the attempt's time, and
# the signatures of "<id>.<timestamp>.<body>".
DELIVERY_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
SIGNATURE_HEADER = "webhook-signature"

# Discord's embed limits (discord.com/developers/docs/resources/message#embed-object-embed-limits):
# characters per part, and across every title, description, field, footer and author of a message.
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
EMBEDS_MAX = 10  # per message; Poolside sends one

ELLIPSIS = "…"

# The embed's colour bar, by how the roll went (Discord takes an integer RGB).
SUCCESS_COLOUR = 0x2E7D32
FAILURE_COLOUR = 0xC62828
OTHER_COLOUR = 0x546E7A
SUCCESSES = frozenset({"critical_success", "success", "costly_success"})
FAILURES = frozenset({"failure", "critical_failure"})


class EmbedField(TypedDict):
    name: str
    value: str
    inline: bool


class EmbedFooter(TypedDict):
    text: str


class EmbedAuthor(TypedDict):
    name: str


class Embed(TypedDict, total=False):
    """The parts of Discord's embed object Poolside sends (discord.com/developers/docs/resources/
    message#embed-object)."""

    title: str
    url: str
    description: str
    author: EmbedAuthor
    fields: list[EmbedField]
    footer: EmbedFooter
    timestamp: str
    color: int


class AllowedMentions(TypedDict):
    parse: list[str]


class DiscordMessage(TypedDict, total=False):
    """What Discord's "Execute Webhook" takes, as far as Poolside fills it."""

    username: str
    avatar_url: str
    allowed_mentions: AllowedMentions
    embeds: list[Embed]


class CampaignPart(TypedDict):
    id: int
    name: str
    system: str


class SessionPart(TypedDict):
    """A recap's session, in the generic JSON body."""

    number: int
    title: str
    name: str
    url: str


def campaign_part(campaign: Campaign) -> CampaignPart:
    return {"id": campaign.pk, "name": campaign.name, "system": campaign.system}


# --- generic JSON ----------------------------------------------------------------------------


def json_payload(campaign: Campaign, record: Record | None) -> dict[str, object]:
    """``{"event": "roll", "campaign": …, "entry": <the API's record>}`` (``"message"`` for a
    message or its correction); a test message (no entry) is ``{"event": "test", "campaign": …}``."""
    if record is None:
        return {"event": "test", "campaign": campaign_part(campaign)}
    event = "message" if _shape(record) == "message" else "roll"
    return {"event": event, "campaign": campaign_part(campaign), "entry": record}


def _shape(record: Mapping[str, object]) -> WebhookShape:
    """How the entry's kind is posted: "roll", "message" or "marker" (``KindInfo.webhook_shape``)."""
    return kind_info(str(record["kind"])).webhook_shape


def encode(payload: Mapping[str, object]) -> bytes:
    """The body as sent and as signed: compact UTF-8 JSON."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def secret_key(secret: str) -> bytes:
    """The HMAC key a ``whsec_…`` secret stands for: the bytes its base64 encodes."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def signature(secret: str, delivery: str, timestamp: int, body: bytes) -> str:
    """``v1,`` and the base64 HMAC-SHA256, keyed with the secret's bytes, of
    ``"<delivery id>.<timestamp>.<body>"``: the id and the time are signed with the body, so a
    captured delivery can neither be replayed later (the receiver refuses old timestamps) nor
    passed off as a new one inside the window (the receiver drops an id it has seen)."""
    signed = f"{delivery}.{timestamp}.".encode() + body
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signed_headers(
    secrets: Sequence[str], delivery: str, timestamp: int, body: bytes
) -> dict[str, str]:
    """The three headers; one signature per secret (two while a rotation's grace lasts),
    space-separated, as Standard Webhooks has it."""
    return {
        DELIVERY_HEADER: delivery,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: " ".join(signature(s, delivery, timestamp, body) for s in secrets),
    }


# --- Discord ---------------------------------------------------------------------------------


def clip(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, cut with an ellipsis."""
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS


# Discord's markdown takes a backslash before any punctuation as "this character, literally"
# (its escape rule), and links a bare ``scheme://…`` URL, ``<scheme:…>``, and mentions, channels,
# emoji and timestamps written ``<@…>``, ``<#…>``, ``<:…:…>``, ``<t:…>``. So beyond markdown's
# own characters, ``:`` (every scheme), ``/``, ``.`` (a bare domain), ``<`` and ``@`` are escaped:
# no URL, mention or tag survives as one, whatever the client's link detection, and each still
# reads as the character typed. Nothing is sent as message content, so nothing unfurls into a
# preview either; the embed's only link is the entry's permalink (docs/webhooks.md).
_MARKDOWN = re.compile(r"([\\*_~`|>#\[\]<:/.@-])")


def plain(text: str) -> str:
    """Names and labels are the players' own text: shown as written, never as Discord markdown
    (a name of ``**bold**`` or ``[a link](…)`` stays literal), a link (``https://…``, a bare
    domain) or a mention (``@everyone``, ``<@123>``)."""
    return _MARKDOWN.sub(r"\\\1", text)


def _odds(record: Record) -> str:
    try:
        return percent(Fraction(record["odds"]))
    except (ValueError, ZeroDivisionError, KeyError, TypeError):
        return ""


def _dice(faces: list[Mapping[str, object]]) -> str:
    """Every die as ``face`` (its reading, in the log's words): ``5 (win), 2 (no win)``."""
    words = []
    for die in faces:
        reading = str(die.get("reading", ""))
        reading = READING_WORDS.get(reading, reading.replace("_", " "))
        words.append(f"{die.get('face')} ({reading})" if reading else str(die.get("face")))
    return ", ".join(words)


def discord_message(
    campaign: Campaign, record: Record | None, avatar_url: str = ""
) -> DiscordMessage:
    """The message Discord's "Execute Webhook" takes: one embed (who, what, outcome, dice, odds,
    a link to the permalink). ``allowed_mentions`` is empty, so a character named
    ``@everyone`` pings nobody."""
    footer = f"{campaign.name} · {campaign.get_system_display()}"
    if record is None:
        embed: Embed = {
            "title": "Poolside webhook test",
            "description": "This channel will receive the readable rolls of "
            f"{plain(campaign.name)}.",
            "footer": {"text": footer},
            "color": OTHER_COLOUR,
        }
    elif _shape(record) == "marker":
        # A session marker: what happened at the table, no dice (docs/sessions.md).
        embed = {
            # A name removed (hash version 6: the GM's title) is null: said so, never "None".
            "title": f"{kind_info(record['kind']).label}: {plain(_named(record))}",
            "url": record.get("url", ""),
            "author": {"name": record.get("player", "")},
            "fields": [],
            "footer": {"text": footer},
            "timestamp": record.get("time", ""),
            "color": OTHER_COLOUR,
        }
    elif _shape(record) == "message":
        embed = _message_embed(record, footer)
    else:
        embed = _roll_embed(record, footer)
    speaker = _speaker(record)
    message: DiscordMessage = {
        # A roll goes out as its character (docs/webhooks.md): the channel reads like the table.
        "username": webhook_name(speaker),
        "allowed_mentions": {"parse": []},
        "embeds": [fit(embed)],
    }
    if avatar_url and speaker:
        message["avatar_url"] = avatar_url  # the character's portrait
    return message


def _speaker(record: Record | None) -> str:
    """Who the post goes out as: a roll's or an in-character message's character; a message out
    of character, its member; the GM's narration, "Narration". A marker: nobody (Poolside)."""
    if not record or _shape(record) == "marker":
        return ""
    if _shape(record) == "message":
        options = record.get("options")
        return speaker_name(
            record.get("character", ""),
            options if isinstance(options, dict) else None,
            record.get("player", ""),
        )
    return record.get("character", "")


# A message's own Markdown goes to Discord as the member wrote it (Discord reads much the same
# subset), except what would reach beyond the message: a mention, a channel or a custom tag
# (``@…``, ``<…>``); ``allowed_mentions`` stays empty besides.
_REACHING = re.compile(r"([<@])")


def _named(record: Record) -> str:
    """A marker's name as its record shows it, ``TITLE_REMOVED`` once removed."""
    name = record.get("detail", "")
    return TITLE_REMOVED if name is None else str(name)


def _message_embed(record: Record, footer: str) -> Embed:
    """A message (docs/messages.md) as one embed: its text, a correction marked as one."""
    # A text removed (hash version 6) is null: said so, never sent as "None".
    said = record.get("detail")
    text = _REACHING.sub(r"\\\1", "(text removed)" if said is None else said)
    if not kind_info(str(record["kind"])).starts_chain:  # a message's correction
        text = "*Correction:* " + text
    embed: Embed = {
        "url": record.get("url", ""),
        "description": text or ELLIPSIS,
        "fields": [],
        "footer": {"text": footer},
        "timestamp": record.get("time", ""),
        "color": OTHER_COLOUR,
    }
    if record.get("character"):  # in character: the member who speaks, as a roll names them
        embed["author"] = {"name": record.get("player", "")}
    return embed


def _roll_embed(record: Record, footer: str) -> Embed:
    outcome = record.get("outcome", "")
    description = f"**{plain(record.get('outcome_label', ''))}**"
    if record.get("detail"):
        description += "\n" + plain(record["detail"])
    fields: list[EmbedField] = []
    if isinstance(faces := record.get("faces"), list) and faces:
        fields.append({"name": "Dice", "value": plain(_dice(faces)), "inline": False})
    if odds := _odds(record):
        fields.append({"name": "Odds of this outcome", "value": odds, "inline": True})
    if record.get("breakdown"):
        fields.append({"name": "Pool", "value": plain(record["breakdown"]), "inline": False})
    return {
        "title": f"{plain(record.get('character', ''))}: {plain(record.get('label', ''))}",
        "url": record.get("url", ""),
        "description": description,
        "author": {"name": record.get("player", "")},
        "fields": fields,
        "footer": {"text": footer},
        "timestamp": record.get("time", ""),
        "color": SUCCESS_COLOUR
        if outcome in SUCCESSES
        else FAILURE_COLOUR
        if outcome in FAILURES
        else OTHER_COLOUR,
    }


# Discord refuses a webhook name (a 400, and the roll not posted) that is empty or over 80
# characters, contains "clyde" or "discord", or is "everyone", "here" or "system message".
WEBHOOK_NAME_MAX = 80
_REFUSED_IN_NAMES = ("clyde", "discord")
_REFUSED_NAMES = frozenset({"everyone", "here", "system message"})


def webhook_name(name: str) -> str:
    """The name a message goes out under: the character's, as Discord takes it (its whitespace
    collapsed, cut to 80 characters), or "Poolside" where Discord would refuse it."""
    name = " ".join(name.split())
    folded = name.casefold()
    if not name or folded in _REFUSED_NAMES or any(word in folded for word in _REFUSED_IN_NAMES):
        return "Poolside"
    return clip(name, WEBHOOK_NAME_MAX)


def discord_recap(campaign: Campaign, heading: str, text: str, url: str) -> DiscordMessage:
    """A session's recap as one embed: the session as its title (linking to the log filtered to
    it), the recap's lines as its description, cut to Discord's limits with a pointer to the rest.
    Its scene headings become bold lines (an embed's description takes no headings)."""
    lines = [f"**{line[3:]}**" if line.startswith("## ") else line for line in text.splitlines()]
    body = "\n".join(line for line in lines if not line.startswith("# "))
    footer = f"{campaign.name} · {campaign.get_system_display()}"
    rest = "\n… the rest is in the log."
    limit = min(4096, 6000 - len(heading) - len(footer) - 20)
    if len(body) > limit:
        body = clip(body, limit - len(rest)) + rest
    embed: Embed = {
        "title": clip(f"Recap: {heading}", 256),
        "url": url,
        "description": body,
        "fields": [],
        "footer": {"text": clip(footer, 2048)},
        "color": OTHER_COLOUR,
    }
    return {"username": "Poolside", "allowed_mentions": {"parse": []}, "embeds": [embed]}


def json_recap(campaign: Campaign, session: SessionPart, text: str) -> dict[str, object]:
    """``{"event": "recap", "campaign": …, "session": {number, title, name, url}, "markdown": …}``."""
    return {
        "event": "recap",
        "campaign": campaign_part(campaign),
        "session": session,
        "markdown": text,
    }


WITNESS_TITLE = "Log fingerprint"
WITNESS_TEXT = (
    "A signed fingerprint of the campaign's log as it stands now. Keep it: the GM's "
    "`verify_log --witness` checks the log still holds it."
)


def discord_witness(campaign: Campaign, witness: Witness, at: str) -> DiscordMessage:
    """The log's fingerprint as one embed: what it is, and the token in a code block (a token is
    hex, digits and colons: nothing in it is markdown). No length, no hash: the channel's
    readers may not know how many entries there are (docs/verifiable-dice.md)."""
    footer = f"{campaign.name} · {campaign.get_system_display()}"
    embed: Embed = {
        "title": WITNESS_TITLE,
        "description": f"{WITNESS_TEXT}\n```\n{witness.token}\n```",
        "fields": [],
        "footer": {"text": clip(footer, FOOTER_MAX)},
        "timestamp": at,
        "color": OTHER_COLOUR,
    }
    return {"username": "Poolside", "allowed_mentions": {"parse": []}, "embeds": [embed]}


def json_witness(campaign: Campaign, witness: Witness, at: str) -> dict[str, object]:
    """``{"event": "witness", "campaign": …, "token", "commitment", "key", "signature", "at"}``."""
    return {
        "event": "witness",
        "campaign": campaign_part(campaign),
        "token": witness.token,
        "commitment": witness.commitment,
        "key": witness.key,
        "signature": witness.signature,
        "at": at,
    }


def embed_length(embed: Embed) -> int:
    """The characters Discord counts towards an embed's 6000."""
    total = len(embed.get("title", "")) + len(embed.get("description", ""))
    total += sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))
    total += len(embed["footer"]["text"]) if "footer" in embed else 0
    return total + (len(embed["author"]["name"]) if "author" in embed else 0)


def fit(embed: Embed) -> Embed:
    """Every part within its own limit, then the whole within 6000: the description gives way
    first, then the fields' values (a roll's figures are all at the permalink)."""
    embed = embed.copy()
    if "title" in embed:
        embed["title"] = clip(embed["title"], TITLE_MAX) or ELLIPSIS
    if "description" in embed:
        embed["description"] = clip(embed["description"], DESCRIPTION_MAX)
    if "author" in embed:
        embed["author"] = {"name": clip(embed["author"]["name"], AUTHOR_MAX) or ELLIPSIS}
    if "footer" in embed:
        embed["footer"] = {"text": clip(embed["footer"]["text"], FOOTER_MAX)}
    embed["fields"] = [
        {
            "name": clip(f["name"], FIELD_NAME_MAX),
            "value": clip(f["value"], FIELD_VALUE_MAX) or ELLIPSIS,
            "inline": f.get("inline", False),
        }
        for f in embed.get("fields", [])[:FIELDS_MAX]
    ]
    # Over 6000 only with parts near their own limits: give way from the least telling part,
    # the description, to the field values (last first), whole fields, then the footer, the
    # author and the title; the three last can't reach 6000 by themselves.
    if _excess(embed) > 0 and embed.get("description"):
        embed["description"] = clip(embed["description"], _keep(embed, embed["description"]))
    for field in reversed(embed["fields"]):
        if _excess(embed) > 0:
            field["value"] = clip(field["value"], _keep(embed, field["value"]))
    while _excess(embed) > 0 and embed["fields"]:
        embed["fields"].pop()
    if _excess(embed) > 0 and "footer" in embed:
        embed["footer"] = {
            "text": clip(embed["footer"]["text"], _keep(embed, embed["footer"]["text"]))
        }
    if _excess(embed) > 0 and "author" in embed:
        embed["author"] = {
            "name": clip(embed["author"]["name"], _keep(embed, embed["author"]["name"]))
        }
    if _excess(embed) > 0:
        embed["title"] = clip(embed["title"], _keep(embed, embed["title"]))
    return embed


def _excess(embed: Embed) -> int:
    return embed_length(embed) - EMBED_TOTAL_MAX


def _keep(embed: Embed, text: str) -> int:
    """How long ``text`` may stay for the embed to fit (one character at least: an ellipsis)."""
    return max(len(text) - _excess(embed), 1)
