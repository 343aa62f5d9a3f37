"""The DAD6 roll panel: boons, banes, competence and extra dice."""

from __future__ import annotations

from collections.abc import Mapping

from django import forms

from log.models import Kind
from rolls.rolling import punch
from rolls.rolling.display import bands
from rolls.rolling.forms.base import RollForm
from rolls.rolling.outcomes import (
    Action,
    Outcome,
    Plan,
    dad6_detail,
    dad6_faces,
    dad6_reading,
    dad6_result,
    plural,
    pool_terms,
)
from rules import RandomSource, dad6
from sheets.models import Dad6Sheet, Dad6Skill, Refused

# ---------------------------------------------------------------------------------------------
# DAD6
# ---------------------------------------------------------------------------------------------

EXTRA_DICE_FIELDS = (  # (field, singular reason, plural reason)
    ("tools", "tool", "tools"),
    ("helpers", "helper", "helpers"),
    ("advantages", "advantage", "advantages"),
    ("time", "doubled time", "doublings of time"),
)


def _extra_field(label: str, help_text: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=dad6.EXTRA_DICE_MAX, initial=0, help_text=help_text
    )


# The most boons any pool can trade dice for (the largest pool the engine takes, 8 dice a boon); the pool at
# hand allows fewer, checked in Dad6RollForm.clean.
TRADED_BOONS_MAX = dad6.max_traded_boons(dad6.MAX_POOL)


PUNCH_HELP = (
    "Natural sixes only, whatever the competence and task; re-roll the dice that scored for more "
    "boons, again and again, until you stop — a re-roll without a six loses them all."
)
PUNCH_NOT_ALLOWED = (
    "Only with the GM's leave: the GM allows it in a call for this roll, or rolls it."
)


class Dad6RollForm(RollForm[Dad6Sheet]):
    folded: tuple[str, ...] = (
        "visibility",
        "tools",
        "helpers",
        "advantages",
        "time",
        "traded_boons",
    )
    fold_hint = "tools, helpers, advantages, time, traded boons, who sees it"
    # A puncher's chance (Book: "at the referee's discretion"): the GM allows it — on a roll the
    # GM makes, or in a call (its preset says so, punch.ALLOWED); anyone else sees it disabled.
    punch_allowed = False

    difficulty = forms.IntegerField(
        label="Difficulty (boons needed)",
        min_value=dad6.DIFFICULTY_MIN,
        max_value=dad6.DIFFICULTY_MAX,
        initial=dad6.DIFFICULTY_MIN,
        help_text="1, plus 1 per significant obstacle.",
    )
    task = forms.ChoiceField(
        label="Task",
        choices=[
            (task, f"{task.capitalize()} ({dad6.TASK_MODIFIER[task]:+d} per die)")
            for task in dad6.TASKS
        ],
        initial=dad6.TASKS[0],
    )
    tools = _extra_field("Tools", "+1 die per useful tool.")
    helpers = _extra_field("Helpers", "+1 die per helper.")
    advantages = _extra_field("Advantages", "+1 die per environmental advantage.")
    time = _extra_field(
        "Time doublings",
        "+1 die each time the time spent doubles. Tools, helpers, advantages and time add at most "
        f"{dad6.EXTRA_DICE_MAX} in all.",
    )
    traded_boons = forms.IntegerField(
        label="Boons traded for dice",
        min_value=0,
        max_value=TRADED_BOONS_MAX,
        initial=0,
        help_text=f"Trade {dad6.DICE_PER_TRADED_BOON} dice for 1 automatic boon.",
    )

    punchers_chance = forms.BooleanField(
        label="Take a puncher's chance", required=False, help_text=PUNCH_HELP
    )

    @property
    def competence(self) -> str:
        return self.target.obj.effective_competence

    def apply_preset(self, values: Mapping[str, object], locked: set[str]) -> None:
        values = dict(values)
        allowed = self.gm or bool(values.pop(punch.ALLOWED, False))
        # Decision: a contest's roll is read against the other side as a normal roll.
        self.punch_allowed = allowed and not self.in_contest
        super().apply_preset(values, locked)
        field = self.fields[punch.OPTION]
        if not self.punch_allowed:
            field.disabled, field.help_text = True, PUNCH_NOT_ALLOWED
            self.folded = (*self.folded, punch.OPTION)

    @property
    def punching(self) -> bool:
        """This roll is a puncher's chance (once the form is clean)."""
        return bool(self.cleaned_data.get(punch.OPTION))

    def _clean_punch(self, data: dict[str, object]) -> None:
        """A puncher's chance only with the GM's leave, and the whole pool: the Book's "roll their
        dice as normal" trades no dice for boons."""
        if not self.punch_allowed:
            name = punch.OPTION
            field = self.fields[name]
            sent = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            if field.to_python(sent):
                self.add_error(name, "The GM hasn't allowed a puncher's chance on this roll.")
            return
        if data.get(punch.OPTION) and data.get("traded_boons"):
            self.add_error(
                "traded_boons", "A puncher's chance rolls the whole pool: trade no dice for boons."
            )

    def clean(self) -> dict[str, object]:
        """The ranges that depend on more than one field, beside the field that breaks them."""
        super().clean()
        data = self.cleaned_data
        self._clean_punch(data)
        names = [name for name, _, _ in EXTRA_DICE_FIELDS]
        if any(name not in data for name in names):
            return data  # a reason already has its own message
        extra = 0
        for name in names:
            extra += data[name]
            if extra > dad6.EXTRA_DICE_MAX:
                total = sum(data[n] for n in names)
                self.add_error(
                    name,
                    f"Tools, helpers, advantages and time add at most {dad6.EXTRA_DICE_MAX} dice "
                    f"in all; these add {total}.",
                )
                return data
        if "traded_boons" in data:
            try:
                pool = dad6.pool_size(
                    level=self.sheet.level, competence=self.competence, extra_dice=extra
                )
                dad6.dice_rolled(pool, traded_boons=data["traded_boons"])
            except ValueError as exc:
                self.add_error("traded_boons", str(exc))
        return data

    def make_plan(self) -> Plan:
        d, sheet, row = self.cleaned_data, self.sheet, self.target.obj
        extra = sum(d[name] for name, _, _ in EXTRA_DICE_FIELDS)
        pool = dad6.pool_size(level=sheet.level, competence=self.competence, extra_dice=extra)
        traded, difficulty, task = d["traded_boons"], d["difficulty"], d["task"]
        rolled = dad6.dice_rolled(pool, traded_boons=traded)
        per_die = dad6.die_modifier(competence=self.competence, task=task)
        terms = [(sheet.level, "level")] + [
            (d[name], one if d[name] == 1 else many) for name, one, many in EXTRA_DICE_FIELDS
        ]
        halved = ", halved for Unfamiliar" if self.competence == "unfamiliar" else ""
        breakdown = f"{pool_terms(terms)}{halved} = {pool}d6"
        if self.punching:
            return self._punch_plan(pool, breakdown)
        if traded:
            spent = traded * dad6.DICE_PER_TRADED_BOON
            breakdown += f"; {plural(traded, 'boon')} traded for {spent} dice, {rolled}d6 rolled"
        # Boons rolled forward from an earlier roll: automatic boons of this one, spent by it.
        forward = sheet.forward_boons
        if forward:
            breakdown += f"; +{plural(forward, 'rolled-forward boon')}"
        breakdown += (
            f"; {self.competence.capitalize()} {task} task: {per_die:+d} per die"
            f" vs Difficulty {difficulty}"
        )
        odds = dad6.odds(
            pool,
            competence=self.competence,
            task=task,
            difficulty=difficulty,
            traded_boons=traded,
            bonus_boons=forward,
        )
        options = self._base_options() | {
            "level": sheet.level,
            "competence": self.competence,
            "class_skill": row.is_class_skill,
            "difficulty": difficulty,
            "task": task,
            **{name: d[name] for name, _, _ in EXTRA_DICE_FIELDS},
            "traded_boons": traded,
            "forward_boons": forward,
        }
        notes = [self._competence_note(row, pool)]
        return Plan(
            options,
            self._figures(pool, task, traded, forward),
            breakdown,
            bands(odds),
            [Action("roll", f"Roll {rolled}d6")],
            notes,
        )

    def _figures(self, pool: int, task: str, traded: int, forward: int) -> dict[str, object]:
        return dict(
            dad6.pool_figures(
                pool,
                competence=self.competence,
                task=task,
                traded_boons=traded,
                bonus_boons=forward,
            )
        )

    def _competence_note(self, row: Dad6Skill, pool: int) -> str:
        return (
            f"{row.name}: {self.competence.capitalize()}"
            + (" (class skill, from the level)" if row.is_class_skill else "")
            + _trade_words(dad6.max_traded_boons(pool))
        )

    def _punch_plan(self, pool: int, breakdown: str) -> Plan:
        """Book: the pool rolled as normal, natural sixes only; the odds are the first throw's
        (were the player to stop after it). Rolled-forward boons wait for a normal roll."""
        d, sheet, row = self.cleaned_data, self.sheet, self.target.obj
        difficulty = d["difficulty"]
        breakdown += f"; puncher's chance: natural sixes only vs Difficulty {difficulty}"
        options = self._base_options() | {
            "level": sheet.level,
            "competence": self.competence,
            "class_skill": row.is_class_skill,
            "difficulty": difficulty,
            "task": d["task"],
            **{name: d[name] for name, _, _ in EXTRA_DICE_FIELDS},
            "traded_boons": 0,
            "forward_boons": 0,
            punch.OPTION: True,
        }
        notes = [
            "Puncher's chance: each natural six is a boon (competence and task don't count). "
            "Re-roll the dice that scored for more, as often as you like; stop to count the "
            "banked boons, or a re-roll without a six loses them all. The odds are the first "
            "throw's, were you to stop after it."
        ]
        if sheet.forward_boons:
            notes.append("Rolled-forward boons are kept for a normal roll.")
        return Plan(
            options,
            punch.throw_pool(pool, self.competence),
            breakdown,
            bands(dad6.punch_odds(pool, difficulty=difficulty)),
            [Action("roll", f"Roll {pool}d6: puncher's chance")],
            notes,
        )

    def _punch_roll(self, rng: RandomSource) -> Outcome:
        return _punch_roll_outcome(self, rng)

    def spends(self, action: str) -> bool:
        # Boons counted from the sheet as loaded: none counted is none spent. (Boons rolled
        # forward meanwhile are left for the next roll, as if this roll came first.)
        assert self.plan is not None
        return self.plan.options["forward_boons"] > 0

    def roll(self, action: str, sheet: Dad6Sheet, rng: RandomSource) -> Outcome:
        plan = self.plan
        assert plan is not None
        if action != "roll":
            raise Refused("DAD6 rolls are always rolled.")
        o = plan.options
        if o.get(punch.OPTION):
            return self._punch_roll(rng)
        # The rolled-forward boons are spent on the locked sheet: the odds shown counted them, so a
        # roll that finds a different number (spent or changed a moment ago) is refused.
        changes = sheet.spend_forward_boons(o["forward_boons"])
        faces = dad6.roll(plan.pool["dice"], rng, traded_boons=o["traded_boons"])
        result = dad6.resolve(faces, **dad6_reading(o))
        odds = dad6.odds(plan.pool["dice"], **dad6_reading(o))
        return Outcome(
            kind=Kind.ROLL,
            options=o,
            pool=plan.pool,
            breakdown=plan.breakdown,
            faces=dad6_faces(result),
            outcome=result.outcome,
            detail=dad6_detail(result),
            result=dad6_result(result),
            odds=odds[result.outcome],
            resource_changes=changes,
            odds_table=odds,
        )


def _punch_roll_outcome(form: Dad6RollForm, rng: RandomSource) -> Outcome:
    plan = form.plan
    assert plan is not None
    dice, difficulty = plan.pool["dice"], plan.options["difficulty"]
    assert isinstance(dice, int) and isinstance(difficulty, int)
    first = dad6.punch(dad6.punch_roll(dice, rng), difficulty=difficulty)
    return punch.outcome(
        first,
        dad6.punch_odds(dice, difficulty=difficulty),
        kind=Kind.ROLL,
        options=plan.options,
        pool=plan.pool,
        breakdown=plan.breakdown,
    )


def _trade_words(most: int) -> str:
    """What the pool allows to trade, said only when it allows any ("up to 0 boons" said nothing)."""
    if most == 0:
        return "; too few dice to trade any for a boon."
    return f"; up to {plural(most, 'boon')} can be traded for these dice."
