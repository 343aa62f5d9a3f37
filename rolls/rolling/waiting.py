"""A waiting assist in the lists (issue 48, item 3): the sheet's rows, the API's targets list,
the GM table's cards and Discord's lists price a row the way its panel does — with the assist
that waits for the character's next action, which the panel takes by default — and say that one
waits. The price is the panel's own plan at its default options, so the lists cannot drift from
it. Only who may roll the character learns of a waiting assist (docs/rules.md, "Assists"); for
anyone else a row reads as it always did.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rolls.models.assists import Assist
from rolls.rolling.panel_values import bound_panel
from rolls.rolling.targets import SheetTarget, Target, sheet_targets
from sheets.models import Character, Membership
from sheets.systems import rule_system_of

if TYPE_CHECKING:
    from rolls.rolling.display import Band

# What a row that will take a waiting assist says, on every list.
ASSIST_WAITING = "an assist is waiting"


@dataclass(frozen=True)
class Priced:
    """A row's pool and odds with the waiting assist taken, and the assist's effect in words."""

    pool: dict[str, Any]
    bands: list[Band]
    assist: str  # "Ada's assist: +1 win"


def waiting_assist(character: Character, membership: Membership | None) -> Assist | None:
    """The assist waiting for ``character``'s next action, if ``membership`` may know of it (it
    may roll the character) and the system has assists; one query, remembered on the character
    for the rest of the request (a sheet asks once per row)."""
    if membership is None or not rule_system_of(character.campaign).rolling.has_assists:
        return None
    if not character.can_roll(membership):
        return None
    cache = character.__dict__.setdefault("_waiting_assist", {})
    if "found" not in cache:
        cache["found"] = Assist.objects.waiting_for(character).first()
    found: Assist | None = cache["found"]
    return found


def with_waiting_assist(
    character: Character, kind: str, obj: Any, membership: Membership | None
) -> Priced | None:
    """The row as its panel opens when an assist waits: the plan at the panel's defaults, which
    take the assist; None when none waits for this member to know of, or the row doesn't take
    one (a vocation only assists)."""
    assist = waiting_assist(character, membership)
    if assist is None or membership is None:
        return None
    row = rule_system_of(character.campaign).rolling.row_kind(kind)
    if row is None or row.assist_only:
        return None
    form = bound_panel(Target(kind=kind, obj=obj, character=character), membership, {})
    if not form.is_valid() or form.plan is None or not form.cleaned_data.get("use_assist"):
        return None
    return Priced(
        form.plan.pool, form.plan.bands, f"{assist.by_name}'s assist: {assist.effect_text}"
    )


def priced_targets(character: Character, membership: Membership | None) -> list[SheetTarget]:
    """The sheet's rows (:func:`sheet_targets`) as ``membership`` sees them: each row that would
    take a waiting assist priced with it and marked (``assist``)."""
    found = sheet_targets(character)
    if waiting_assist(character, membership) is None:
        return found
    rows = []
    for row in found:
        priced = with_waiting_assist(character, row.target.kind, row.target.obj, membership)
        if priced is not None:
            row = replace(row, pool=priced.pool, bands=priced.bands, assist=priced.assist)
        rows.append(row)
    return rows


def remember_waiting(characters: Iterable[Character]) -> None:
    """Read the waiting assists of many characters (a GM table's cards) in one query, so that
    :func:`waiting_assist` asks nothing more for each."""
    characters = list(characters)
    waiting = Assist.objects.waiting().filter(assisted__in=characters).select_related("entry")
    by_character = {assist.assisted_id: assist for assist in waiting}
    for character in characters:
        character.__dict__["_waiting_assist"] = {"found": by_character.get(character.pk)}
