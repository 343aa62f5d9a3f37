"""Guided character creation: one form per system, validated here, checked by the engine.

Each form holds the whole first sheet (attributes, skills, vocations or class, domains) and asks
its system's ``creation_check`` (``rolls.rules``) for the budgets, the problems and the warnings.
A player's build must keep within the budgets (each problem stands beside the field or section it
is about); the GM's NPCs may break them, and then see the problems as warnings. Missing fields take
a blank sheet's values, so a name alone still makes a character. The seam (``sheets.systems``)
picks the form and writes the sheet from ``form.build``.
"""

from __future__ import annotations

from typing import Any

from django import forms

from rolls.rules import cogent_creation, cold_stars, dad6
from rolls.rules.creation import CreationCheck, Problem
from sheets import ranges
from sheets.catalog import cold_stars_catalog
from sheets.models import (
    COGENT_CORE_SKILLS,
    COGENT_CRAFT_SKILL,
    DAD6_COMPETENCE_CHOICES,
    Campaign,
    CampaignSkill,
    CogentAttribute,
    ColdStarsAbility,
    SubSkillKind,
    cogent_combat_skills,
)

# How many rows the page offers (more are added on the sheet afterwards). Not rules: room on a page.
COGENT_VOCATION_ROWS = 2
COGENT_DISABILITY_ROWS = cogent_creation.CREATION_DISABILITIES_COUNTED
DAD6_SKILL_ROWS = 6


class RatingField(forms.IntegerField):
    """A number with its range shown before typing (min/max and "0 to 2") and messages in the
    player's words. Left empty it is the blank sheet's value, so a cleared box never refuses."""

    def __init__(self, label: str, low: int, high: int, default: int = 0) -> None:
        span = ranges.span(low, high)
        words = f"{label} is {span}."
        super().__init__(
            label=label,
            required=False,
            min_value=low,
            max_value=high,
            initial=default,
            help_text=span,
            error_messages={
                "invalid": f"{label} must be a whole number.",
                "min_value": words,
                "max_value": words,
            },
        )
        self.default = default

    def clean(self, value: Any) -> int:
        cleaned = super().clean(value)
        return self.default if cleaned is None else int(cleaned)


def _text(label: str, help_text: str = "", placeholder: str = "") -> forms.CharField:
    field = forms.CharField(
        label=label, max_length=ranges.NAME_MAX_LENGTH, required=False, help_text=help_text
    )
    if placeholder:
        field.widget.attrs["placeholder"] = placeholder
    return field


class CreationForm(forms.Form):
    """The parts every system shares: the name, the GM's hiding, the engine's check."""

    name = forms.CharField(
        label="Name",
        max_length=ranges.NAME_MAX_LENGTH,
        error_messages={"required": "Give your character a name."},
    )
    # A player who spent some points but not all confirms it (a name alone, a blank sheet to fill
    # in later, needs no confirming: the message after Create says what is unspent).
    unspent_ok = forms.BooleanField(label="Create with these points unspent", required=False)

    def __init__(self, data: Any = None, *, campaign: Campaign, gm: bool) -> None:
        super().__init__(data)
        self.campaign = campaign
        # Budgets bind players' characters; the GM's NPCs are built as the story needs them.
        self.strict = not gm
        if gm:
            # Only the GM makes NPCs, and only NPCs can be hidden.
            self.fields["hidden_from_players"] = forms.BooleanField(
                label="Hidden from players",
                required=False,
                help_text="Players don't see this NPC or its rolls until you show it.",
            )
        self.add_fields()
        self.section_errors: dict[str, list[str]] = {}
        self.build: dict[str, Any] = {}
        self._check: CreationCheck | None = None

    # --- what each system fills in -------------------------------------------------------------
    def add_fields(self) -> None:
        raise NotImplementedError

    def make_build(self) -> dict[str, Any]:
        """The sheet as entered (valid fields, blank-sheet values for the rest); adds row errors."""
        raise NotImplementedError

    def run_check(self, build: dict[str, Any]) -> CreationCheck:
        raise NotImplementedError

    def problem_field(self, problem: Problem) -> str | None:
        """The field a problem stands beside, or None for a section's message."""
        return None

    # --- shared ---------------------------------------------------------------------------------
    def value(self, name: str) -> Any:
        """The cleaned value, or the field's blank-sheet value when it is invalid or unbound."""
        field = self.fields[name]
        default = getattr(field, "default", field.initial if field.initial is not None else "")
        if self.is_bound and hasattr(self, "cleaned_data"):
            return self.cleaned_data.get(name, default)
        return default

    def clean(self) -> dict[str, Any]:
        super().clean()
        self.build = self.make_build()
        self._check = self.run_check(self.build)
        for problem in self.refusals:
            field = self.problem_field(problem)
            if field is None:
                self.section_errors.setdefault(problem.where, []).append(problem.message)
                self.add_error(None, problem.message)
            else:
                self.add_error(field, problem.message)
        if self.asks_unspent and not self.cleaned_data.get("unspent_ok"):
            self.add_error(
                "unspent_ok",
                f"Not spent yet: {self.check.unspent_text}. Spend them, or tick “Create with"
                " these points unspent” and create again.",
            )
        return self.cleaned_data

    @property
    def asks_unspent(self) -> bool:
        """Whether Create asks the player to confirm points left unspent."""
        check = self.check
        return self.strict and self.is_bound and check.started and bool(check.unspent)

    @property
    def panel_problems(self) -> list[str]:
        """What the budget panel lists: the fields' own checks and the engine's refusals, each
        once (a refusal beside its field is also that field's error)."""
        found = [*self.field_messages, *(p.message for p in self.refusals)]
        return list(dict.fromkeys(found))

    @property
    def error_summary(self) -> list[tuple[str, str]]:
        """Each message with the anchor of where it stands: a field's input, or the step of a
        section's message (``#step-<where>``)."""
        section = {m for messages in self.section_errors.values() for m in messages}
        linked = [
            (str(message), f"#{self[name].auto_id}")
            for name, messages in self.errors.items()
            if name not in ("__all__", "unspent_ok")
            for message in messages
        ]
        linked += [
            (message, f"#step-{where}")
            for where, messages in self.section_errors.items()
            for message in messages
        ]
        linked += [
            (str(m), "#creation-budget") for m in self.non_field_errors() if m not in section
        ]
        # The confirmation last: what is left to spend matters once the rest is right.
        linked += [(str(m), "#id_unspent_ok") for m in self.errors.get("unspent_ok", [])]
        return linked

    @property
    def check(self) -> CreationCheck:
        """The engine's answer for what is on the page now (a blank sheet before any input)."""
        if self.is_bound:
            self.is_valid()
        if self._check is None:
            self._check = self.run_check(self.make_build())
        return self._check

    def _relaxed(self, problem: Problem) -> bool:
        # A budget (a section's problem) binds players only. A rule about one item — a sub-skill
        # above its vocation, a domain skill without a domain — is the sheet's rule for everyone.
        return not self.strict and self.problem_field(problem) is None

    @property
    def refusals(self) -> list[Problem]:
        """The problems that stop Create."""
        return [p for p in self.check.problems if not self._relaxed(p)]

    @property
    def field_messages(self) -> list[str]:
        """What the fields' own checks say ("Strength is 0 to 2."), for the live budget: while a
        box holds a bad value the budget counts the blank sheet's value instead, and says why.
        Not the missing name: that is for Create to ask, not for every keystroke elsewhere."""
        return [
            str(message)
            for name, messages in self.errors.items()
            if name not in ("__all__", "name", "unspent_ok")
            for message in messages
        ]

    @property
    def error_count(self) -> int:
        return sum(len(messages) for messages in self.errors.values())

    @property
    def warnings(self) -> list[str]:
        """Soft checks; for the GM's NPCs the broken budgets too (never refused)."""
        relaxed = [p.message for p in self.check.problems if self._relaxed(p)]
        return [*relaxed, *self.check.warnings]

    def _touched(self, prefix: str) -> bool:
        if not self.is_bound:
            return False
        names = [name for name in self.fields if name.startswith(prefix)]
        if any(name in self.errors for name in names):
            return True
        blank = {"", "0", None}
        return any(self.data.get(self.add_prefix(name)) not in blank for name in names)

    def row_error(self, field: str, message: str) -> None:
        if self.is_bound and field not in self.errors:
            self.add_error(field, message)


# ---------------------------------------------------------------------------------------------
# Cogent Roleplay
# ---------------------------------------------------------------------------------------------

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
                self.fields["craft"] = _text(
                    f"{name}: animal or craft", placeholder="Animal or craft, e.g. Horse"
                )

    def _add_disability_fields(self) -> None:
        for i in range(COGENT_DISABILITY_ROWS):
            self.fields[f"disability-{i}-name"] = _text(
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
        self.fields[f"{v}-name"] = _text(
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
            self.fields[f"{s}-name"] = _text(
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
# DAD6
# ---------------------------------------------------------------------------------------------


class Dad6CreationForm(CreationForm):
    def add_fields(self) -> None:
        self.fields["class_name"] = _text("Class", placeholder="e.g. Thief, Fighter, Cleric")
        self.fields["level"] = RatingField(
            "Class level", ranges.DAD6_LEVEL_MIN, ranges.DAD6_LEVEL_MAX, ranges.DAD6_LEVEL_MIN
        )
        for i in range(DAD6_SKILL_ROWS):
            self.fields[f"class-{i}"] = _text(f"Class skill {i + 1}")
        for i in range(DAD6_SKILL_ROWS):
            self.fields[f"other-{i}-name"] = _text(f"Other skill {i + 1}")
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


# ---------------------------------------------------------------------------------------------
# Cold Stars
# ---------------------------------------------------------------------------------------------

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
                self.fields[f"domain-{key}"] = _text(
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
