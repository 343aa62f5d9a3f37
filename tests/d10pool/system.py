"""D10 Pool as the app sees it: the seam object the test settings register."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from sheets.forms import SectionForm
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
    SheetPage,
    SheetSection,
    TableRow,
)
from tests.d10pool import rules
from tests.d10pool.forms import D10CreationForm, D10SheetForm
from tests.d10pool.models import D10Sheet, D10Skill

if TYPE_CHECKING:
    from sheets.models import Campaign, Character


def _fill(sheet: D10Sheet, build: dict[str, Any]) -> None:
    """A valid creation form's build, onto the new character's blank sheet."""
    sheet.grit = build["grit"]
    sheet.save(update_fields=["grit"])


class D10Rolling(Rolling[D10Sheet]):
    form_path = "tests.d10pool.forms.D10RollForm"
    rows = (RowKind("d10-skill", D10Skill, "sheet_id", ("sheet",)),)

    def odds(self, kind: str, row: Any) -> dict[str, Fraction]:
        return rules.odds(row.dice, need=1)

    def pool(self, kind: str, row: Any) -> dict[str, Any]:
        return {"dice": row.dice}

    def skill_names(self, campaign: Campaign, *, vocations: bool = True) -> list[str]:
        names = D10Skill.objects.filter(sheet__character__campaign=campaign).values_list(
            "name", flat=True
        )
        return sorted(set(names))


class D10SheetPage(SheetPage[D10Sheet]):
    form = D10SheetForm
    sections = (
        SheetSection("grit", "Grit", figures=True, rolled=True),
        SheetSection("skills", "Skills", saves=False),
    )

    def context(
        self,
        character: Character,
        sheet: D10Sheet,
        form: FormMaker,
        *,
        can_edit: bool,
        gm: bool,
        editing: str = "",
    ) -> dict[str, Any]:
        return {"skills": list(sheet.skills.all())}

    def section_form(self, key: str, sheet: D10Sheet, *, gm: bool, data: Any) -> SectionForm:
        return super().section_form(key, sheet, gm=gm, data=data)


def _key_rows(sheet: D10Sheet) -> list[TableRow]:
    """The GM table's key rows: the most dice first."""
    skills = sorted(sheet.skills.all(), key=lambda skill: -skill.dice)
    return [TableRow("d10-skill", s, f"{s.dice}d10") for s in skills[:TABLE_ROWS]]


class D10PoolSystem(RuleSystem[D10Sheet]):
    key = "d10pool"
    label = "D10 Pool"
    related_name = "d10pool"
    sheet_model = D10Sheet
    creation = Creation(form=D10CreationForm, fill=_fill)

    table = GmTable(
        difficulty=Difficulty(
            label="Successes needed",
            short="Need",
            minimum=rules.NEED_MIN,
            maximum=rules.NEED_MAX,
            default=1,
            field="need",
        ),
        contest_style_paths=("tests.d10pool.contests.Opposed",),
        resources_form_path="tests.d10pool.forms.D10ResourcesForm",
        summary_related=("d10pool__skills",),
        key_rows=_key_rows,
    )

    rolling = D10Rolling()
    results = Results(
        headline_path="tests.d10pool.outcomes.headline",
        follow_ups_path="tests.d10pool.followups.FOLLOW_UPS",
        follow_up_reads=("options", ("need",)),
        log_outcomes=("success", "failure"),
    )

    sheet_page = D10SheetPage()
