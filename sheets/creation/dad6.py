"""DAD6 Skills' guided creation: class, level, attributes, skills."""

from __future__ import annotations

from typing import Any

from django import forms

from rules import dad6
from rules.creation import CreationCheck
from sheets import ranges
from sheets.creation.base import CreationForm, RatingField, text_field
from sheets.models import (
    DAD6_COMPETENCE_CHOICES,
)

# How many skill rows the page offers (more are added on the sheet afterwards): room on a page.
DAD6_SKILL_ROWS = 6


class Dad6CreationForm(CreationForm):
    def add_fields(self) -> None:
        self.fields["class_name"] = text_field("Class", placeholder="e.g. Thief, Fighter, Cleric")
        self.fields["level"] = RatingField(
            "Class level", ranges.DAD6_LEVEL_MIN, ranges.DAD6_LEVEL_MAX, ranges.DAD6_LEVEL_MIN
        )
        for i in range(DAD6_SKILL_ROWS):
            self.fields[f"class-{i}"] = text_field(f"Class skill {i + 1}")
        for i in range(DAD6_SKILL_ROWS):
            self.fields[f"other-{i}-name"] = text_field(f"Other skill {i + 1}")
            self.fields[f"other-{i}-competence"] = forms.ChoiceField(
                label=f"Other skill {i + 1} competence",
                choices=[("", "—"), *DAD6_COMPETENCE_CHOICES],
                required=False,
            )

    def class_skill_fields(self) -> list[forms.BoundField]:
        return [self[f"class-{i}"] for i in range(DAD6_SKILL_ROWS)]

    def other_skill_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"other-{i}-name"], self[f"other-{i}-competence"]) for i in range(DAD6_SKILL_ROWS)
        ]

    def make_build(self) -> dict[str, Any]:
        seen: set[str] = set()
        class_skills, other_skills = [], []
        for i in range(DAD6_SKILL_ROWS):
            name = self.value(f"class-{i}").strip()
            if name and name.lower() in seen:
                self.row_error(f"class-{i}", "That skill is already on the list.")
            elif name:
                seen.add(name.lower())
                class_skills.append(name)
        for i in range(DAD6_SKILL_ROWS):
            name = self.value(f"other-{i}-name").strip()
            competence = self.value(f"other-{i}-competence")
            if not name:
                if competence:
                    self.row_error(f"other-{i}-name", "Name the skill, or clear its competence.")
            elif name.lower() in seen:
                self.row_error(f"other-{i}-name", "That skill is already on the list.")
            elif not competence:
                self.row_error(f"other-{i}-competence", "Choose how well they know it.")
            else:
                seen.add(name.lower())
                other_skills.append((name, competence))
        return {
            "class_name": self.value("class_name").strip(),
            "level": self.value("level"),
            "class_skills": class_skills,
            "other_skills": other_skills,
        }

    def run_check(self, build: dict[str, Any]) -> CreationCheck:
        return dad6.creation_check(
            level=build["level"],
            class_skills=build["class_skills"],
            other_skills=[competence for _, competence in build["other_skills"]],
        )
