"""A waiting assist in the lists (issue 48, item 3): the sheet's rows, the API's targets list,
the GM table's cards and Discord's lists price a row the way its panel does — with the assist
that waits for the character's next action, which the panel takes by default — and say that one
waits. The price is the panel's own plan at its default options, so the lists cannot drift from
it. Only who may roll the character learns of a waiting assist (docs/rules.md, "Assists"); for
anyone else a row reads as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

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

    pool: dict[str, object]
    bands: list[Band]
    assist: str  # "Ada's assist: +1 win"


def waiting_assist(character: Character, membership: Membership | None) -> Assist | None:
    """The assist waiting for ``character``'s next action, if ``membership`` may know of it (it
    may roll the character) and the system has assists; one query, remembered on the character
    for the rest of the request (a sheet asks once per row)."""
    if membership is None or not character.can_roll(membership):
        return None
    cache = character.__dict__.setdefault("_waiting_assist", {})
    if "found" not in cache:
        has_assists = rule_system_of(character.campaign).rolling.has_assists
        cache["found"] = Assist.objects.waiting_for(character).first() if has_assists else None
    found: Assist | None = cache["found"]
    return found


def with_waiting_assist(
    character: Character, kind: str, obj: object, membership: Membership | None
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


def remember_waiting(characters: list[Character], *, has_assists: bool) -> None:
    """Read the waiting assists of many characters (a GM table's cards) in one query (none in a
    system without assists), so that :func:`waiting_assist` asks nothing more for each."""
    by_character: dict[int, Assist] = {}
    if has_assists:
        waiting = Assist.objects.waiting().filter(assisted__in=characters)
        by_character = {a.assisted_id: a for a in waiting.select_related("entry")}
    for character in characters:
        character.__dict__["_waiting_assist"] = {"found": by_character.get(character.pk)}


def assist_unsaid(form: object, values: dict[str, object]) -> str:
    """Taking an assist is explicit in the API (issue 48): when one waits, a roll says
    ``use_assist`` true or false — a client that never heard of assists would otherwise spend it
    unawares (the panel shows it ticked, so a page's roll has said so). The field's message, or
    "" when nothing is missing."""
    waiting = getattr(form, "waiting_assist", None)
    if waiting is None or values.get("use_assist") is not None:
        return ""
    return (
        f"{waiting.by_name}'s assist ({waiting.effect_text}) waits for this character's next "
        "action: say true to take it, or false to keep it for later."
    )
