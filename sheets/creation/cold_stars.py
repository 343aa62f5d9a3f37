"""Cold Stars' guided creation: abilities, trained skills, domains."""

from __future__ import annotations

from typing import Any

from django import forms

from rules import cold_stars
from rules.creation import CreationCheck, Problem
from sheets import ranges
from sheets.catalog import cold_stars_catalog
from sheets.creation.base import CreationForm, RatingField, text_field
from sheets.models import (
    CampaignSkill,
    ColdStarsAbility,
)

SKILL_CHOICES = [("", "Untrained")] + [
    (str(r), f"Trained {r}")
    for r in range(ranges.COLD_STARS_SKILL_MIN, ranges.COLD_STARS_SKILL_MAX + 1)
]


class ColdStarsCreationForm(CreationForm):
    def add_fields(self) -> None:
        for ability, label in ColdStarsAbility.choices:
            self.fields[ability] = RatingField(
                label,
                ranges.COLD_STARS_ABILITY_MIN,
                ranges.COLD_STARS_ABILITY_MAX,
                ranges.COLD_STARS_ABILITY_MIN,
            )
        # (key, name, group, is_domain, examples): the catalog, then the GM's own skills.
        self.skills = [
            (s.key, s.name, s.group, s.domain, s.example_domains) for s in cold_stars_catalog()
        ] + [
            (f"campaign-{s.pk}", s.name, s.group, s.is_domain, s.examples)
            for s in CampaignSkill.objects.filter(campaign=self.campaign)
        ]
        for key, name, _, is_domain, examples in self.skills:
            self.fields[f"skill-{key}"] = forms.ChoiceField(
                label=name, choices=SKILL_CHOICES, required=False
            )
            if is_domain:
                example = f", e.g. {', '.join(examples[:2])}" if examples else ""
                self.fields[f"domain-{key}"] = text_field(
                    f"{name} domain",
                    help_text=f"Needed from {ranges.COLD_STARS_DOMAIN_REQUIRED_FROM}{example}",
                    placeholder=f"Domain{example}",
                )

    def ability_fields(self) -> list[forms.BoundField]:
        return [self[a] for a in ColdStarsAbility.values]

    def skill_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, Any]]]]:
        groups: dict[str, list[tuple[forms.BoundField, Any]]] = {}
        for key, _, group, is_domain, _ in self.skills:
            domain = self[f"domain-{key}"] if is_domain else None
            groups.setdefault(group, []).append((self[f"skill-{key}"], domain))
        return list(groups.items())

    def make_build(self) -> dict[str, Any]:
        skills = []
        for key, name, _, is_domain, _ in self.skills:
            raw = self.value(f"skill-{key}")
            domain = self.value(f"domain-{key}").strip() if is_domain else ""
            skills.append((key, name, None if raw in ("", None) else int(raw), is_domain, domain))
        return {
            "abilities": {a: self.value(a) for a in ColdStarsAbility.values},
            "skills": skills,
        }

    def run_check(self, build: dict[str, Any]) -> CreationCheck:
        labels = dict(ColdStarsAbility.choices)
        return cold_stars.creation_check(
            abilities={labels[a]: n for a, n in build["abilities"].items()},
            skills=[
                cold_stars.SkillChoice(key, name, rating, is_domain, 1 if domain else 0)
                for key, name, rating, is_domain, domain in build["skills"]
            ],
        )

    def problem_field(self, problem: Problem) -> str | None:
        field = f"domain-{problem.where}"
        return field if field in self.fields else f"skill-{problem.where}"
