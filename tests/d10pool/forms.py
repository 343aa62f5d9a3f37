"""D10 Pool's forms: the sheet's figures, the GM's resources, the roll panel, guided creation."""

from __future__ import annotations

from typing import Any

from django import forms

from log.models import Kind
from rolls.rolling.display import bands
from rolls.rolling.forms.base import RollForm
from rolls.rolling.outcomes import Action, Outcome, Plan
from rules import RandomSource
from rules.creation import Budget, CreationCheck
from sheets.creation import CreationForm
from tests.d10pool import rules
from tests.d10pool.models import D10Sheet


class D10SheetForm(forms.ModelForm):
    class Meta:
        model = D10Sheet
        fields = ["grit"]


class D10ResourcesForm(forms.ModelForm):
    class Meta:
        model = D10Sheet
        fields = ["grit"]


def faces_of(result: rules.Result) -> list[dict[str, Any]]:
    return [
        {"kind": "d10", "face": face, "reading": "success" if face >= rules.TARGET else "failure"}
        for face in result.faces
    ]


def detail_of(result: rules.Result) -> str:
    return f"{result.successes} of {result.need} successes needed"


class D10RollForm(RollForm[D10Sheet]):
    need = forms.IntegerField(
        label="Successes needed", min_value=rules.NEED_MIN, max_value=rules.NEED_MAX, initial=1
    )
    bonus = forms.IntegerField(
        label="Bonus dice", min_value=0, max_value=rules.BONUS_MAX, initial=0
    )

    def spends(self, action: str) -> bool:
        return False

    def _pool(self) -> int:
        d = self.cleaned_data
        return rules.check_pool(self.target.obj.dice, need=d["need"], bonus=d["bonus"])

    def make_plan(self) -> Plan:
        d, pool = self.cleaned_data, self._pool()
        return Plan(
            options=self._base_options() | {"need": d["need"], "bonus": d["bonus"]},
            pool={"dice": pool},
            breakdown=f"{self.target.obj.dice} {self.target.label} + {d['bonus']} bonus "
            f"= {pool}d10, {rules.TARGET}+ succeeds",
            bands=bands(rules.odds(pool, need=d["need"])),
            actions=[Action("roll", "Roll")],
        )

    def roll(self, action: str, sheet: D10Sheet, rng: RandomSource) -> Outcome:
        plan = self.plan
        assert plan is not None
        need = plan.options["need"]
        result = rules.Result(rules.roll(plan.pool["dice"], rng), need)
        table = rules.odds(plan.pool["dice"], need=need)
        return Outcome(
            kind=Kind.ROLL,
            options=plan.options,
            pool=plan.pool,
            breakdown=plan.breakdown,
            faces=faces_of(result),
            outcome=result.outcome,
            detail=detail_of(result),
            result={"successes": result.successes},
            odds=table[result.outcome],
            resource_changes={},
            odds_table=table,
        )


class D10CreationForm(CreationForm):
    def add_fields(self) -> None:
        self.fields["grit"] = forms.IntegerField(
            label="Grit", min_value=0, max_value=rules.GRIT_MAX, initial=2
        )

    def make_build(self) -> dict[str, Any]:
        return {"grit": self.value("grit")}

    def run_check(self, build: dict[str, Any]) -> CreationCheck:
        return CreationCheck(budgets=(Budget("Grit", build["grit"] or 0),))
