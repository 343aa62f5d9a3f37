"""DAD6 Skills as the app sees it: d6 boons with competence bonuses (rules: rules.dad6)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rules import dad6
from sheets.character_json import export_dad6, import_dad6
from sheets.creation import Dad6CreationForm
from sheets.forms import Dad6SheetForm, Dad6SkillForm, SectionForm, UniqueNamesSection
from sheets.models import Dad6Sheet, Dad6Skill, System
from sheets.systems import (
    TABLE_ROWS,
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


def _fill(sheet: Dad6Sheet, build: dict[str, Any]) -> None:
    """A valid creation form's build, onto the new character's blank sheet."""
    sheet.class_name, sheet.level = build["class_name"], build["level"]
    sheet.save()
    Dad6Skill.objects.bulk_create(
        [Dad6Skill(sheet=sheet, name=name, is_class_skill=True) for name in build["class_skills"]]
        + [
            Dad6Skill(sheet=sheet, name=name, competence=competence)
            for name, competence in build["other_skills"]
        ]
    )


class Dad6Rolling(Rolling[Dad6Sheet]):
    form_path = "rolls.rolling.forms.dad6.Dad6RollForm"
    rows = (RowKind("dad6-skill", Dad6Skill, "sheet_id", ("sheet",)),)

    def odds(self, kind: str, row: Any) -> dict[str, Fraction]:
        # The rolled-forward boons count, as they will in the panel.
        return dad6.odds(
            row.pool, competence=row.effective_competence, bonus_boons=row.sheet.forward_boons
        )

    def pool(self, kind: str, row: Any) -> dict[str, object]:
        # The panel's figures at its default options (a mundane task, nothing traded): the same
        # keys as the target's detail and the roll's entry.
        return dict(
            dad6.pool_figures(
                row.pool,
                competence=row.effective_competence,
                bonus_boons=row.sheet.forward_boons,
            )
        )

    def skill_names(self, campaign: Campaign, *, vocations: bool = True) -> list[str]:
        """Every skill some sheet has, class skills first."""
        names = (
            Dad6Skill.objects.filter(sheet__character__campaign=campaign)
            .order_by("-is_class_skill", "name")
            .values_list("name", flat=True)
        )
        return list(dict.fromkeys(names))


class Dad6SheetPage(SheetPage[Dad6Sheet]):
    form = Dad6SheetForm
    sections = (
        SheetSection("class", "Class", figures=True, rolled=True),
        SheetSection("skills", "Skills"),
        SheetSection("banes", "Banes in play", saves=False, rolled=True),
    )

    def context(
        self,
        character: Character,
        sheet: Dad6Sheet,
        form: FormMaker,
        *,
        can_edit: bool,
        gm: bool,
        editing: str = "",
    ) -> dict[str, object]:
        rows = [(s, form("skills", f"skill-{s.pk}")) for s in sheet.skills.all()]
        # Read mode folds the skills a character is merely unfamiliar with (outside the class):
        # they roll no better than any skill never written down.
        folds = editing != "skills"
        return {
            "skills": [r for r in rows if not (folds and self._unused(r[0]))],
            "skills_folded": [r for r in rows if folds and self._unused(r[0])],
            "skills_count": len(rows),
            "add_skill_form": form(
                "skills", "add-skill", lambda: Dad6SkillForm(sheet=sheet, prefix="add-skill")
            ),
            "banes": list(sheet.banes.all()),
        }

    def rolled_context(self, sheet: Dad6Sheet) -> dict[str, object]:
        return {"banes": list(sheet.banes.all())}  # a bane bought or paid down by a roll

    @staticmethod
    def _unused(skill: Dad6Skill) -> bool:
        return not skill.is_class_skill and skill.competence == dad6.COMPETENCES[0]

    def section_form(self, key: str, sheet: Dad6Sheet, *, gm: bool, data: object) -> SectionForm:
        if key == "skills":
            return UniqueNamesSection(
                [
                    Dad6SkillForm(
                        data, instance=s, sheet=sheet, prefix=f"skill-{s.pk}", in_section=True
                    ).for_section()
                    for s in sheet.skills.all()
                ],
                what="skill",
            )
        return super().section_form(key, sheet, gm=gm, data=data)


def _key_rows(sheet: Dad6Sheet) -> list[TableRow]:
    """The skills the character is more than unfamiliar with, biggest pool first (class skills
    first among equals, as on the sheet)."""
    rows = [
        TableRow("dad6-skill", skill, f"{skill.pool}d6 {skill.effective_competence}")
        for skill in sheet.skills.all()
        if not Dad6SheetPage._unused(skill)
    ]
    rows.sort(key=lambda r: -r.row.pool)
    return rows[:TABLE_ROWS]


class Dad6System(RuleSystem[Dad6Sheet]):
    key = System.DAD6
    label = System.DAD6.label
    related_name = "dad6"
    sheet_model = Dad6Sheet

    json = SheetJson(dump=export_dad6, load=import_dad6)
    creation = Creation(form=Dad6CreationForm, fill=_fill)

    table = GmTable(
        difficulty=Difficulty(
            label="Difficulty (boons)",
            short="Difficulty",
            minimum=dad6.DIFFICULTY_MIN,
            maximum=dad6.DIFFICULTY_MAX,
            default=1,
            field="difficulty",
        ),
        contest_style_paths=("rolls.table.styles.dad6.Opposed",),
        resources_form_path="rolls.table.forms.Dad6ResourcesForm",
        opposition_adds_difficulty=True,
        summary_related=("dad6__skills",),  # the key rows: every sheet's skills in one read
        key_rows=_key_rows,
    )

    rolling = Dad6Rolling()
    results = Results(
        headline_path="rolls.rolling.punch.card_headline",
        follow_ups_path="rolls.rolling.followups.dad6.FOLLOW_UPS",
        follow_up_reads=("options", ("competence", "task", "difficulty", "traded_boons")),
        log_outcomes=("success", "failure"),
    )

    sheet_page = Dad6SheetPage()
