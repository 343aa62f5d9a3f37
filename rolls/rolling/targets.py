"""What can be rolled on a sheet: each rollable row is a target, named by a URL kind and its pk.

Targets are looked up *within* the character in the URL (404 otherwise), like every sheet row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connections, router
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode

from rolls.rolling.display import Band, bands
from rolls.rolling.forms.cogent_pools import default_weapon
from rolls.rolling.row_read import RowRead
from sheets.access import character_for_roller, check_reader, check_roller
from sheets.models import Character, Membership, Sheet
from sheets.systems import RowKind, RuleSystem, all_rule_systems, rule_system_of
from web.http import AuthenticatedHttpRequest


@dataclass(frozen=True)
class Target:
    kind: str
    obj: Any
    character: Character

    @property
    def system(self) -> str:
        return self.character.campaign.system

    @property
    def sheet(self) -> Sheet:
        return self.obj.owning_sheet

    @property
    def label(self) -> str:
        return self.obj.roll_label

    @property
    def is_combat(self) -> bool:
        return self.obj.is_combat


def load_target(character: Character, kind: str, pk: int) -> Target:
    """The row ``pk`` of ``kind`` on this character's sheet; 404 for anything else."""
    row = rule_system_of(character.campaign).rolling.row_kind(kind)
    if row is None:
        raise Http404("Nothing to roll there.")
    qs = row.model._default_manager.select_related(*row.related).prefetch_related(*row.prefetch)
    obj = get_object_or_404(qs, pk=pk, **{row.lookup: character.pk})
    return Target(kind=kind, obj=obj, character=character)


def target_for_roller(
    request: AuthenticatedHttpRequest, pk: int, kind: str, target_pk: int
) -> tuple[Target, Membership]:
    """The row a roll panel, its odds or a roll is for, and the roller's membership — in one
    query with the sheet, the character, its campaign, the membership and what the panel reads
    about the character (the roll is the hot path: docs/performance.md). The permission answers
    are :func:`character_for_roller`'s then :func:`load_target`'s: a non-member or a hidden NPC
    is a 404, a member who may not roll a 403, a row that isn't on this character's sheet a
    404."""
    found = _roll_rows(kind)
    if found is not None:
        system, build = found
        obj = build(target_pk, pk, request.user.pk)
        character = obj.owning_sheet.character if obj is not None else None
        if character is not None and character.campaign.system == system:
            membership = check_reader(character, obj)
            check_roller(character, membership)
            return Target(kind=kind, obj=obj, character=character), membership
    # Whatever didn't check out, the step-by-step way says why.
    character, membership = character_for_roller(request, pk)
    return load_target(character, kind, target_pk), membership


# The roll's row read of a kind: (pk, character pk, user id) → the row, or None.
type _RowQuery = Callable[[int, int, int], Any]


@cache
def _roll_rows(kind: str) -> tuple[str, _RowQuery] | None:
    """The rule system whose row ``kind`` is and the row read for it (one per kind and
    process)."""
    for system in all_rule_systems():
        row = system.rolling.row_kind(kind)
        if row is not None:
            return system.key, _row_query(system, row)
    return None


def _row_query(system: RuleSystem[Any], row: RowKind) -> _RowQuery:
    to_campaign = row.lookup.removesuffix("_id") + "__character__campaign"

    @cache
    def read(alias: str) -> RowRead:
        # Not the owner: nothing a roll shows names them. The log's head is: a roll links its
        # entry to it (RollEntryQuerySet.append), and read here it costs no round trip of its
        # own. Written once per kind, process and database (rolls/rolling/row_read.py).
        return RowRead.write(
            connections[alias],
            row.model,
            row.lookup,
            (*row.related, f"{to_campaign}__log_head"),
            campaign=to_campaign,
            roll_state=system.rolling.form_class.roll_state,
            prefetch=row.prefetch,
        )

    def load(pk: int, character: int, user: int) -> Any:
        return read(router.db_for_read(row.model)).load(pk, character, user)

    return load


@dataclass(frozen=True)
class SheetTarget:
    """A rollable row as the sheet lists it: the target, its pool and odds at the panel's
    default options."""

    target: Target
    pool: dict[str, Any]
    bands: list[Band]
    # The waiting assist the row's panel takes (rolls/rolling/waiting.py), in words; "" for none.
    assist: str = ""


def sheet_targets(character: Character) -> list[SheetTarget]:
    """Every rollable row of the sheet with its pool and odds at the panel's default options —
    what the sheet shows beside each Roll button (the API's targets, Discord's autocomplete)."""
    system = rule_system_of(character.campaign)
    # One sheet for every row: what a pool reads of it (Cogent's injuries and disabling
    # characteristics) is then read once, not once per row.
    sheet = system.read_sheet(character.pk)
    found = []
    for row in system.rolling.rows:
        rows = row.model._default_manager.filter(**{row.lookup: character.pk})
        rows = rows.select_related(*row.related).prefetch_related(*row.prefetch)
        *path, name = row.lookup.removesuffix("_id").split("__")
        for obj in rows.order_by(*row.order_by) if row.order_by else rows:
            holder = obj
            for step in path:
                holder = getattr(holder, step)
            setattr(holder, name, sheet)
            found.append(
                SheetTarget(
                    Target(kind=row.kind, obj=obj, character=character),
                    system.rolling.pool(row.kind, obj),
                    bands(system.rolling.odds(row.kind, obj)),
                )
            )
    return found


def find_target(character: Character, name: str, *, assist: bool = False) -> Target | None:
    """The row called ``name`` on this character's sheet, or None when the sheet has none.

    Names are unique per sheet, except Cogent sub-skills (unique per vocation): the first one, in
    vocation order, is taken. A Cogent vocation is found only for an assist (rules at the table:
    vocations only assist), so a call or a contest never rolls one.
    """
    for row in rule_system_of(character.campaign).rolling.rows:
        if row.assist_only and not assist:
            continue
        qs = row.model._default_manager.filter(**{row.lookup: character.pk}, name=name)
        if row.order_by:
            qs = qs.order_by(*row.order_by)
        pk = qs.values_list("pk", flat=True).first()
        if pk is not None:
            return load_target(character, row.kind, pk)
    return None


def row_names(character: Character, *, assist: bool = False) -> dict[str, tuple[str, int]]:
    """Every rollable row of this sheet by name → (URL kind, pk), the one :func:`find_target`
    would pick for that name; one query per kind of row, however many names are looked up."""
    found: dict[str, tuple[str, int]] = {}
    for row in rule_system_of(character.campaign).rolling.rows:
        if row.assist_only and not assist:
            continue
        qs = row.model._default_manager.filter(**{row.lookup: character.pk})
        if row.order_by:
            qs = qs.order_by(*row.order_by)
        for name, pk in qs.values_list("name", "pk"):
            found.setdefault(name, (row.kind, pk))
    return found


def assist_panel_url(
    target: Target, assisted_pk: int, challenge_level: int, further_helpers: int = 0
) -> str:
    """The assisting row's roll panel, set up to roll an assist for ``assisted_pk`` (a request
    answered from a sheet, or the GM table's form): a combat row keeps its stored weapon, so the
    pool is the sheet's."""
    params: dict[str, Any] = {
        "assist_for": assisted_pk,
        "challenge_level": challenge_level,
        "extra_penalty": 0,
    }
    if further_helpers:
        params["further_helpers"] = further_helpers
    if target.is_combat:
        params |= default_weapon(target.obj)
    url = reverse("roll_panel", args=[target.character.pk, target.kind, target.obj.pk])
    return f"{url}?{urlencode(params)}"
