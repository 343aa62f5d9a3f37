"""What can be rolled on a sheet: each rollable row is a target, named by a URL kind and its pk.

Targets are looked up *within* the character in the URL (404 otherwise), like every sheet row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404

from sheets.models import Character, Sheet


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
    row = character.campaign.rule_system.row_kind(kind)
    if row is None:
        raise Http404("Nothing to roll there.")
    qs = row.model._default_manager.select_related(*row.related).prefetch_related(*row.prefetch)
    obj = get_object_or_404(qs, pk=pk, **{row.lookup: character.pk})
    return Target(kind=kind, obj=obj, character=character)


def find_target(character: Character, name: str, *, assist: bool = False) -> Target | None:
    """The row called ``name`` on this character's sheet, or None when the sheet has none.

    Names are unique per sheet, except Cogent sub-skills (unique per vocation): the first one, in
    vocation order, is taken. A Cogent vocation is found only for an assist (rules at the table:
    vocations only assist), so a call or a contest never rolls one.
    """
    for row in character.campaign.rule_system.rows:
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
    for row in character.campaign.rule_system.rows:
        if row.assist_only and not assist:
            continue
        qs = row.model._default_manager.filter(**{row.lookup: character.pk})
        if row.order_by:
            qs = qs.order_by(*row.order_by)
        for name, pk in qs.values_list("name", "pk"):
            found.setdefault(name, (row.kind, pk))
    return found
