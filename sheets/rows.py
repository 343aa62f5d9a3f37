"""The rows a sheet page adds and removes, one line each: one view (``views.sheet_row``) and one
URL pattern per line serve them all. A row's values are saved with its whole section
(``views.sheet_section``), never one row at a time.

A row is always looked up *within* the character in the URL (``lookup`` is its path to the
character's pk), so another sheet's row is a 404 like an unknown one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.forms import ModelForm
from django.urls import URLPattern, path

from sheets.forms import (
    CogentDisabilityForm,
    CogentInjuryForm,
    CogentSubSkillForm,
    CogentVocationForm,
    ColdStarsDomainForm,
    Dad6SkillForm,
)
from sheets.models import (
    CogentDisability,
    CogentInjury,
    CogentSubSkill,
    CogentVocation,
    ColdStarsDomain,
    ColdStarsSkill,
    Dad6Bane,
    Dad6Skill,
    System,
)

ADD, DELETE = "add", "delete"

# (data, the row or its parent (None when added to the sheet), the sheet) → a bound form
FormBuilder = Callable[[object, Any, Any], ModelForm]


@dataclass(frozen=True)
class SheetRow:
    name: str  # the URL name
    route: str  # after characters/<id:pk>/
    system: str
    action: str  # ADD or DELETE
    model: type[models.Model] | None = None  # the row (delete) or its parent (add under one)
    lookup: str = "sheet_id"
    filters: dict[str, object] = field(default_factory=dict)
    related: tuple[str, ...] = ()
    form: FormBuilder | None = None
    key: Callable[[object], str] = lambda obj: ""  # the form's prefix, and its slot on the page
    saved: Callable[[Any], str] = lambda obj: ""  # the message after it worked
    anchor: Callable[[Any], str] = lambda obj: ""  # where the page returns to
    refuse: Callable[[Any], str] = lambda obj: ""  # why it can't be deleted now ("": it can)
    question: Callable[[Any], str] = lambda obj: str(obj)  # a delete's "Remove …?"
    # The sheet section whose edit mode holds the row's controls: an add or a remove returns
    # to it, and a row form with errors is shown in it.
    section: str = ""

    def queryset(self) -> models.QuerySet[Any]:
        assert self.model is not None
        qs = self.model._default_manager.filter(**self.filters)
        return qs.select_related(*self.related) if self.related else qs


def _row_key(prefix: str) -> Callable[[Any], str]:
    return lambda obj: f"{prefix}-{obj.pk}"


def _removed_name(obj: Any) -> str:
    return f"Removed {obj.name}."


ROWS: tuple[SheetRow, ...] = (
    # Cogent
    SheetRow(
        "cogent_injury_add",
        "cogent/injuries/",
        System.COGENT,
        ADD,
        form=lambda data, _, sheet: CogentInjuryForm(data, sheet=sheet, prefix="add-injury"),
        key=lambda _: "add-injury",
        saved=lambda _: "Added the injury.",
        anchor=lambda _: "injuries",
        section="injuries",
    ),
    SheetRow(
        "cogent_injury_delete",
        "cogent/injuries/<id:row_pk>/delete/",
        System.COGENT,
        DELETE,
        CogentInjury,
        saved=lambda injury: f"Removed the {injury}.",
        anchor=lambda _: "injuries",
        section="injuries",
    ),
    SheetRow(
        "cogent_disability_add",
        "cogent/disabilities/",
        System.COGENT,
        ADD,
        form=lambda data, _, sheet: CogentDisabilityForm(
            data, sheet=sheet, prefix="add-disability"
        ),
        key=lambda _: "add-disability",
        saved=lambda _: "Added it.",
        anchor=lambda _: "injuries",
        section="injuries",
    ),
    SheetRow(
        "cogent_disability_delete",
        "cogent/disabilities/<id:row_pk>/delete/",
        System.COGENT,
        DELETE,
        CogentDisability,
        saved=_removed_name,
        anchor=lambda _: "injuries",
        section="injuries",
    ),
    SheetRow(
        "cogent_vocation_add",
        "cogent/vocations/",
        System.COGENT,
        ADD,
        form=lambda data, _, sheet: CogentVocationForm(data, sheet=sheet, prefix="add-vocation"),
        key=lambda _: "add-vocation",
        saved=lambda _: "Added the vocation.",
        anchor=lambda _: "vocations",
        section="vocations",
    ),
    SheetRow(
        "cogent_vocation_delete",
        "cogent/vocations/<id:row_pk>/delete/",
        System.COGENT,
        DELETE,
        CogentVocation,
        saved=_removed_name,
        anchor=lambda _: "vocations",
        question=lambda vocation: f"the vocation {vocation.name}",
        section="vocations",
    ),
    SheetRow(
        "cogent_subskill_add",
        "cogent/vocations/<id:row_pk>/subskills/",
        System.COGENT,
        ADD,
        CogentVocation,  # the parent: a sub-skill is added under its vocation
        form=lambda data, vocation, _: CogentSubSkillForm(
            data, vocation=vocation, prefix=f"add-subskill-{vocation.pk}"
        ),
        key=_row_key("add-subskill"),
        saved=lambda _: "Added the sub-skill.",
        anchor=_row_key("vocation"),
        section="vocations",
    ),
    SheetRow(
        "cogent_subskill_delete",
        "cogent/subskills/<id:row_pk>/delete/",
        System.COGENT,
        DELETE,
        CogentSubSkill,
        lookup="vocation__sheet_id",
        saved=_removed_name,
        anchor=lambda sub: f"vocation-{sub.vocation_id}",
        section="vocations",
    ),
    # DAD6
    SheetRow(
        "dad6_skill_add",
        "dad6/skills/",
        System.DAD6,
        ADD,
        form=lambda data, _, sheet: Dad6SkillForm(data, sheet=sheet, prefix="add-skill"),
        key=lambda _: "add-skill",
        saved=lambda _: "Added the skill.",
        anchor=lambda _: "skills",
        section="skills",
    ),
    SheetRow(
        "dad6_skill_delete",
        "dad6/skills/<id:row_pk>/delete/",
        System.DAD6,
        DELETE,
        Dad6Skill,
        saved=_removed_name,
        anchor=lambda _: "skills",
        section="skills",
    ),
    # The owner or the GM takes a bane out of play (an extra boon pays one down from the log).
    SheetRow(
        "dad6_bane_delete",
        "dad6/banes/<id:row_pk>/delete/",
        System.DAD6,
        DELETE,
        Dad6Bane,
        saved=lambda bane: f"Removed the bane: {bane.description}.",
        anchor=lambda _: "banes",
        question=lambda bane: f"the bane {bane.description}",
        section="banes",
    ),
    # Cold Stars
    SheetRow(
        "cold_stars_domain_add",
        "cold-stars/skills/<id:row_pk>/domains/",
        System.COLD_STARS,
        ADD,
        ColdStarsSkill,  # the parent
        filters={"is_domain": True},
        form=lambda data, skill, _: ColdStarsDomainForm(
            data, skill=skill, prefix=f"domain-{skill.pk}"
        ),
        key=_row_key("domain"),
        saved=lambda skill: f"Added a {skill.name} domain.",
        anchor=_row_key("skill"),
        section="skills",
    ),
    SheetRow(
        "cold_stars_domain_delete",
        "cold-stars/domains/<id:row_pk>/delete/",
        System.COLD_STARS,
        DELETE,
        ColdStarsDomain,
        lookup="skill__sheet_id",
        related=("skill",),
        saved=lambda domain: f"Removed the domain {domain.name}.",
        anchor=lambda domain: f"skill-{domain.skill_id}",
        refuse=lambda domain: domain.deletion_problem(),
        question=lambda domain: f"the domain {domain.name}",
        section="skills",
    ),
)


def row_urls(view: Callable[..., Any]) -> list[URLPattern]:
    """One URL pattern per row line, each naming its line for ``view``."""
    return [
        path(f"characters/<id:pk>/{row.route}", view, {"row": row}, name=row.name) for row in ROWS
    ]
