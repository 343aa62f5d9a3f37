"""Cogent Roleplay's guided creation: attributes, core skills, disabilities, vocations."""

from __future__ import annotations

from typing import Any

from django import forms

from rules import cogent_creation
from rules.creation import CreationCheck, Problem
from sheets import ranges
from sheets.creation.base import CreationForm, RatingField, text_field
from sheets.models import (
    COGENT_CORE_SKILLS,
    COGENT_CRAFT_SKILL,
    CogentAttribute,
    SubSkillKind,
    cogent_combat_skills,
)

# How many rows the page offers (more are added on the sheet afterwards). Not rules: room on a page.
COGENT_VOCATION_ROWS = 2
COGENT_DISABILITY_ROWS = cogent_creation.CREATION_DISABILITIES_COUNTED

ATTRIBUTE_NAMES = dict(CogentAttribute.choices)


class CogentCreationForm(CreationForm):
    def add_fields(self) -> None:
        self._add_attribute_fields()
        self._add_core_skill_fields()
        self._add_disability_fields()
        kinds = self._sub_skill_kinds()  # one list, read once, for every vocation's skills
        for i in range(COGENT_VOCATION_ROWS):
            self._add_vocation_fields(i, kinds)

    def _add_attribute_fields(self) -> None:
        # Strict creation holds the attributes to the creation budget; a GM may enter any sheet.
        low = cogent_creation.CREATION_ATTRIBUTE_MIN if self.strict else ranges.COGENT_ATTRIBUTE_MIN
        high = (
            cogent_creation.CREATION_ATTRIBUTE_POINTS
            if self.strict
            else ranges.COGENT_ATTRIBUTE_MAX
        )
        for attribute, label in CogentAttribute.choices:
            self.fields[attribute] = RatingField(label, low, high)

    def _add_core_skill_fields(self) -> None:
        for i, (name, _) in enumerate(COGENT_CORE_SKILLS):
            self.fields[f"skill-{i}"] = RatingField(
                name, ranges.COGENT_SKILL_MIN, ranges.COGENT_SKILL_MAX
            )
            if name == COGENT_CRAFT_SKILL:
                self.fields["craft"] = text_field(
                    f"{name}: animal or craft", placeholder="Animal or craft, e.g. Horse"
                )

    def _add_disability_fields(self) -> None:
        for i in range(COGENT_DISABILITY_ROWS):
            self.fields[f"disability-{i}-name"] = text_field(
                f"Disabling characteristic {i + 1}", placeholder="e.g. Feeble, Phobia (heights)"
            )
            self.fields[f"disability-{i}-how"] = forms.ChoiceField(
                label=f"Disabling characteristic {i + 1} was",
                choices=[("chosen", "Chosen (+1 skill point)"), ("rolled", "Rolled (+2)")],
                initial="chosen",
                required=False,
            )

    def _sub_skill_kinds(self) -> list[Any]:
        """A vocation skill's kind choices: vocational by governing attribute, or combat."""
        return [
            ("", "—"),
            (
                "Vocational skill, governed by",
                [(f"vocational:{a}", label) for a, label in CogentAttribute.choices],
            ),
            (
                "Combat skill",
                [(f"combat:{n}", n) for n in cogent_combat_skills(self.campaign)],
            ),
        ]

    def _add_vocation_fields(self, i: int, kinds: list[Any]) -> None:
        v = f"vocation-{i}"
        self.fields[f"{v}-name"] = text_field(
            f"Vocation {i + 1}",
            help_text="" if i else "A job or path: Ship's Surgeon, Drifter, Knight…",
        )
        self.fields[f"{v}-attribute"] = forms.ChoiceField(
            label=f"Vocation {i + 1} governing attribute",
            choices=[("", "—"), *CogentAttribute.choices],
            required=False,
        )
        self.fields[f"{v}-rating"] = RatingField(
            f"Vocation {i + 1} rating", ranges.COGENT_VOCATION_MIN, ranges.COGENT_VOCATION_MAX
        )
        for j in range(ranges.COGENT_SUBSKILLS_PER_VOCATION):
            s = f"{v}-sub-{j}"
            self.fields[f"{s}-kind"] = forms.ChoiceField(
                label=f"Vocation {i + 1} skill {j + 1}", choices=kinds, required=False
            )
            self.fields[f"{s}-name"] = text_field(
                f"Vocation {i + 1} skill {j + 1} name",
                placeholder="Vocational skills only",
            )
            self.fields[f"{s}-rating"] = RatingField(
                f"Vocation {i + 1} skill {j + 1} rating",
                ranges.COGENT_SUBSKILL_MIN,
                ranges.COGENT_SUBSKILL_MAX,
            )

    # For the template: the fields in the page's order.
    def attribute_fields(self) -> list[forms.BoundField]:
        return [self[a] for a in CogentAttribute.values]

    def skill_groups(self) -> list[tuple[str, list[tuple[forms.BoundField, Any]]]]:
        groups = []
        for attribute, label in CogentAttribute.choices:
            rows = [
                (self[f"skill-{i}"], self["craft"] if name == COGENT_CRAFT_SKILL else None)
                for i, (name, governing) in enumerate(COGENT_CORE_SKILLS)
                if governing == attribute
            ]
            groups.append((label, rows))
        return groups

    def disability_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [
            (self[f"disability-{i}-name"], self[f"disability-{i}-how"])
            for i in range(COGENT_DISABILITY_ROWS)
        ]

    def vocation_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "number": i + 1,
                # The first is always open; another when it holds something or an error.
                "open": i == 0 or self._touched(f"vocation-{i}-"),
                "name": self[f"vocation-{i}-name"],
                "attribute": self[f"vocation-{i}-attribute"],
                "rating": self[f"vocation-{i}-rating"],
                "subskills": [
                    (
                        self[f"vocation-{i}-sub-{j}-kind"],
                        self[f"vocation-{i}-sub-{j}-name"],
                        self[f"vocation-{i}-sub-{j}-rating"],
                    )
                    for j in range(ranges.COGENT_SUBSKILLS_PER_VOCATION)
                ],
            }
            for i in range(COGENT_VOCATION_ROWS)
        ]

    def make_build(self) -> dict[str, Any]:
        disabilities = []
        for i in range(COGENT_DISABILITY_ROWS):
            name = self.value(f"disability-{i}-name").strip()
            if name:
                disabilities.append((name, self.value(f"disability-{i}-how") or "chosen"))
        vocations, fields = [], []
        seen: set[str] = set()
        for i in range(COGENT_VOCATION_ROWS):
            v = f"vocation-{i}"
            name, attribute = self.value(f"{v}-name").strip(), self.value(f"{v}-attribute")
            subs, sub_fields, sub_names = [], [], set()
            for j in range(ranges.COGENT_SUBSKILLS_PER_VOCATION):
                s = f"{v}-sub-{j}"
                kind, sub_name = self.value(f"{s}-kind"), self.value(f"{s}-name").strip()
                rating = self.value(f"{s}-rating")
                if not kind:
                    if sub_name or rating:
                        self.row_error(f"{s}-kind", "Choose its attribute or a combat skill.")
                    continue
                what, _, detail = kind.partition(":")
                if what == SubSkillKind.COMBAT:
                    sub_name, sub_attribute = detail, ""
                elif not sub_name:
                    self.row_error(f"{s}-name", "Name the vocational skill.")
                    continue
                else:
                    sub_attribute = detail
                if sub_name.lower() in sub_names:
                    self.row_error(f"{s}-kind", "This vocation already has that skill.")
                    continue
                sub_names.add(sub_name.lower())
                subs.append((what, sub_name, sub_attribute, rating))
                sub_fields.append(f"{s}-rating")
            rating = self.value(f"{v}-rating")
            if not name:
                if rating or subs:
                    self.row_error(
                        f"{v}-name", "Name the vocation, or clear its rating and skills."
                    )
                continue
            if name.lower() in seen:
                self.row_error(f"{v}-name", "There is already a vocation of that name.")
                continue
            seen.add(name.lower())
            if not attribute:
                self.row_error(
                    f"{v}-attribute", "Choose the attribute that governs it (ask your narrator)."
                )
            vocations.append((name, attribute, rating, subs))
            fields.append(sub_fields)
        self._vocation_fields = fields
        return {
            "attributes": {a: self.value(a) for a in CogentAttribute.values},
            "skills": [self.value(f"skill-{i}") for i in range(len(COGENT_CORE_SKILLS))],
            "craft": self.value("craft").strip(),
            "disabilities": disabilities,
            "vocations": vocations,
        }

    def run_check(self, build: dict[str, Any]) -> CreationCheck:
        return cogent_creation.creation_check(
            attributes={ATTRIBUTE_NAMES[a]: n for a, n in build["attributes"].items()},
            core_skills=build["skills"],
            vocations=[(rating, [s[3] for s in subs]) for _, _, rating, subs in build["vocations"]],
            disabilities=[how for _, how in build["disabilities"]],
        )

    def problem_field(self, problem: Problem) -> str | None:
        if problem.where.startswith("vocation-"):
            _, i, j = problem.where.split("-")
            return str(self._vocation_fields[int(i)][int(j)])
        return None


# ---------------------------------------------------------------------------------------------
