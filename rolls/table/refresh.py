"""Cold Stars: the GM refreshes Momentum, Willpower or both to their maxima, for one character or
every character of the campaign (RULES.md §8, a Decision: the seed's sections are not public),
typically at a session's start. The GM table's cards and its session bar write through here.

Each refresh is recorded like any resource change: one entry of kind ``refresh`` per character
whose resources it raised, holding what changed (``resource_changes``), appended in the same
transaction as the change on the locked sheet. A character already at its maxima gets none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

import live
from log.models import Kind, RollEntry
from sheets.models import Campaign, Character, ColdStarsSheet, Refused, System
from sheets.systems import rule_system_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User

RESOURCES = {
    "momentum": ("momentum",),
    "willpower": ("willpower",),
    "both": ("momentum", "willpower"),
}
LABELS = {"momentum": "Momentum", "willpower": "Willpower"}
EVERYONE = "all"


def refreshes(campaign: Campaign) -> bool:
    """Does this campaign's system have resources the GM refreshes?"""
    return campaign.system == System.COLD_STARS


def _words(changes: dict[str, int], sheet: ColdStarsSheet) -> str:
    return " and ".join(
        f"{LABELS[name]} to {getattr(sheet, f'{name}_max')} (+{amount})"
        for name, amount in changes.items()
    )


def _refresh_one(user: User, character: Character, names: tuple[str, ...]) -> RollEntry | None:
    sheet = rule_system_of(character.campaign).lock_sheet(character.pk)
    assert isinstance(sheet, ColdStarsSheet)
    changes = {
        name: getattr(sheet, f"{name}_max") - getattr(sheet, name)
        for name in names
        if getattr(sheet, name) < getattr(sheet, f"{name}_max")
    }
    if not changes:
        return None
    for name in changes:
        setattr(sheet, name, getattr(sheet, f"{name}_max"))
    sheet.save(update_fields=list(changes))
    entry = RollEntry.objects.append_by(
        user,
        character,
        kind=Kind.REFRESH,
        label="",
        detail=f"The GM refreshed {_words(changes, sheet)}.",
        resource_changes=changes,
    )
    live.publish(character.campaign_id, "sheet", character.pk)
    return entry


def refresh(user: User, campaign: Campaign, who: str, resource: str) -> tuple[list[RollEntry], str]:
    """Refresh ``resource`` ("momentum", "willpower" or "both") for ``who`` (a character's id,
    or "all") in one transaction; the entries written and a sentence saying what was done.
    :class:`Refused` for a choice that isn't one."""
    if not refreshes(campaign):
        raise Refused("Only Cold Stars has Momentum and Willpower to refresh.")
    names = RESOURCES.get(resource)
    if names is None:
        raise Refused("Choose Momentum, Willpower or both.")
    characters = campaign.characters.select_related("campaign").order_by("is_npc", "name", "pk")
    if who != EVERYONE:
        if not (who.isascii() and who.isdigit() and len(who) <= 18):
            raise Refused("Choose a character of this campaign, or every character.")
        characters = characters.filter(pk=int(who))
        if not characters:
            raise Refused("Choose a character of this campaign, or every character.")
    with transaction.atomic():
        written = [e for c in characters if (e := _refresh_one(user, c, names)) is not None]
    what = " and ".join(LABELS[name] for name in names)
    if not written:
        return [], f"{what}: already at the maximum; nothing to refresh."
    named = ", ".join(entry.character_name for entry in written)
    return written, f"Refreshed {what} to the maximum: {named}."
