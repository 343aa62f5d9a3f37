"""The application commands as Discord registers them (docs/discord.md), within Discord's
documented limits: names of 1–32 lowercase characters, descriptions of 1–100, at most 25
options per command and 25 choices per option.

``/poolside`` (link, unbind) and ``/poolside-bind`` are the same everywhere: they are registered
globally. Binding is a command of its own because Discord's ``default_member_permissions`` is set
per top-level command, and linking must stay open to every member.
``/roll``, ``/odds`` and ``/sheet`` are registered per server, with the options of the rule
system its channels play: each is one of the roll panel's fields (rolls/rolling/forms), so the
command asks for exactly what the panel asks for, and the panel's form validates the answer.
"""

from __future__ import annotations

from typing import Any

from django import forms

from rolls.rolling.forms.base import RollForm
from rolls.webhooks import payloads
from sheets.systems import RuleSystem

# Discord's option types and limits (Application Commands: "Application Command Option Type").
SUB_COMMAND, STRING, INTEGER, BOOLEAN = 1, 3, 4, 5
NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100

# Options of /roll and /odds that are not panel fields: what to roll, the panel's action (an
# automatic pass, a Cold Stars skip) and the GM's call the roll answers.
TARGET, ACTION, CALL = "target", "action", "call"
# /sheet's one option.
CHARACTER = "character"
# The binding command, and its one option.
BIND, CAMPAIGN = "poolside-bind", "campaign"
# Shown by default only to members who may manage the server's channels (0x10, Discord's
# "Manage Channels"); a server's admins may change who sees it (Server Settings, Integrations).
# Whoever Discord lets send it, discord/table.py checks the member's permissions itself.
BIND_DEFAULT_PERMISSIONS = str(0x10)
# A multiple choice (Cogent's combat circumstances) is typed as a comma-separated list.
LIST_SEPARATOR = ","


def clip(text: str, limit: int) -> str:
    """One line (a description is one), within ``limit`` characters."""
    return payloads.clip(" ".join(str(text).split()), limit)


def _described(field: forms.Field, name: str) -> str:
    words = str(field.label or name)
    if isinstance(field, forms.MultipleChoiceField):
        words += " (comma-separated: " + ", ".join(c["value"] for c in _choices(field)) + ")"
    elif field.help_text:
        words += f": {field.help_text}"
    return clip(words, DESCRIPTION_MAX)


def field_option(name: str, field: forms.Field) -> dict[str, object]:
    """A panel field as a command option. A choice the panel fills in per row (a Cold Stars
    Ability, a domain, a weapon) is answered by autocomplete from the row's own panel."""
    option: dict[str, object] = {
        "name": name,
        "description": _described(field, name),
        "required": False,  # left out: the panel's default, as a browser would send it
    }
    if isinstance(field, forms.BooleanField):
        return option | {"type": BOOLEAN}
    if isinstance(field, forms.IntegerField):
        bounds = {"min_value": field.min_value, "max_value": field.max_value}
        return option | {"type": INTEGER} | {k: v for k, v in bounds.items() if v is not None}
    choices = [] if isinstance(field, forms.MultipleChoiceField) else _choices(field)
    if choices and len(choices) <= CHOICES_MAX:
        return option | {"type": STRING, "choices": choices}
    if isinstance(field, forms.ChoiceField) and not isinstance(field, forms.MultipleChoiceField):
        return option | {"type": STRING, "autocomplete": True}
    return option | {"type": STRING, "max_length": CHOICE_VALUE_MAX}


def _choices(field: forms.Field) -> list[dict[str, str]]:
    return [
        {"name": clip(label, CHOICE_NAME_MAX), "value": str(value)}
        for value, label in getattr(field, "choices", ())
        if str(value) != ""
    ]


def panel_options(form_class: type[RollForm]) -> list[dict[str, Any]]:
    return [field_option(name, field) for name, field in form_class.base_fields.items()]


def _target_option(description: str) -> dict[str, Any]:
    return {
        "type": STRING,
        "name": TARGET,
        "description": description,
        "required": True,
        "autocomplete": True,
    }


def roll_command(system: RuleSystem[Any], *, odds: bool = False) -> dict[str, object]:
    form_class = system.rolling.form_class
    fields = [o for o in panel_options(form_class) if not (odds and o["name"] == "visibility")]
    extra = (
        []
        if odds
        else [
            {
                "type": STRING,
                "name": ACTION,
                "description": "What to do: roll (the default), or what the panel offers instead",
                "required": False,
                "autocomplete": True,
            },
        ]
    )
    call = {
        "type": STRING,
        "name": CALL,
        "description": "Answer the GM's call for a roll (its values are then the GM's)",
        "required": False,
        "autocomplete": True,
    }
    return {
        "name": "odds" if odds else "roll",
        "type": 1,  # a slash command
        "description": (
            f"{system.label}: the exact odds of a roll, without rolling"
            if odds
            else f"{system.label}: roll a row of your character's sheet"
        ),
        "contexts": [0],  # in servers only: a channel is bound to a campaign
        "options": [
            _target_option("What to roll: a row of your character's sheet"),
            *fields,
            *extra,
            call,
        ],
    }


def sheet_command() -> dict[str, object]:
    return {
        "name": "sheet",
        "type": 1,
        "description": "A compact summary of a character's sheet (only you see it)",
        "contexts": [0],
        "options": [
            {
                "type": STRING,
                "name": CHARACTER,
                "description": "Whose sheet",
                "required": True,
                "autocomplete": True,
            }
        ],
    }


def poolside_command() -> dict[str, object]:
    return {
        "name": "poolside",
        "type": 1,
        "description": "Link your Poolside account, or unbind this channel from its campaign",
        "options": [
            {
                "type": SUB_COMMAND,
                "name": "link",
                "description": "Get a private one-time link to link your Poolside account",
            },
            {
                "type": SUB_COMMAND,
                "name": "unbind",
                "description": "The campaign's GM or a server manager: stop playing it here",
            },
        ],
    }


def bind_command() -> dict[str, object]:
    return {
        "name": BIND,
        "type": 1,
        "description": "A GM who manages this server: make this channel play one of your campaigns",
        "default_member_permissions": BIND_DEFAULT_PERMISSIONS,
        "contexts": [0],  # in servers only
        "options": [
            {
                "type": STRING,
                "name": CAMPAIGN,
                "description": "One of the campaigns you are the GM of",
                "required": True,
                "autocomplete": True,
            }
        ],
    }


def global_commands() -> list[dict[str, object]]:
    return [poolside_command(), bind_command()]


def guild_commands(system: RuleSystem[Any]) -> list[dict[str, object]]:
    """The commands of a server whose channels play ``system``."""
    return [roll_command(system), roll_command(system, odds=True), sheet_command()]
