"""The Roll button and its odds beside every rollable sheet row."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from rolls.forms import default_bands, percent
from rolls.tokens import entry_token as _entry_token

register = template.Library()


@register.inclusion_tag("rolls/_roll_cell.html")
def roll_cell(character: Any, kind: str, obj: Any, can_roll: bool, label: str) -> dict[str, Any]:
    bands = default_bands(kind, obj)
    # Headline: the chance of succeeding in any way (critical, plain or costly).
    succeed = sum((b.chance for b in bands if b.code.endswith("success")), start=0)
    return {
        "url": reverse("roll_panel", args=[character.pk, kind, obj.pk]),
        "bands": bands,
        "headline": f"{percent(succeed)} success",
        "can_roll": can_roll,
        "label": label,
    }


@register.inclusion_tag("rolls/_prompts.html", takes_context=True)
def gm_prompts(context: Any, character: Any, membership: Any) -> dict[str, Any]:
    """The GM's open calls and contests for this character, on its sheet (empty for anyone who
    can't roll it). The prompts hold forms, so the page's CSRF token comes along."""
    from rolls.table_views import prompts_context

    return prompts_context(character, membership) | {"csrf_token": context.get("csrf_token")}


@register.filter
def entry_token(pk: int) -> str:
    """An entry's opaque token, for DOM ids (the same as its URLs and stream ids carry)."""
    return _entry_token(pk)
