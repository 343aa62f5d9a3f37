"""Cogent Roleplay as the app sees it: d6 pools against a Challenge Level (rules: rolls.rules.cogent)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch

from rolls.rules import cogent
from sheets import ranges
from sheets.character_json import export_cogent, import_cogent
from sheets.creation import CogentCreationForm
from sheets.forms import (
    CogentCombatSkillForm,
    CogentDisabilityForm,
    CogentInjuryForm,
    CogentSheetForm,
    CogentSkillForm,
    CogentSubSkillForm,
    CogentSubSkillRatingForm,
    CogentVocationForm,
)
from sheets.models import (
    COGENT_COMBAT_SKILLS,
    COGENT_CORE_SKILLS,
    CogentAttribute,
    CogentDisability,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    CogentVocation,
    System,
)
from sheets.systems import ContestStyle, Difficulty, FormMaker, RowKind, RuleSystem

if TYPE_CHECKING:
    from sheets.models import Campaign, Character


class CogentSystem(RuleSystem[CogentSheet]):
    key = System.COGENT
    label = System.COGENT.label
    related_name = "cogent"
    sheet_model = CogentSheet
    sheet_form = CogentSheetForm
    roll_form_path = "rolls.rolling.forms.cogent.CogentRollForm"
    resources_form_path = "rolls.table.forms.CogentResourcesForm"
    difficulty = Difficulty(
        label="Challenge Level",
        short="CL",
        minimum=cogent.CL_MIN,
        maximum=cogent.CL_MAX,
        default=cogent.CL_MIN,
        field="challenge_level",
    )
    contest_styles = (ContestStyle("cogent_conflict", both_roll=True, rounds=True),)
    log_outcomes = ("success", "failure", "critical_failure")
    follow_up_reads = ("options", ("challenge_level", "destiny_before", "reflexive"))
    follow_ups_module = "rolls.rolling.followups.cogent"
    headline_path = "rolls.rolling.outcomes.cogent_headline"
    rows = (
        RowKind("cogent-skill", CogentSkill, "sheet_id", ("sheet",)),
        # Rules at the table: vocations only assist, so a call or contest never finds one.
        RowKind("cogent-vocation", CogentVocation, "sheet_id", ("sheet",), assist_only=True),
        RowKind(
            "cogent-subskill",
            CogentSubSkill,
            "vocation__sheet_id",
            ("vocation__sheet",),
            order_by=("vocation__name", "slot"),
        ),
    )
    campaign_skills_label = "Combat skills"
    has_assists = True
    creation_form = CogentCreationForm

    def sheet_context(
        self, character: Character, sheet: CogentSheet, form: FormMaker, *, can_edit: bool, gm: bool
    ) -> dict[str, Any]:
        skills = list(sheet.skills.all())
        vocations = list(
            sheet.vocations.prefetch_related(
                Prefetch("subskills", queryset=CogentSubSkill.objects.order_by("slot"))
            )
        )
        return {
            "skill_groups": [
                (
                    label,
                    sheet.attribute_value(attribute),
                    [
                        (
                            s,
                            form(
                                f"skill-{s.pk}",
                                lambda s=s: CogentSkillForm(instance=s, prefix=f"skill-{s.pk}"),
                            ),
                        )
                        for s in skills
                        if s.attribute == attribute
                    ],
                )
                for attribute, label in CogentAttribute.choices
            ],
            "vocations": [
                {
                    "vocation": v,
                    "form": form(
                        f"vocation-{v.pk}",
                        lambda v=v: CogentVocationForm(
                            instance=v, sheet=sheet, prefix=f"vocation-{v.pk}"
                        ),
                    ),
                    "subskills": [
                        (
                            sub,
                            form(
                                f"subskill-{sub.pk}",
                                lambda sub=sub: CogentSubSkillRatingForm(
                                    instance=sub, prefix=f"subskill-{sub.pk}"
                                ),
                            ),
                        )
                        for sub in v.subskills.all()
                    ],
                    "add_form": form(
                        f"add-subskill-{v.pk}",
                        lambda v=v: CogentSubSkillForm(vocation=v, prefix=f"add-subskill-{v.pk}"),
                    )
                    if len(v.subskills.all()) < ranges.COGENT_SUBSKILLS_PER_VOCATION
                    else None,
                }
                for v in vocations
            ],
            "add_vocation_form": form(
                "add-vocation", lambda: CogentVocationForm(sheet=sheet, prefix="add-vocation")
            ),
            "add_injury_form": form(
                "add-injury", lambda: CogentInjuryForm(sheet=sheet, prefix="add-injury")
            ),
            "add_disability_form": form(
                "add-disability", lambda: CogentDisabilityForm(sheet=sheet, prefix="add-disability")
            ),
            # Soft checks of the creation rules: for the people who can fix them, never blocking.
            "creation_warnings": sheet.creation_warnings(skills, vocations) if can_edit else [],
        }

    def summary_related(self) -> tuple[str, ...]:
        # The summary shows injury dice: one read of every sheet's injuries, not one per sheet.
        return ("cogent__injuries",)

    def skill_names(self, campaign: Campaign, *, vocations: bool = True) -> list[str]:
        """The 15 core skills every sheet has, then the vocations (for assists only) and the
        vocational or combat skills some sheet has."""
        names = [name for name, _ in COGENT_CORE_SKILLS]
        if vocations:
            names += CogentVocation.objects.filter(sheet__character__campaign=campaign).values_list(
                "name", flat=True
            )
        names += CogentSubSkill.objects.filter(
            vocation__sheet__character__campaign=campaign
        ).values_list("name", flat=True)
        return list(dict.fromkeys(names))

    def row_odds(self, kind: str, row: Any) -> dict[str, Fraction]:
        return cogent.odds(row.pool)

    def campaign_skill_form(self, campaign: Campaign, data: Any) -> CogentCombatSkillForm:
        return CogentCombatSkillForm(data, campaign=campaign)

    def add_campaign_skill(self, form: Any) -> str:
        skill = form.save()
        return f"Added {skill.name}: vocations can now take it as a combat skill."

    def campaign_skills_context(self, campaign: Campaign) -> dict[str, Any]:
        return {
            "combat_skills": COGENT_COMBAT_SKILLS,
            "custom_combat_skills": campaign.cogent_combat_skills.all(),
        }

    def export_sheet(self, sheet: CogentSheet) -> dict[str, Any]:
        return export_cogent(sheet)

    def import_sheet(self, sheet: CogentSheet, data: dict[str, Any], c: Any, **kwargs: Any) -> None:
        import_cogent(sheet, data, c, **kwargs)

    # --- guided creation ---------------------------------------------------------------------
    def create_from(self, character: Character, build: dict[str, Any]) -> None:
        sheet = self.sheet_of(character)
        for attribute, points in build["attributes"].items():
            setattr(sheet, attribute, points)
        sheet.save()
        skills = list(sheet.skills.order_by("position"))
        for skill, rating in zip(skills, build["skills"], strict=True):
            skill.rating = rating
            if skill.has_craft:
                skill.craft = build["craft"]
        CogentSkill.objects.bulk_update(skills, ["rating", "craft"])
        CogentDisability.objects.bulk_create(
            CogentDisability(sheet=sheet, name=name) for name, _ in build["disabilities"]
        )
        for name, attribute, rating, subs in build["vocations"]:
            vocation = CogentVocation.objects.create(
                sheet=sheet, name=name, attribute=attribute, rating=rating
            )
            CogentSubSkill.objects.bulk_create(
                CogentSubSkill(
                    vocation=vocation,
                    slot=slot,
                    kind=kind,
                    name=sub_name,
                    attribute=sub_attribute,
                    rating=sub_rating,
                )
                for slot, (kind, sub_name, sub_attribute, sub_rating) in enumerate(subs, start=1)
            )
