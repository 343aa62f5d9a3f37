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


# ---------------------------------------------------------------------------------------------
# Skills by name: what the GM table asks for (a call for a roll, a contest side)
# ---------------------------------------------------------------------------------------------


def skill_names(campaign: Any, *, vocations: bool = True) -> list[str]:
    """The skill names the GM may ask for in this campaign, in sheet order.

    Cogent: the 15 core skills every sheet has, then the vocations and vocational or combat
    skills some sheet has. DAD6: every skill some sheet has. Cold Stars: the catalog and the
    campaign's own skills (every sheet has them all).
    """
    from sheets.catalog import cold_stars_catalog
    from sheets.models import COGENT_CORE_SKILLS, CampaignSkill

    system = campaign.system
    if system == System.COGENT:
        names = [name for name, _ in COGENT_CORE_SKILLS]
        if (
            vocations
        ):  # rules at the table: vocations only assist; a call or contest never names one
            names += CogentVocation.objects.filter(sheet__character__campaign=campaign).values_list(
                "name", flat=True
            )
        names += CogentSubSkill.objects.filter(
            vocation__sheet__character__campaign=campaign
        ).values_list("name", flat=True)
    elif system == System.DAD6:
        names = list(
            Dad6Skill.objects.filter(sheet__character__campaign=campaign)
            .order_by("-is_class_skill", "name")
            .values_list("name", flat=True)
        )
    else:
        names = [skill.name for skill in cold_stars_catalog()]
        names += CampaignSkill.objects.filter(campaign=campaign).values_list("name", flat=True)
    return list(dict.fromkeys(names))


def find_target(character: Character, name: str, *, assist: bool = False) -> Target | None:
    """The row called ``name`` on this character's sheet, or None when the sheet has none.

    Names are unique per sheet, except Cogent sub-skills (unique per vocation): the first one, in
    vocation order, is taken. A Cogent vocation is found only for an assist (rules at the table:
    vocations only assist), so a call or a contest never rolls one.
    """
    system = character.campaign.system
    candidates: list[tuple[str, Any]] = []
    if system == System.COGENT:
        candidates = [("cogent-skill", CogentSkill.objects.filter(sheet_id=character.pk))]
        if assist:
            candidates.append(
                ("cogent-vocation", CogentVocation.objects.filter(sheet_id=character.pk))
            )
        candidates += [
            (
                "cogent-subskill",
                CogentSubSkill.objects.filter(vocation__sheet_id=character.pk).order_by(
                    "vocation__name", "slot"
                ),
            ),
        ]
    elif system == System.DAD6:
        candidates = [("dad6-skill", Dad6Skill.objects.filter(sheet_id=character.pk))]
    elif system == System.COLD_STARS:
        candidates = [("cold-stars-skill", ColdStarsSkill.objects.filter(sheet_id=character.pk))]
    for kind, qs in candidates:
        pk = qs.filter(name=name).values_list("pk", flat=True).first()
        if pk is not None:
            return load_target(character, kind, pk)
    return None
