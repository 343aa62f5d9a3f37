"""What each interaction Discord sends does (docs/discord.md): the commands, their autocomplete
and the follow-up buttons. Each answer is an interaction response (discord/answers.py); a
refusal is a private message and writes nothing."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest

from discord import answers, rolling, table
from discord.commands import BIND, CAMPAIGN, CHARACTER, TARGET
from discord.context import Here, Stop, bound, linked
from log.models import RollEntry
from log.tokens import entry_pk
from rolls.rolling import followups
from rolls.rolling.access import entry_for_member
from rolls.rolling.actions import make_follow_up
from sheets.models import Membership, Refused
from web.text import without_bidi_controls

# Interaction types (Discord: "Interaction Type").
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[dict[str, object]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


# An option's value as Discord sends it: text, a number or a boolean. Anything else (a forged
# list or object) is left out, as if the option weren't given.
SCALARS = (str, int, float, bool)


def options_of(data: dict[str, object]) -> tuple[str, dict[str, object], str]:
    """A command's subcommand (or ""), its options by name, and the focused option's name (an
    autocomplete's; "" otherwise)."""
    given = _list(data.get("options"))
    sub = ""
    if given and given[0].get("type") == 1:
        sub, given = str(given[0].get("name", "")), _list(given[0].get("options"))
    values: dict[str, object] = {}
    focused = ""
    for option in given:
        name, value = str(option.get("name", "")), option.get("value")
        if name and isinstance(value, SCALARS):
            # Text without bidi controls, as every other way in takes it (web/text.py).
            values[name] = without_bidi_controls(value)[:200] if isinstance(value, str) else value
            if option.get("focused"):
                focused = name
    return sub, values, focused


def command(request: HttpRequest, interaction: dict[str, object]) -> dict[str, object]:
    data = _dict(interaction.get("data"))
    name = data.get("name")
    sub, values, _ = options_of(data)
    if name == "poolside":
        if sub == "link":
            return table.link(interaction)
        if sub == "unbind":
            return table.unbind(request, interaction)
    elif name == BIND:
        return table.bind(request, interaction, values.get(CAMPAIGN))
    elif name == "roll":
        return rolling.roll(bound(request, interaction), values)
    elif name == "odds":
        return rolling.odds(bound(request, interaction), values)
    elif name == "sheet":
        return table.sheet(bound(request, interaction), values.get(CHARACTER))
    raise Stop("Poolside doesn't know this command; the site's administrator updates them.")


def autocomplete(request: HttpRequest, interaction: dict[str, object]) -> dict[str, object]:
    """Choices as the user types. Anything that stops a command stops its choices too: an
    unlinked user or an unbound channel gets none."""
    data = _dict(interaction.get("data"))
    _, values, focused = options_of(data)
    typed = str(values.get(focused) or "")
    try:
        if data.get("name") == BIND:
            return answers.choices(table.gm_campaigns(linked(request, interaction), typed))
        here = bound(request, interaction)
        if focused == TARGET:
            return answers.choices(rolling.target_choices(here, typed))
        if focused == CHARACTER:
            return answers.choices(table.readable(here, typed))
        return answers.choices(rolling.option_choices(here, values, focused, typed))
    except Stop:
        return answers.choices([])


def _checked(here: Here, custom_id: str) -> tuple[str, RollEntry, Membership, str, str]:
    """The entry a button or a modal names, checked as the API's follow-up checks it: only its
    character's player or the GM may follow it up; anyone else gets a private refusal."""
    prefix, token, action, value = [*custom_id[:100].split(":", 3), "", "", ""][:4]
    known = prefix in (answers.FOLLOW_UP_PREFIX, answers.ASK_PREFIX)
    pk = entry_pk(token) if known else None
    if pk is None or action not in followups.names():
        raise Stop("This button is not Poolside's.")
    try:
        entry, membership = entry_for_member(here.request, pk)  # type: ignore[arg-type]
    except Http404:
        raise Stop("No such roll, or not one of your campaigns'.") from None
    character = entry.character
    if character is None or not character.can_read(membership):
        raise Stop("No such roll, or not one of your campaigns'.")
    if not character.can_roll(membership):
        raise Stop(f"Only {character.name}'s player or the GM can follow this roll up.")
    if not entry.is_readable_by(membership):
        raise Stop("Only the GM sees this roll's result, so only the GM follows it up.")
    return prefix, entry, membership, action, value


def _follow_up(
    here: Here, entry: RollEntry, membership: Membership, action: str, value: str
) -> dict[str, object]:
    assert entry.character is not None  # _checked
    try:
        # Its dice's nonce is the press's (or the form's) interaction id, as for /roll.
        new = make_follow_up(
            here.user, entry, entry.character, action, value, nonce=here.interaction
        )
    except (Refused, PermissionDenied) as refused:  # PermissionDenied: not the one who chooses
        raise Stop(str(refused)) from None
    return answers.entry_answer(new.pk, membership, here.interaction)


def press(request: HttpRequest, interaction: dict[str, object]) -> dict[str, object]:
    """A follow-up button under a roll; one that takes words opens a form for them first."""
    here = linked(request, interaction)
    custom_id = str(_dict(interaction.get("data")).get("custom_id", ""))
    prefix, entry, membership, action, value = _checked(here, custom_id)
    if prefix == answers.ASK_PREFIX:
        return answers.ask_modal(entry, action)
    return _follow_up(here, entry, membership, action, value)


def _typed(components: object) -> str:
    """The text typed into the modal's input, wherever Discord nests it (an action row's
    components, or a label's component)."""
    for item in _list(components):
        if item.get("custom_id") == answers.ASKED and isinstance(item.get("value"), str):
            return str(item["value"])[: answers.TEXT_INPUT_MAX]
        found = _typed(item.get("components")) or _typed([item.get("component")])
        if found:
            return found
    return ""


def submit(request: HttpRequest, interaction: dict[str, object]) -> dict[str, object]:
    """The modal of a follow-up that takes words: made with what was typed, checked again."""
    here = linked(request, interaction)
    data = _dict(interaction.get("data"))
    _, entry, membership, action, _ = _checked(here, str(data.get("custom_id", "")))
    return _follow_up(here, entry, membership, action, _typed(data.get("components")))


def answer(request: HttpRequest, interaction: dict[str, object]) -> dict[str, object]:
    """The answer to a verified interaction of any type but PING."""
    kind = interaction.get("type")
    try:
        if kind == AUTOCOMPLETE:
            return autocomplete(request, interaction)
        if kind == APPLICATION_COMMAND:
            return command(request, interaction)
        if kind == MESSAGE_COMPONENT:
            return press(request, interaction)
        if kind == MODAL_SUBMIT:
            return submit(request, interaction)
    except Stop as stop:
        return answers.private(stop.message)
    return answers.private("Poolside doesn't answer this kind of interaction.")
