"""What can be rolled on a sheet: each rollable row is a target, named by a URL kind and its pk.

Targets are looked up *within* the character in the URL (404 otherwise), like every sheet row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import models
from django.http import Http404
from django.shortcuts import get_object_or_404

from sheets.models import (
    Character,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    CogentVocation,
    ColdStarsSheet,
    ColdStarsSkill,
    Dad6Sheet,
    Dad6Skill,
    System,
)

# URL kind → (system, model, lookup of the row within the character, related rows to load)
KINDS: dict[str, tuple[str, type[models.Model], str, tuple[str, ...]]] = {
    "cogent-skill": (System.COGENT, CogentSkill, "sheet_id", ("sheet",)),
    "cogent-vocation": (System.COGENT, CogentVocation, "sheet_id", ("sheet",)),
    "cogent-subskill": (System.COGENT, CogentSubSkill, "vocation__sheet_id", ("vocation__sheet",)),
    "dad6-skill": (System.DAD6, Dad6Skill, "sheet_id", ("sheet",)),
    "cold-stars-skill": (
        System.COLD_STARS,
        ColdStarsSkill,
        "sheet_id",
        ("sheet", "campaign_skill"),
    ),
}
SHEET_MODELS: dict[str, type[models.Model]] = {
    System.COGENT: CogentSheet,
    System.DAD6: Dad6Sheet,
    System.COLD_STARS: ColdStarsSheet,
}


@dataclass(frozen=True)
class Target:
    kind: str
    obj: Any
    character: Character

    @property
    def system(self) -> str:
        return KINDS[self.kind][0]

    @property
    def sheet(self) -> Any:
        if self.kind == "cogent-subskill":
            return self.obj.vocation.sheet
        return self.obj.sheet

    @property
    def label(self) -> str:
        if self.kind == "cogent-vocation":
            return f"{self.obj.name} (vocation)"
        if self.kind == "cogent-subskill" and self.obj.is_combat:
            return f"{self.obj.name} (combat)"
        return self.obj.name

    @property
    def is_combat(self) -> bool:
        return self.kind == "cogent-subskill" and self.obj.is_combat


def load_target(character: Character, kind: str, pk: int) -> Target:
    """The row ``pk`` of ``kind`` on this character's sheet; 404 for anything else."""
    if kind not in KINDS or KINDS[kind][0] != character.campaign.system:
        raise Http404("Nothing to roll there.")
    _, model, lookup, related = KINDS[kind]
    qs = model.objects.select_related(*related)
    if kind == "cold-stars-skill":
        qs = qs.prefetch_related("domains")
    obj = get_object_or_404(qs, pk=pk, **{lookup: character.pk})
    return Target(kind=kind, obj=obj, character=character)


def lock_sheet(character_id: int, system: str) -> Any:
    """Re-read the character's sheet row under a row lock (PostgreSQL ``FOR UPDATE``), so a
    resource is checked and spent by one request at a time."""
    return SHEET_MODELS[system].objects.select_for_update().get(pk=character_id)
