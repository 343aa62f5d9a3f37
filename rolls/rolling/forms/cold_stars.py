"""The Cold Stars roll panel: ability, risk, domains, Press/Brace/Willpower and skip."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.http import QueryDict

from log.models import OUTCOME_LABELS, Kind
from rolls.rolling.display import CERTAIN, bands
from rolls.rolling.forms.base import RollForm
from rolls.rolling.outcomes import (
    Action,
    Choice,
    Outcome,
    Plan,
    cold_stars_detail,
    cold_stars_faces,
    plural,
)
from rules import RandomSource, cold_stars
from sheets.models import ColdStarsAbility, ColdStarsSheet, Refused

# ---------------------------------------------------------------------------------------------
# Cold Stars
# ---------------------------------------------------------------------------------------------

OUTSIDE_DOMAINS = "__outside__"


def cold_stars_modification(value: str) -> dict[str, Any]:
    """A step-4 radio value → ``modify`` keyword arguments ("willpower-2" → willpower=2)."""
    if value == "press":
        return {"press": True}
    if value == "brace":
        return {"brace": True}
    if value.startswith("willpower-"):
        return {"willpower": int(value.removeprefix("willpower-"))}
    return {}


def _modification_label(value: str) -> str:
    if value.startswith("willpower-"):
        n = int(value.removeprefix("willpower-"))
        return f"Willpower: upgrade {plural(n, 'Ability die')}"
    return {"none": "No modification", "press": "Press", "brace": "Brace"}[value]


def _cost_words(change: cold_stars.ResourceChange) -> str:
    parts = [
        f"{amount:+d} {name}"
        for amount, name in ((change.momentum, "Momentum"), (change.willpower, "Willpower"))
        if amount
    ]
    return ", ".join(parts).replace("-", "−") or "free"


MODIFICATIONS = ["none", "press", "brace"] + [
    f"willpower-{n}" for n in range(1, cold_stars.POOL_MAX_ABILITY + 1)
]


class ColdStarsRollForm(RollForm[ColdStarsSheet]):
    ability = forms.ChoiceField(label="Ability")
    risk = forms.IntegerField(
        label="Risk",
        min_value=cold_stars.RISK_MIN,
        max_value=cold_stars.RISK_MAX,
        initial=cold_stars.RISK_MIN,
        help_text="Set by the GM.",
    )
    domain = forms.ChoiceField(label="Domain", required=False)
    modification = forms.ChoiceField(
        label="Before the roll (choose one)",
        choices=[(value, value) for value in MODIFICATIONS],
        initial="none",
        widget=forms.RadioSelect,
    )

    def setup(self) -> None:
        sheet, skill = self.sheet, self.target.obj
        cast(forms.ChoiceField, self.fields["ability"]).choices = [
            (a.value, f"{a.label} ({sheet.ability_value(a.value)})") for a in ColdStarsAbility
        ]
        self.fields["ability"].initial = skill.ability
        self.fields["ability"].help_text = f"Suggested: {skill.get_ability_display()}."
        if skill.needs_domain:
            domains = [d.name for d in skill.domains.all()]
            cast(forms.ChoiceField, self.fields["domain"]).choices = [
                (name, f"In domain: {name}") for name in domains
            ] + [(OUTSIDE_DOMAINS, "Outside every domain")]
            self.fields["domain"].initial = domains[0] if domains else OUTSIDE_DOMAINS
            self.fields["domain"].required = True
        else:
            del self.fields["domain"]

    def next_roll_data(self, data: QueryDict, sheet: ColdStarsSheet) -> QueryDict:
        """After a roll the step-4 choice starts again from "No modification": Press, Brace and
        Willpower are decided roll by roll, and one that spent the last Momentum would otherwise
        stay chosen and read as an error (the rows it can't pay for say why, in grey)."""
        if data.get("modification", "none") == "none":
            return data
        data = data.copy()
        data["modification"] = "none"
        return data

    def _built(self) -> cold_stars.Pool:
        d, skill = self.cleaned_data, self.target.obj
        in_domain = d.get("domain", "") != OUTSIDE_DOMAINS
        return cold_stars.build_pool(
            ability=self.sheet.ability_value(d["ability"]),
            skill=skill.rating,
            risk=d["risk"],
            trained=skill.trained,
            domain_skill=skill.is_domain,
            in_domain=in_domain,
        )

    def _choices(self, built: cold_stars.Pool) -> list[Choice]:
        sheet, result = self.sheet, []
        for value in MODIFICATIONS:
            kwargs = cold_stars_modification(value)
            if kwargs.get("willpower", 0) > built.ability:
                continue  # more upgrades than Ability dice: not offered at all
            change = cold_stars.modification_cost(**kwargs)
            try:
                pool = cold_stars.modify(built, **kwargs)
            except ValueError as exc:
                result.append(
                    Choice(value, _modification_label(value), _cost_words(change), "", [], str(exc))
                )
                continue
            problem = ""
            if value != "none" and self.choice_waiting:
                problem = self.choice_waiting  # the player's choice (RULES.md §8)
            elif sheet.momentum < -change.momentum:
                problem = f"{_modification_label(value)} needs {-change.momentum} Momentum; you have {sheet.momentum}."
            elif sheet.willpower < -change.willpower:
                problem = f"This needs {-change.willpower} Willpower; you have {sheet.willpower}."
            cost = _cost_words(change)
            if change.momentum > 0 and sheet.momentum >= sheet.momentum_max:
                cost += f" (Momentum is at its maximum, {sheet.momentum_max})"
            result.append(
                Choice(
                    value,
                    _modification_label(value),
                    cost,
                    pool.describe(),
                    bands(cold_stars.odds(pool)),
                    problem,
                )
            )
        return result

    def clean(self) -> dict[str, object]:
        super().clean()
        data = self.cleaned_data
        if self.errors or "modification" not in data:
            return data
        try:
            built = self._built()
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        self.choices = self._choices(built)
        chosen = next((c for c in self.choices if c.value == data["modification"]), None)
        if chosen is None:
            self.add_error("modification", "This pool has fewer Ability dice to upgrade.")
        elif chosen.problem:
            self.add_error("modification", chosen.problem)
        return data

    def make_plan(self) -> Plan:
        d, skill = self.cleaned_data, self.target.obj
        built = self._built()
        kwargs = cold_stars_modification(d["modification"])
        pool = cold_stars.modify(built, **kwargs)
        ability_label = ColdStarsAbility(d["ability"]).label
        training = (
            f"trained {skill.rating}"
            if skill.trained
            else f"untrained (+{cold_stars.UNTRAINED_RISK} Risk)"
        )
        breakdown = (
            f"{self.sheet.ability_value(d['ability'])} {ability_label} + {skill.name} {training}"
        )
        if d.get("domain") == OUTSIDE_DOMAINS:
            breakdown += (
                f", outside every domain (counts as at most {cold_stars.OUTSIDE_DOMAIN_SKILL_CAP})"
            )
        elif d.get("domain"):
            breakdown += f", in domain {d['domain']}"
        breakdown += f", Risk {d['risk']} = {built.describe()}"
        if kwargs:
            breakdown += f"; {_modification_label(d['modification'])}: {pool.describe()}"
        actions = [Action("roll", f"Roll {pool.describe()}")]
        notes = []
        try:
            skipped = self._skip(built)
        except ValueError as exc:
            notes.append(str(exc))
        else:
            if self.choice_waiting:
                # Seed: "the player (not the GM) may skip".
                notes.append(f"Skipping the roll is the player's choice. {self.choice_waiting}")
            else:
                actions.append(Action("skip", f"Skip the roll: {OUTCOME_LABELS[skipped]}", False))
        options = self._base_options() | {
            "ability": d["ability"],
            "ability_rating": self.sheet.ability_value(d["ability"]),
            "skill_rating": skill.rating,
            "trained": skill.trained,
            "domain_skill": skill.is_domain,
            "domain": d.get("domain", ""),
            "risk": d["risk"],
            "modification": d["modification"],
        }
        pool_json: dict[str, object] = {
            "ability": pool.ability,
            "skill": pool.skill,
            "risk": pool.risk,
        }
        pool_json["built"] = {"ability": built.ability, "skill": built.skill, "risk": built.risk}
        return Plan(
            options,
            pool_json,
            breakdown,
            bands(cold_stars.odds(pool)),
            actions,
            notes,
            self.choices,
        )

    def _skip(self, built: cold_stars.Pool) -> str:
        """The engine's skip on the pool as built (step 3), in or out of a contest and with or
        without a step-4 choice; ``ValueError`` says why not."""
        return cold_stars.skip(
            built,
            contested=self.in_contest,
            modified=self.cleaned_data["modification"] != "none",
        )

    def player_choices(self, action: str) -> bool:
        assert self.plan is not None
        return action == "skip" or self.plan.options["modification"] != "none"

    def spends(self, action: str) -> bool:
        assert self.plan is not None
        if action == "skip":
            return False
        cost = cold_stars.modification_cost(
            **cold_stars_modification(self.plan.options["modification"])
        )
        return bool(cost.momentum or cost.willpower)

    def roll(self, action: str, sheet: ColdStarsSheet, rng: RandomSource) -> Outcome:
        plan = self.plan
        assert plan is not None
        pool = cold_stars.Pool(plan.pool["ability"], plan.pool["skill"], plan.pool["risk"])
        if action == "skip":
            # Checked before anything is spent: a refused skip leaves the sheet as it was.
            built = cold_stars.Pool(**plan.pool["built"])
            try:
                outcome = self._skip(built)
            except ValueError as exc:
                raise Refused(str(exc)) from None
            return Outcome(
                Kind.SKIP,
                plan.options,
                plan.pool,
                plan.breakdown,
                [],
                outcome,
                f"Skipped with {plural(pool.risk, 'Risk die')} left.",
                {},
                CERTAIN,
                {},
            )
        kwargs = cold_stars_modification(plan.options["modification"])
        changes = sheet.apply(cold_stars.modification_cost(**kwargs))
        faces = cold_stars.roll(pool, rng)
        outcome = cold_stars.resolve(faces)
        odds = cold_stars.odds(pool)
        return Outcome(
            Kind.ROLL,
            plan.options,
            plan.pool,
            plan.breakdown,
            cold_stars_faces(faces),
            outcome,
            cold_stars_detail(faces, outcome),
            {},
            odds[outcome],
            changes,
            odds,
        )
