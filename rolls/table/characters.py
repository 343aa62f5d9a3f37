"""The GM table's character cards: each character's figures, key rows with their odds, resources
form and last rolls, read for every character in a fixed number of queries (the dashboard, one
card fetched alone, and the card a quick roll answers with)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import F, Window
from django.db.models.functions import RowNumber

from log.models import RollEntry, offered_visibilities
from rolls.rolling.display import bands
from rolls.rolling.waiting import remember_waiting, with_waiting_assist
from rolls.templatetags.rolls_tags import headline
from sheets.models import Campaign, Character, Membership
from sheets.systems import rule_system_of

if TYPE_CHECKING:
    from sheets.systems import RuleSystem

LAST_ROLLS = 3  # per character on the dashboard


def last_rolls(campaign: Campaign, membership: Membership, size: int) -> dict[int, list[Any]]:
    """The last ``size`` entries of every character, in one query (a window function numbers
    each character's entries newest first), as cards for this member."""
    ranked = (
        RollEntry.objects.visible_to(membership)
        .filter(character__isnull=False)
        .rolls()
        .for_cards()
        .annotate(rank=Window(RowNumber(), partition_by=F("character_id"), order_by=F("pk").desc()))
        .filter(rank__lte=size)
        .order_by("character_id", "-pk")
    )
    by_character: dict[int, list[Any]] = {}
    for entry in ranked:  # entries of characters: the query filters on them
        assert entry.character_id is not None
        by_character.setdefault(entry.character_id, []).append(entry.card_for(membership))
    return by_character


def key_rows(
    system: RuleSystem[Any], sheet: Any, membership: Membership | None = None
) -> list[dict[str, Any]]:
    """The card's key rows (the seam's ``table.key_rows``), each with its chances at the panel's
    default options in the sheet's words ("58.3% Success") and its quick roll's value — with the
    assist that waits for the character, as its panel takes it (rolls/rolling/waiting.py)."""
    rows = []
    for found in system.table.key_rows(sheet):
        priced = with_waiting_assist(sheet.character, found.kind, found.row, membership)
        odds = None if priced else system.rolling.odds(found.kind, found.row)
        row_bands = priced.bands if priced else bands(odds or {})
        rows.append(
            {
                "label": found.row.roll_label,
                # The panel's pool when it takes the assist (a group assist's helpers' dice).
                "dice": f"{priced.pool['dice']}d6"
                if priced and "dice" in priced.pool
                else found.dice,
                "bands": row_bands,
                # Each way of succeeding on a line of its own: "27.1% Critical success".
                "chances": headline(row_bands).split(" · "),
                "assist": priced.assist if priced is not None else "",
                "value": f"{found.kind}:{found.row.pk}",
            }
        )
    return rows


def character_rows(
    campaign: Campaign,
    membership: Membership,
    bound: dict[int, Any] | None = None,
    *,
    only: int | None = None,
    news: RollEntry | None = None,
) -> list[dict[str, Any]]:
    """Every character's card on the dashboard, or ``only`` that character's (its card alone,
    fetched when the live stream tells of a roll or an edit of it) — with ``news``, that one
    entry for its last rolls (the card's news: the page has the others)."""
    system = rule_system_of(campaign)
    characters = (
        Character.objects.filter(campaign=campaign)
        .select_related("owner", system.related_name)
        .prefetch_related(*system.table.summary_related)
        .order_by("is_npc", "name", "pk")
    )
    if only is None:
        rolls = last_rolls(campaign, membership, LAST_ROLLS)
    elif news is not None:
        characters = characters.filter(pk=only)
        rolls = {only: [news.card_for(membership)]}
    else:
        characters = characters.filter(pk=only)
        recent = (
            RollEntry.objects.visible_to(membership).rolls().for_cards().filter(character_id=only)
        )
        rolls = {only: [e.card_for(membership) for e in recent.order_by("-pk")[:LAST_ROLLS]]}
    bound = bound or {}
    # An NPC's quick rolls offer the GM's choices of who sees them, unless the campaign makes
    # every roll public ("Public", "Secret": the card is narrow, the panel says more).
    visibilities = [
        (value, label.split(" (")[0])
        for value, label in ([] if campaign.force_public_rolls else offered_visibilities(gm=True))
    ]
    rows = []
    found = list(characters)
    # Every card's waiting assist in one query (none without assists), for the key rows' odds.
    remember_waiting(found, has_assists=system.rolling.has_assists)
    for character in found:
        sheet = system.sheet_of(character)
        form = bound.get(character.pk) or system.table.resources_form(
            instance=sheet, prefix=f"res-{character.pk}"
        )
        rows.append(
            {
                "character": character,
                "sheet": sheet,
                "form": form,
                "key_rows": key_rows(system, sheet, membership),
                "visibilities": visibilities if character.is_npc else [],
                "rolls": rolls.get(character.pk, []),
                "keep": LAST_ROLLS,  # live.js trims the list to these after news
            }
        )
    return rows
