"""Cold Stars as the app sees it: Ability, Skill and Risk dice on d10 (rules: rolls.rules.cold_stars)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rolls.rules import OUTCOMES_BEST_FIRST, cold_stars
from sheets.catalog import cold_stars_catalog, cold_stars_groups
from sheets.character_json import export_cold_stars, import_cold_stars
from sheets.creation import ColdStarsCreationForm
from sheets.forms import (
    CampaignSkillForm,
    ColdStarsDomainForm,
    ColdStarsSheetForm,
    ColdStarsSkillForm,
)
from sheets.models import (
    CampaignSkill,
    ColdStarsDomain,
    ColdStarsSheet,
    ColdStarsSkill,
    System,
)
from sheets.systems import ContestStyle, Difficulty, FormMaker, RowKind, RuleSystem

if TYPE_CHECKING:
    from sheets.models import Campaign, Character


class ColdStarsSystem(RuleSystem[ColdStarsSheet]):
    key = System.COLD_STARS
    label = System.COLD_STARS.label
    related_name = "cold_stars"
    sheet_model = ColdStarsSheet
    sheet_form = ColdStarsSheetForm
    sheet_form_takes_gm = True  # the resource maximums are the GM's
    creation_form = ColdStarsCreationForm
    roll_form_path = "rolls.rolling.forms.cold_stars.ColdStarsRollForm"
    resources_form_path = "rolls.table.forms.ColdStarsResourcesForm"
    difficulty = Difficulty(
        label="Risk",
        short="Risk",
        minimum=cold_stars.RISK_MIN,
        maximum=cold_stars.RISK_MAX,
        default=cold_stars.RISK_MIN,
        field="risk",
    )
    contest_styles = (
        ContestStyle("cold_stars_active", both_roll=True, keep_or_correct=True),
        ContestStyle(
            "cold_stars_passive",
            both_roll=False,
            keep_or_correct=True,
            side_b_sets_risk=True,
            side_b_words="passive: sets the Risk",
            even_words="All blank",
        ),
    )
    log_outcomes = OUTCOMES_BEST_FIRST  # every band
    follow_up_reads = ("pool", ("ability", "skill", "risk"))
    follow_ups_module = "rolls.rolling.followups.cold_stars"
    headline_path = "rolls.rolling.outcomes.cold_stars_headline"
    rows = (
        RowKind(
            "cold-stars-skill",
            ColdStarsSkill,
            "sheet_id",
            ("sheet", "campaign_skill"),
            prefetch=("domains",),
        ),
    )
    campaign_skills_label = "Skills"

    gm_picks_ability = True

    def sheet_context(
        self,
        character: Character,
        sheet: ColdStarsSheet,
        form: FormMaker,
        *,
        can_edit: bool,
        gm: bool,
    ) -> dict[str, Any]:
        skills = list(sheet.skills.select_related("campaign_skill").prefetch_related("domains"))
        groups: dict[str, list] = {name: [] for name in cold_stars_groups()}
        for s in skills:
            groups.setdefault(s.group, []).append(
                {
                    "skill": s,
                    "form": form(
                        f"skill-{s.pk}",
                        lambda s=s: ColdStarsSkillForm(instance=s, prefix=f"skill-{s.pk}"),
                    ),
                    "domain_form": form(
                        f"domain-{s.pk}",
                        lambda s=s: ColdStarsDomainForm(skill=s, prefix=f"domain-{s.pk}"),
                    )
                    if s.is_domain
                    else None,
                }
            )
        return {
            "skill_groups": [(name, rows) for name, rows in groups.items() if rows],
        }

    def skill_names(self, campaign: Campaign, *, vocations: bool = True) -> list[str]:
        """The catalog and the campaign's own skills: every sheet has them all."""
        names = [skill.name for skill in cold_stars_catalog()]
        names += CampaignSkill.objects.filter(campaign=campaign).values_list("name", flat=True)
        return list(dict.fromkeys(names))

    def row_odds(self, kind: str, row: Any) -> dict[str, Fraction]:
        return cold_stars.odds(row.pool)

    def campaign_skill_form(self, campaign: Campaign, data: Any) -> CampaignSkillForm:
        return CampaignSkillForm(data, campaign=campaign)

    def add_campaign_skill(self, form: Any) -> str:
        skill = form.save()
        skill.add_to_sheets()
        return f"Added {skill.name} to every sheet in the campaign."

    def campaign_skills_context(self, campaign: Campaign) -> dict[str, Any]:
        return {
            "custom_skills": CampaignSkill.objects.filter(campaign=campaign),
            "catalog": cold_stars_catalog(),
        }

    def export_sheet(self, sheet: ColdStarsSheet) -> dict[str, Any]:
        return export_cold_stars(sheet)

    def import_sheet(
        self, sheet: ColdStarsSheet, data: dict[str, Any], c: Any, **kwargs: Any
    ) -> None:
        import_cold_stars(sheet, data, c, **kwargs)

    # --- guided creation ---------------------------------------------------------------------
    def create_from(self, character: Character, build: dict[str, Any]) -> None:
        sheet = self.sheet_of(character)
        for ability, rating in build["abilities"].items():
            setattr(sheet, ability, rating)
        sheet.save()
        # The blank sheet has a row for every catalog and campaign skill; the form names them so.
        rows = {
            row.catalog_key or f"campaign-{row.campaign_skill_id}": row
            for row in sheet.skills.all()
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
