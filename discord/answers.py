"""What Poolside answers Discord: interaction responses, a roll's embed and its follow-up buttons
(docs/discord.md, "What is never posted").

A roll's embed is the webhooks' own (rolls/webhooks/payloads.py), built from the entry's record
as the API gives it to the roller, so it carries nothing the API wouldn't show them. An entry
that not every member may read (GM-only, blind, secret, a hidden NPC's) is answered only to the
one who acted (an ephemeral message); a blind roll's answer says only that a roll was made.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings

from log.models import RollEntry
from log.tokens import entry_token
from rolls.log.records import api_records
from rolls.rolling import followups
from rolls.webhooks import payloads
from sheets.models import Membership
from sheets.systems import rule_system

# Interaction response types and message flags (Discord: "Receiving and Responding").
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
AUTOCOMPLETE_RESULT = 8
EPHEMERAL = 64
# Message components: an action row holds at most five buttons, a message five rows.
ACTION_ROW, BUTTON = 1, 2
PRIMARY, SECONDARY = 1, 2
BUTTONS_PER_ROW, ROWS_MAX = 5, 5
BUTTON_LABEL_MAX = 80
CUSTOM_ID_MAX = 100
FOLLOW_UP_PREFIX = "f"
# A follow-up that takes the player's words (a DAD6 bane's): the button opens a form (a modal)
# that asks for them, and its submission makes the follow-up.
ASK_PREFIX = "a"
MODAL = 9
TEXT_INPUT, SHORT = 4, 1
MODAL_TITLE_MAX = 45  # characters of a modal's title and of a text input's label
TEXT_INPUT_MAX = 4000
ASKED = "value"  # the text input's custom_id
NO_MENTIONS: dict[str, object] = {"parse": []}  # a character named @everyone pings nobody


def private(text: str) -> dict[str, object]:
    """A message only the user who acted sees."""
    return {
        "type": CHANNEL_MESSAGE,
        "data": {"content": text, "flags": EPHEMERAL, "allowed_mentions": NO_MENTIONS},
    }


class Secret(dict[str, object]):
    """An answer that carries a credential (``/poolside link``'s one-time link): sent to
    Discord once, never kept. ``kept`` is what the interaction's stored answer holds instead,
    so a retry of the interaction, or anyone reading the database, gets no code."""

    def __init__(self, answer: dict[str, object], kept: dict[str, object]) -> None:
        super().__init__(answer)
        self.kept = kept


def to_keep(answer: dict[str, object]) -> dict[str, object]:
    """What of ``answer`` may be stored with the interaction (discord/views.py)."""
    return answer.kept if isinstance(answer, Secret) else answer


def private_embed(embed: payloads.Embed) -> dict[str, object]:
    return {
        "type": CHANNEL_MESSAGE,
        "data": {
            "embeds": [payloads.fit(embed)],
            "flags": EPHEMERAL,
            "allowed_mentions": NO_MENTIONS,
        },
    }


def choices(found: list[tuple[str, str]]) -> dict[str, object]:
    """An autocomplete answer: at most 25 choices, each name and value within 100 characters."""
    return {
        "type": AUTOCOMPLETE_RESULT,
        "data": {
            "choices": [
                {"name": payloads.clip(name, 100) or "…", "value": value[:100]}
                for name, value in found[:25]
            ]
        },
    }


def follow_up_id(entry_pk: int, action: str, value: str, prefix: str = FOLLOW_UP_PREFIX) -> str:
    return ":".join((prefix, entry_token(entry_pk), action, value))


def _buttons(entry: RollEntry, membership: Membership) -> list[dict[str, object]]:
    """The follow-ups the entry's card offers its roller (or the GM), as buttons: each says
    which entry and which follow-up it is, and the press is checked again on the server."""
    character = entry.character
    if character is None or not character.can_roll(membership):
        return []
    if not entry.is_readable_by(membership):
        return []
    sheet = rule_system(entry.system).sheet_of(character)
    buttons = []
    for offer in followups.offered(entry, sheet, membership, has_follow_up=False):
        prefix = ASK_PREFIX if offer.asks else FOLLOW_UP_PREFIX
        custom_id = follow_up_id(entry.pk, offer.name, offer.value, prefix)
        if len(custom_id) > CUSTOM_ID_MAX:
            continue  # a pick too long to name in a button: the permalink's card offers it
        buttons.append(
            {
                "type": BUTTON,
                "style": SECONDARY if offer.problem else PRIMARY,
                "label": payloads.clip(offer.label, BUTTON_LABEL_MAX),
                "custom_id": custom_id,
                "disabled": bool(offer.problem),
            }
        )
    buttons = buttons[: BUTTONS_PER_ROW * ROWS_MAX]
    return [
        {"type": ACTION_ROW, "components": buttons[i : i + BUTTONS_PER_ROW]}
        for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]


def ask_modal(entry: RollEntry, action: str) -> dict[str, object]:
    """The form a follow-up that takes words opens (Discord's modal), labelled as the card's
    field; left empty, the follow-up takes its default, as on the page."""
    character = entry.character
    assert character is not None  # the press was checked
    sheet = rule_system(entry.system).sheet_of(character)
    offered = followups.available(entry, sheet, has_follow_up=entry.follow_ups.exists())
    offer = next((o for o in offered if o.name == action and o.asks), None)
    if offer is None:
        return private("This follow-up is no longer offered for this roll.")
    text_input = {
        "type": TEXT_INPUT,
        "custom_id": ASKED,
        "label": payloads.clip(offer.asks, MODAL_TITLE_MAX),
        "style": SHORT,
        "required": False,
        "max_length": min(offer.asks_max or TEXT_INPUT_MAX, TEXT_INPUT_MAX),
    }
    return {
        "type": MODAL,
        "data": {
            "custom_id": follow_up_id(entry.pk, action, ""),
            "title": payloads.clip(offer.label, MODAL_TITLE_MAX),
            "components": [{"type": ACTION_ROW, "components": [text_input]}],
        },
    }


BLIND_WORDS = "A roll was made. It was blind: only the GM sees the result."


def nonce_field(record: Mapping[str, object], interaction: str) -> list[payloads.EmbedField]:
    """Where the dice's nonce came from, when it is the interaction's id: Discord chose that
    id, and anyone in the channel can read it from the message, so the server couldn't pick
    the dice's input (docs/discord.md, "Verifiable dice")."""
    proof = record.get("proof")
    alpha = proof.get("alpha") if isinstance(proof, dict) else None
    nonce = alpha.get("nonce") if isinstance(alpha, dict) else None
    if not interaction or nonce != interaction:
        return []
    text = f"interaction {interaction} (Discord chose it, not Poolside)"
    return [{"name": "Dice nonce", "value": text, "inline": False}]


def entry_message(
    entry_pk: int, membership: Membership, interaction: str = ""
) -> dict[str, object]:
    """The message that answers a roll or a follow-up: the entry as ``membership`` may read it,
    public only when every member may read it; ``interaction``: the id of the interaction that
    made it (the dice's nonce, said on the embed)."""
    entry = RollEntry.objects.for_cards().select_related("campaign", "character").get(pk=entry_pk)
    if not entry.is_readable_by(membership):
        # The roller's blind roll: that a roll was made, and nothing of it.
        return {"content": BLIND_WORDS, "flags": EPHEMERAL, "allowed_mentions": NO_MENTIONS}
    rows = RollEntry.objects.visible_to(membership).filter(pk=entry_pk)
    record = api_records(rows, full=False, base_url=settings.SITE_URL)[0]
    embeds = payloads.discord_message(entry.campaign, record)["embeds"]
    if extra := nonce_field(record, interaction):
        embeds[0]["fields"] = [*embeds[0]["fields"], *extra]
        embeds[0] = payloads.fit(embeds[0])
    message: dict[str, object] = {"embeds": embeds, "allowed_mentions": NO_MENTIONS}
    if entry.is_hidden:
        message["flags"] = EPHEMERAL
    if components := _buttons(entry, membership):
        message["components"] = components
    return message


def entry_answer(entry_pk: int, membership: Membership, interaction: str = "") -> dict[str, object]:
    return {"type": CHANNEL_MESSAGE, "data": entry_message(entry_pk, membership, interaction)}
