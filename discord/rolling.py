"""``/roll``, ``/odds`` and their autocomplete (docs/discord.md). Nothing here decides a rule or
a permission: the target loads through ``target_for_roller`` as the roll panel's does, the
options become the panel's own form (rolls/rolling/panel_values.py) and the roll goes through
``make_roll``, like a roll from the page or the API."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import PermissionDenied
from django.http import Http404

from discord import answers
from discord.commands import ACTION, CALL, LIST_SEPARATOR, TARGET
from discord.context import Here, Stop
from rolls.models import RollCall
from rolls.rolling.actions import make_roll
from rolls.rolling.display import headline, success_words
from rolls.rolling.forms.base import RollForm
from rolls.rolling.panel_values import NotSingle, bound_panel
from rolls.rolling.targets import Target, target_for_roller
from rolls.rolling.waiting import ASSIST_WAITING, priced_targets
from rolls.table.calls import difficulty_label
from rolls.webhooks import payloads
from sheets.models import Character, Refused
from sheets.systems import rule_system_of

# A target's value in a command: "<character>.<kind>.<row>", as autocomplete offers it.
TARGET_VALUE = re.compile(r"^([0-9]{1,12})\.([a-z0-9-]{1,40})\.([0-9]{1,12})$")
CHOOSE_TARGET = "Choose what to roll from the list Discord offers as you type."


def rollable(here: Here) -> list[Character]:
    """The characters of the channel's campaign the user may roll: a player's own, all for
    the GM (hidden NPCs too: only the GM gets them)."""
    characters = Character.objects.filter(campaign=here.campaign).select_related("campaign")
    return [c for c in characters if c.can_roll(here.member)]


def pool_words(pool: dict[str, object]) -> str:
    """The pool's figures in words, leaving out those at 0 (nothing traded, no boon rolled
    forward): a choice's name holds 100 characters, and the odds come after them."""
    shown = {key: value for key, value in pool.items() if value != 0} or pool
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in shown.items())


def target_choices(here: Here, typed: str) -> list[tuple[str, str]]:
    """Each row of the user's characters, labelled as the sheet shows it: its pool and the odds
    at the panel's default options."""
    typed = typed.casefold().strip()
    found = []
    for character in rollable(here):
        for row in priced_targets(character, here.member):
            name = f"{character.name} · {row.target.label}"
            if typed and typed not in name.casefold():
                continue
            # The mark before the figures: Discord cuts a choice's name at 100 characters.
            waits = f" ({ASSIST_WAITING})" if row.assist else ""
            label = f"{name}{waits}: {pool_words(row.pool)} — {headline(row.bands)}"
            found.append((label, f"{character.pk}.{row.target.kind}.{row.target.obj.pk}"))
            if len(found) == 25:
                return found
    return found


def load(here: Here, value: object) -> Target:
    """The target a command names, as the roll panel loads it (the roller's permission), and
    only in the channel's campaign."""
    match = TARGET_VALUE.match(str(value or ""))
    if match is None:
        raise Stop(CHOOSE_TARGET)
    character, kind, row = int(match[1]), match[2], int(match[3])
    try:
        target, _ = target_for_roller(here.request, character, kind, row)  # type: ignore[arg-type]
    except Http404:
        raise Stop(CHOOSE_TARGET) from None
    except PermissionDenied as refused:
        raise Stop(str(refused)) from None
    if target.character.campaign_id != here.member.campaign_id:
        raise Stop(CHOOSE_TARGET)  # another campaign's: this channel doesn't play it
    return target


def panel_values(form_class: type[RollForm], options: dict[str, object]) -> dict[str, object]:
    """The command's options by the panel's field names (and the call it answers)."""
    values: dict[str, object] = {}
    for name, value in options.items():
        field = form_class.base_fields.get(name)
        if isinstance(field, forms.MultipleChoiceField):
            values[name] = [v.strip() for v in str(value).split(LIST_SEPARATOR) if v.strip()]
        elif field is not None or name == CALL:
            values[name] = value
    return values


def form_for(here: Here, target: Target, options: dict[str, object]) -> RollForm:
    form_class = rule_system_of(target.character.campaign).rolling.form_class
    try:
        return bound_panel(target, here.member, panel_values(form_class, options))
    except (NotSingle, Refused) as refused:
        raise Stop(str(refused) if isinstance(refused, Refused) else CHOOSE_TARGET) from None


def problems(form: RollForm) -> str:
    """The form's messages, one line each, as the panel shows them beside the fields."""
    lines = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error in errors:
            lines.append(f"{label}: {error}" if label else str(error))
    return "\n".join(lines) or "These options can't be rolled."


def valid_form(here: Here, options: dict[str, object]) -> tuple[Target, RollForm]:
    target = load(here, options.get(TARGET))
    form = form_for(here, target, options)
    if not form.is_valid() or form.plan is None:
        raise Stop("The roll wasn't made:\n" + problems(form))
    return target, form


def roll(here: Here, options: dict[str, object]) -> dict[str, object]:
    target, form = valid_form(here, options)
    assert form.plan is not None
    action = str(options.get(ACTION) or "roll")
    offered = {a.name for a in form.plan.actions}
    if action not in offered:
        raise Stop(f"The roll wasn't made: choose the action from: {', '.join(sorted(offered))}.")
    # The GM's request it answers (call/contest), and the dice's nonce: the interaction's id,
    # Discord's choice, not ours (docs/discord.md).
    params = {name: form.data.get(name, "") for name in ("call", "contest")}
    params["nonce"] = here.interaction
    try:
        entry, _ = make_roll(here.user, target, form, action, params)
    except (Refused, PermissionDenied) as refused:  # PermissionDenied: not the one who chooses
        raise Stop(f"The roll wasn't made: {refused}") from None
    return answers.entry_answer(entry.pk, here.member, here.interaction)


def odds(here: Here, options: dict[str, object]) -> dict[str, object]:
    """The exact odds of the roll as the options make it, to the asker only; nothing rolled."""
    target, form = valid_form(here, options)
    plan = form.plan
    assert plan is not None
    lines = [f"**{b.label}**: {b.exact} ({b.percent})" for b in plan.bands]
    lines.append(f"Chance of success: {success_words(plan.bands)}")
    fields: list[payloads.EmbedField] = [
        {"name": "Pool", "value": payloads.plain(plan.breakdown) or "—", "inline": False}
    ]
    fields += [{"name": "Note", "value": str(note), "inline": False} for note in plan.notes]
    return answers.private_embed(
        {
            "title": payloads.plain(f"{target.character.name}: {target.label}"),
            "description": "\n".join(lines),
            "fields": fields,
        }
    )


def option_choices(here: Here, options: dict[str, object], name: str, typed: str) -> list[Any]:
    """Autocomplete for an option other than the target: the choices the chosen row's own panel
    offers for it (a Cold Stars Ability or domain, the panel's actions, the open GM calls)."""
    target = load(here, options.get(TARGET))
    if name == CALL:
        calls = RollCall.objects.prompts_for(target.character).filter(skill=target.obj.name)
        return [
            (
                f"{c.skill}, {difficulty_label(c)}"
                + (", puncher's chance allowed" if c.punchers_chance else "")
                + (f" — {c.note}" if c.note else ""),
                str(c.pk),
            )
            for c in calls
        ]
    form = form_for(here, target, {k: v for k, v in options.items() if k != name})
    if name == ACTION:
        return [(a.label, a.name) for a in form.plan.actions] if form.plan else []
    field = form.fields.get(name)
    found = [
        (str(label), str(value))
        for value, label in getattr(field, "choices", ())
        if str(value) != "" and not isinstance(label, (list, tuple))
    ]
    typed = typed.casefold()
    return [(label, value) for label, value in found if typed in label.casefold()]
