"""The Roll button and its odds beside every rollable sheet row."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.db.models import Model
from django.template import Context
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from log.models import RollEntry
from log.tokens import entry_token as _entry_token
from rolls.messages.text import speaker_name, to_html, to_plain
from rolls.rolling.display import bands, headline
from rolls.rolling.waiting import ASSIST_WAITING, with_waiting_assist
from rolls.table.calls import difficulty_label
from sheets.models import Character, Membership
from sheets.models.campaigns import initials
from sheets.systems import rule_system, rule_system_of

if TYPE_CHECKING:
    from log.models import RollEntry
    from rolls.models import RollCall
    from rolls.rolling.outcomes import Headline

register = template.Library()


@register.inclusion_tag("rolls/_roll_cell.html", takes_context=True)
def roll_cell(
    context: Context, character: Character, kind: str, obj: Model, can_roll: bool, label: str
) -> dict[str, object]:
    # The odds at the panel's default options (DAD6: with the rolled-forward boons, as the panel;
    # Cogent: with the assist that waits, as the panel takes it, for who may roll).
    priced = with_waiting_assist(character, kind, obj, context.get("membership"))
    if priced is not None:
        row_bands = priced.bands
    else:
        row_bands = bands(rule_system_of(character.campaign).rolling.odds(kind, obj))
    return {
        "url": reverse("roll_panel", args=[character.pk, kind, obj.pk]),
        "bands": row_bands,
        "headline": headline(row_bands),
        "assist": priced.assist if priced is not None else "",
        "assist_waiting": ASSIST_WAITING,
        "can_roll": can_roll,
        "label": label,
    }


@register.inclusion_tag("rolls/_prompts.html", takes_context=True)
def gm_prompts(
    context: Context, character: Character, membership: Membership, oob: bool = False
) -> dict[str, object]:
    """The GM's open calls and contests for this character, on its sheet (empty for anyone who
    can't roll it). The prompts hold forms, so the page's CSRF token comes along. ``oob``: as an
    out-of-band swap, in a roll's response or the sheet's rolled parts."""
    from rolls.table.prompts import prompts_context

    extra = {"csrf_token": context.get("csrf_token"), "oob": oob}
    return prompts_context(character, membership) | extra


@register.filter
def result_headline(entry: RollEntry) -> Headline:
    """The result card's headline, figure and meaning in play, worded per system when shown
    (never stored: the stored words are hashed into the chain). Asked here, above the models,
    because the wording is the rule system's (the seam's ``results.headline``)."""
    return rule_system(entry.system).results.headline(entry)


@register.filter(name="difficulty_label")
def difficulty_label_filter(call: RollCall) -> str:
    """A GM call's difficulty as its rule system words it (rolls.table.calls)."""
    return difficulty_label(call)


@register.filter(name="initials")
def initials_filter(name: str) -> str:
    """A name's initials, for the avatar of a log row whose character has no portrait."""
    return initials(name)


@register.filter
def entry_token(pk: int) -> str:
    """An entry's opaque token, for DOM ids (the same as its URLs and stream ids carry)."""
    return _entry_token(pk)


@register.filter
def message_html(text: str) -> SafeString:
    """A message's Markdown as sanitized HTML (rolls/messages/text.py: a parser, then nh3)."""
    return mark_safe(to_html(text))  # noqa: S308 — to_html sanitizes with nh3


@register.filter
def message_speaker(entry: RollEntry) -> str:
    """Who a message is said by (rolls/messages/text.py: the recap and webhooks say the same)."""
    return speaker_name(entry.character_name, entry.options, entry.username)


@register.filter
def message_plain(text: str) -> str:
    """A message without its markup: the toast's words (escaped by the template as usual)."""
    return to_plain(text)
