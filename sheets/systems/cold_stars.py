"""Cold Stars as the app sees it: Ability, Skill and Risk dice on d10 (rules: rules.cold_stars)."""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch

from rules import OUTCOMES_BEST_FIRST, cold_stars
from sheets.catalog import cold_stars_catalog, cold_stars_groups
from sheets.character_json import export_cold_stars, import_cold_stars
from sheets.creation import ColdStarsCreationForm
from sheets.forms import (
    CampaignSkillForm,
    ColdStarsDomainForm,
    ColdStarsSheetForm,
    ColdStarsSkillForm,
    SectionForm,
)
from sheets.models import (
    CampaignSkill,
    ColdStarsDomain,
    ColdStarsSheet,
    ColdStarsSkill,
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


def _fill(sheet: ColdStarsSheet, build: dict[str, Any]) -> None:
    """A valid creation form's build, onto the new character's blank sheet."""
    for ability, rating in build["abilities"].items():
        setattr(sheet, ability, rating)
    sheet.save()
    # The blank sheet has a row for every catalog and campaign skill; the form names them so.
    rows = {
        row.catalog_key or f"campaign-{row.campaign_skill_id}": row for row in sheet.skills.all()
    }
    trained, domains = [], []
    for key, _, rating, _, domain in build["skills"]:
        row = rows.get(key)
        if row is None or rating is None:
            continue  # a skill the GM added a moment ago stays untrained
        row.trained, row.rating = True, rating
        trained.append(row)
        if domain:
            domains.append(ColdStarsDomain(skill=row, name=domain))
    ColdStarsSkill.objects.bulk_update(trained, ["trained", "rating"])
    ColdStarsDomain.objects.bulk_create(domains)


class ColdStarsSkills(CampaignSkills):
    label = "Skills"

    def form(self, campaign: Campaign, data: object) -> CampaignSkillForm:
        return CampaignSkillForm(data, campaign=campaign)

    def add(self, form: Any) -> str:
        skill = form.save()
        skill.add_to_sheets()
        return f"Added {skill.name} to every sheet in the campaign."

    def context(self, campaign: Campaign) -> dict[str, Any]:
        return {
            "custom_skills": CampaignSkill.objects.filter(campaign=campaign),
            "catalog": cold_stars_catalog(),
        }


class ColdStarsRolling(Rolling[ColdStarsSheet]):
    form_path = "rolls.rolling.forms.cold_stars.ColdStarsRollForm"
    rows = (
        RowKind(
            "cold-stars-skill",
            ColdStarsSkill,
            "sheet_id",
            # Not the domains: only a skill that needs one reads them (rolls/rolling/forms/).
            ("sheet", "campaign_skill"),
        ),
    )

    def odds(self, kind: str, row: Any) -> dict[str, Fraction]:
        return cold_stars.odds(row.pool)

    def pool(self, kind: str, row: Any) -> dict[str, object]:
        pool = row.pool
        return {"ability": pool.ability, "skill": pool.skill, "risk": pool.risk}

    def skill_names(self, campaign: Campaign, *, vocations: bool = True) -> list[str]:
        """The catalog and the campaign's own skills: every sheet has them all."""
        names = [skill.name for skill in cold_stars_catalog()]
        names += CampaignSkill.objects.filter(campaign=campaign).values_list("name", flat=True)
        return list(dict.fromkeys(names))


class ColdStarsSheetPage(SheetPage[ColdStarsSheet]):
    form = ColdStarsSheetForm
    form_takes_gm = True  # the resource maximums are the GM's
    sections = (
        SheetSection("abilities", "Abilities and resources", figures=True, rolled=True),
        SheetSection("skills", "Skills"),
    )

    def context(
        self,
        character: Character,
        sheet: ColdStarsSheet,
        form: FormMaker,
        *,
        can_edit: bool,
        gm: bool,
        editing: str = "",
    ) -> dict[str, object]:
        skills = self._skills(sheet)
        # Read mode folds the untrained skills (most of the catalog on any sheet) behind
        # "Show all"; edit mode lists every one, grouped the same way.
        folds = editing != "skills"
        shown: dict[str, list] = {name: [] for name in cold_stars_groups()}
        folded: dict[str, list] = {name: [] for name in cold_stars_groups()}
        for s in skills:
            row = {
                "skill": s,
                "form": form("skills", f"skill-{s.pk}"),
                "domain_form": form(
                    "skills",
                    f"domain-{s.pk}",
                    partial(ColdStarsDomainForm, skill=s, prefix=f"domain-{s.pk}"),
                )
                if s.is_domain
                else None,
            }
            (folded if folds and not s.trained else shown).setdefault(s.group, []).append(row)
        return {
            "skill_groups": [(name, rows) for name, rows in shown.items() if rows],
            "folded_groups": [(name, rows) for name, rows in folded.items() if rows],
            "skills_count": len(skills),
            "skills_folded": sum(len(rows) for rows in folded.values()),
        }

    @staticmethod
    def _skills(sheet: ColdStarsSheet) -> list[ColdStarsSkill]:
        return list(sheet.skills.select_related("campaign_skill").prefetch_related("domains"))

    def section_form(
        self, key: str, sheet: ColdStarsSheet, *, gm: bool, data: object
    ) -> SectionForm:
        if key == "skills":
            return SectionForm(
                [
                    ColdStarsSkillForm(data, instance=s, prefix=f"skill-{s.pk}")
                    for s in self._skills(sheet)
                ]
            )
        return super().section_form(key, sheet, gm=gm, data=data)


def _key_rows(sheet: ColdStarsSheet) -> list[TableRow]:
    """The trained skills, most dice first, each with its suggested Ability's dice."""
    skills: list[ColdStarsSkill] | None = getattr(sheet, "trained_skills", None)
    if skills is None:  # a sheet read without the table's prefetch
        skills = [s for s in sheet.skills.all() if s.trained]
    rows = []
    for skill in skills:
        pool = skill.pool
        dice = f"{skill.get_ability_display()} {pool.ability} + Skill {pool.skill}"
        rows.append((pool.ability + pool.skill, TableRow("cold-stars-skill", skill, dice)))
    rows.sort(key=lambda r: -r[0])
    return [row for _, row in rows[:TABLE_ROWS]]


class ColdStarsSystem(RuleSystem[ColdStarsSheet]):
    key = System.COLD_STARS
    label = System.COLD_STARS.label
    related_name = "cold_stars"
    sheet_model = ColdStarsSheet
    campaign_skills = ColdStarsSkills()

    json = SheetJson(dump=export_cold_stars, load=import_cold_stars)
    creation = Creation(form=ColdStarsCreationForm, fill=_fill)

    table = GmTable(
        difficulty=Difficulty(
            label="Risk",
            short="Risk",
            minimum=cold_stars.RISK_MIN,
            maximum=cold_stars.RISK_MAX,
            default=cold_stars.RISK_MIN,
            field="risk",
        ),
        contest_style_paths=(
            "rolls.table.styles.cold_stars.Active",
            "rolls.table.styles.cold_stars.Passive",
        ),
        resources_form_path="rolls.table.forms.ColdStarsResourcesForm",
        gm_picks_ability=True,
        # The key rows: every sheet's trained skills in one read (most of the catalog on any
        # sheet is untrained, and never shown on the table).
        summary_related=(
            Prefetch(
                "cold_stars__skills",
                queryset=ColdStarsSkill.objects.filter(trained=True),
                to_attr="trained_skills",
            ),
        ),
        key_rows=_key_rows,
    )

    rolling = ColdStarsRolling()
    results = Results(
        headline_path="rolls.rolling.outcomes.cold_stars_headline",
        follow_ups_path="rolls.rolling.followups.cold_stars.FOLLOW_UPS",
        follow_up_reads=("pool", ("ability", "skill", "risk")),
        log_outcomes=OUTCOMES_BEST_FIRST,  # every band
    )

    sheet_page = ColdStarsSheetPage()
