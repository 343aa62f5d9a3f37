"""Cogent Roleplay as the app sees it: d6 pools against a Challenge Level (rules: rules.cogent)."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch
from django.forms import ModelForm

from rules import cogent
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
    SectionForm,
    UniqueNamesSection,
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
from sheets.systems import (
    TABLE_ROWS,
    CampaignSkills,
    Creation,
    Difficulty,
    FormMaker,
    GmTable,
    Results,
    Rolling,
    RowKind,
    RuleSystem,
    SheetJson,
    SheetPage,
    SheetSection,
    TableRow,
)

if TYPE_CHECKING:
    from sheets.models import Campaign, Character


def _fill(sheet: CogentSheet, build: dict[str, Any]) -> None:
    """A valid creation form's build, onto the new character's blank sheet."""
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


class CogentCombatSkills(CampaignSkills):
    label = "Combat skills"

    def form(self, campaign: Campaign, data: object) -> CogentCombatSkillForm:
        return CogentCombatSkillForm(data, campaign=campaign)

    def add(self, form: Any) -> str:
        skill = form.save()
        return f"Added {skill.name}: vocations can now take it as a combat skill."

    def context(self, campaign: Campaign) -> dict[str, object]:
        return {
            "combat_skills": COGENT_COMBAT_SKILLS,
            "custom_combat_skills": campaign.cogent_combat_skills.all(),
        }


class CogentRolling(Rolling[CogentSheet]):
    form_path = "rolls.rolling.forms.cogent.CogentRollForm"
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
    has_assists = True

    def odds(self, kind: str, row: Any) -> dict[str, Fraction]:
        # The panel's defaults: CL 1, or the assist's floor for a row that only assists (a
        # vocation), so the API's list and the panel price a vocation alike.
        found = self.row_kind(kind)
        cl = cogent.ASSIST_MIN_CL if found is not None and found.assist_only else 1
        return cogent.odds(row.pool, challenge_level=cl)

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

    def assist_names(self, sheet: CogentSheet) -> list[str]:
        names = list(sheet.skills.values_list("name", flat=True))
        for vocation in sheet.vocations.prefetch_related("subskills"):
            names.append(vocation.name)
            names += [sub.name for sub in vocation.subskills.all()]
        return list(dict.fromkeys(names))


class CogentSheetPage(SheetPage[CogentSheet]):
    form = CogentSheetForm
    sections = (
        SheetSection("attributes", "Attributes and resources", figures=True, rolled=True),
        SheetSection("injuries", "Injuries and disabling characteristics", saves=False),
        SheetSection("skills", "Core skills"),
        SheetSection("vocations", "Vocations"),
    )

    def context(
        self,
        character: Character,
        sheet: CogentSheet,
        form: FormMaker,
        *,
        can_edit: bool,
        gm: bool,
        editing: str = "",
    ) -> dict[str, object]:
        skills = list(sheet.skills.all())
        vocations = self._vocations(sheet)
        groups = self._skill_groups(sheet, skills, form, editing_skills=editing == "skills")
        return {
            "skill_groups": groups,
            "skills_count": len(skills),
            "skills_folded": sum(len(group["folded"]) for group in groups),
            "vocations": [self._vocation_rows(v, form) for v in vocations],
            "add_vocation_form": form(
                "vocations",
                "add-vocation",
                lambda: CogentVocationForm(sheet=sheet, prefix="add-vocation"),
            ),
            "add_injury_form": form(
                "injuries", "add-injury", lambda: CogentInjuryForm(sheet=sheet, prefix="add-injury")
            ),
            "add_disability_form": form(
                "injuries",
                "add-disability",
                lambda: CogentDisabilityForm(sheet=sheet, prefix="add-disability"),
            ),
            # Soft checks of the creation rules: for the people who can fix them, never blocking.
            "creation_warnings": sheet.creation_warnings(skills, vocations) if can_edit else [],
        }

    @staticmethod
    def _skill_groups(
        sheet: CogentSheet, skills: list[CogentSkill], form: FormMaker, *, editing_skills: bool
    ) -> list[dict[str, Any]]:
        """The skills under their governing attributes, in the sheet's attribute order."""
        groups: list[dict[str, object]] = []
        for attribute, label in CogentAttribute.choices:
            rows = [
                (s, form("skills", f"skill-{s.pk}")) for s in skills if s.attribute == attribute
            ]
            # Read mode folds the skills rated 0 (every character has all fifteen) behind
            # "Show all"; edit mode lists every one.
            groups.append(
                {
                    "label": label,
                    "value": sheet.attribute_value(attribute),
                    "shown": [r for r in rows if editing_skills or r[0].rating != 0],
                    "folded": [r for r in rows if not editing_skills and r[0].rating == 0],
                }
            )
        return groups

    @staticmethod
    def _vocation_rows(vocation: CogentVocation, form: FormMaker) -> dict[str, object]:
        """A vocation with its sub-skills, each with its form, and the add form while it has room."""
        v = vocation
        return {
            "vocation": v,
            "form": form("vocations", f"vocation-{v.pk}"),
            "subskills": [
                (sub, form("vocations", f"subskill-{sub.pk}")) for sub in v.subskills.all()
            ],
            "add_form": form(
                "vocations",
                f"add-subskill-{v.pk}",
                partial(CogentSubSkillForm, vocation=v, prefix=f"add-subskill-{v.pk}"),
            )
            if len(v.subskills.all()) < ranges.COGENT_SUBSKILLS_PER_VOCATION
            else None,
        }

    def _vocations(self, sheet: CogentSheet) -> list[CogentVocation]:
        # Each sub-skill's vocation is the very object listed (the prefetch sets it), which the
        # Vocations section relies on to check sub-skills against the vocation's new rating.
        return list(
            sheet.vocations.prefetch_related(
                Prefetch("subskills", queryset=CogentSubSkill.objects.order_by("slot"))
            )
        )

    def section_form(self, key: str, sheet: CogentSheet, *, gm: bool, data: object) -> SectionForm:
        if key == "skills":
            return SectionForm(
                [
                    CogentSkillForm(data, instance=s, prefix=f"skill-{s.pk}")
                    for s in sheet.skills.all()
                ]
            )
        if key == "vocations":
            parts: list[ModelForm] = []
            for v in self._vocations(sheet):
                # The vocation first: its sub-skills are then checked against its new rating.
                parts.append(
                    CogentVocationForm(
                        data, instance=v, sheet=sheet, prefix=f"vocation-{v.pk}", in_section=True
                    )
                )
                parts += [
                    CogentSubSkillRatingForm(data, instance=sub, prefix=f"subskill-{sub.pk}")
                    for sub in v.subskills.all()
                ]
            return UniqueNamesSection(parts, what="vocation")
        return super().section_form(key, sheet, gm=gm, data=data)


def _key_rows(sheet: CogentSheet) -> list[TableRow]:
    """The rated core skills and every vocational or combat skill, biggest pool first (a
    vocation itself only assists: it is never rolled on its own)."""
    rows = [
        TableRow("cogent-skill", skill, f"{skill.pool}d6")
        for skill in sheet.skills.all()
        if skill.rating > 0
    ]
    rows += [
        TableRow("cogent-subskill", sub, f"{sub.pool}d6")
        for vocation in sheet.vocations.all()
        for sub in vocation.subskills.all()
    ]
    rows.sort(key=lambda r: -r.row.pool)  # stable: sheet order among equal pools
    return rows[:TABLE_ROWS]


class CogentSystem(RuleSystem[CogentSheet]):
    key = System.COGENT
    label = System.COGENT.label
    related_name = "cogent"
    sheet_model = CogentSheet
    campaign_skills = CogentCombatSkills()

    json = SheetJson(dump=export_cogent, load=import_cogent)
    creation = Creation(form=CogentCreationForm, fill=_fill)

    table = GmTable(
        difficulty=Difficulty(
            label="Challenge Level",
            short="CL",
            minimum=cogent.CL_MIN,
            maximum=cogent.CL_MAX,
            default=cogent.CL_MIN,
            field="challenge_level",
        ),
        contest_style_paths=("rolls.table.styles.cogent.Conflict",),
        resources_form_path="rolls.table.forms.CogentResourcesForm",
        # The summary shows injury dice, and the key rows' pools take the injuries and the
        # disabling characteristics off: one read of each for every sheet, not one per sheet.
        summary_related=(
            "cogent__injuries",
            "cogent__disabilities",
            "cogent__skills",
            "cogent__vocations__subskills",
        ),
        key_rows=_key_rows,
    )

    rolling = CogentRolling()
    results = Results(
        headline_path="rolls.rolling.outcomes.cogent_headline",
        follow_ups_path="rolls.rolling.followups.cogent.FOLLOW_UPS",
        follow_up_reads=("options", ("challenge_level", "destiny_before", "reflexive")),
        log_outcomes=("success", "failure", "critical_failure"),
    )

    sheet_page = CogentSheetPage()
