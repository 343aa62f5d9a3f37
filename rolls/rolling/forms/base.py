"""The roll panel's common form: options, presets a GM call or contest fixes, and the odds."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Self, cast

from django import forms
from django.db.models import Expression
from django.http import QueryDict

from log.models import Visibility, offered_visibilities
from rolls.rolling.targets import Target
from rules import RandomSource
from sheets.models import SystemSheet
from sheets.models.base import StateRead

if TYPE_CHECKING:
    from rolls.models import Assist
    from rolls.rolling.outcomes import Choice, Outcome, Plan
    from sheets.models import Character


def _same_value(field: forms.Field, sent: object, fixed: object) -> bool:
    """Whether ``sent`` (as submitted) cleans to the same value as ``fixed`` through ``field``
    ("04" and 4 are the same Risk; "abc" is no Risk at all)."""
    probe = copy.copy(field)
    probe.disabled = False
    try:
        return probe.clean(sent) == probe.clean(fixed)
    except forms.ValidationError:
        return False


def _shown(field: forms.Field, value: object) -> str:
    """A field's value as the panel words it (a choice's label without its figures)."""
    for choice, label in getattr(field, "choices", ()):
        if str(choice) == str(value):
            return str(label).split(" (")[0]
    return str(value)


class _BoundField(forms.BoundField):
    """A panel's bound field, which holds its form weakly. Django's holds it strongly while the
    form keeps its bound fields, a reference cycle: every roll left its form, fields, widgets,
    target and sheet (about 130 objects) for the garbage collector, whose passes over them cost
    a roll about 0.15 ms (docs/performance.md). Without the cycle they go when the view returns.
    A bound field is only ever used while its form is (a template holds the form)."""

    @property
    def form(self) -> forms.BaseForm:
        form = self._form()
        if form is None:  # pragma: no cover - a bound field kept past its form's life
            raise ReferenceError("This bound field's form is gone.")
        return form

    @form.setter
    def form(self, form: forms.BaseForm) -> None:
        # Django's __init__ sets the form: it is held weakly from the start.
        self._form = weakref.ref(form)


@cache
def _visibilities(gm: bool) -> list[tuple[str, str]]:
    return offered_visibilities(gm=gm)


class RollForm[S: SystemSheet](forms.Form):
    """Shared by the three panels. ``target`` is the sheet row, ``sheet`` its sheet as loaded."""

    bound_field_class = _BoundField
    # The options most rolls never touch, behind the panel's "More options" fold (every field
    # not named here, and not the step-4 choice, is shown open), and the fold's summary.
    folded: tuple[str, ...] = ("visibility",)
    fold_hint = "who sees the result"
    # The character this roll assists: only Cogent's panel offers assists (forms/cogent.py).
    assist_target: Character | None = None

    visibility = forms.ChoiceField(
        label="Who sees the result",
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        required=False,  # left out (an odds request, a bookmarked panel URL) means public
    )

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        target: Target,
        sheet: S,
        gm: bool = False,
        preset: Mapping[str, object] | None = None,
        locked: Iterable[str] = (),
        in_contest: bool = False,
        choice_waiting: str = "",
    ) -> None:
        super().__init__(data, auto_id="roll_%s")
        self.target = target
        self.sheet: S = sheet
        self.gm = gm
        # The roll is one side of a GM's contest: rules that differ in a contest read this.
        self.in_contest = in_contest
        # Why this roller may not make the player's choices (rolls/rolling/choosers.py): the GM
        # on a player character's panel. "" when they may.
        self.choice_waiting = choice_waiting
        if target.character.campaign.force_public_rolls:
            # The campaign setting wins: no choice to offer, and a crafted POST can't add one.
            del self.fields["visibility"]
        else:
            cast(forms.ChoiceField, self.fields["visibility"]).choices = _visibilities(gm)
        self.plan: Plan | None = None
        self.choices: list[Choice] = []  # Cold Stars: every step-4 option, side by side
        self.locked: set[str] = set()
        self.setup()
        self.apply_preset(preset or {}, set(locked))

    def player_choices(self, action: str) -> bool:
        """Does rolling ``action`` make a choice that is the player's (a step-4 modification, a
        skip)? The roll service lets only the one who chooses make it (choosers.check)."""
        return False

    def assist_taken(self) -> Assist | None:
        """The waiting assist this roll takes, if any: none but on Cogent's panel."""
        return None

    def apply_preset(self, values: Mapping[str, object], locked: set[str]) -> None:
        """Prefill options set by the GM (a call for a roll, a contest). A locked field is disabled
        (Django cleans it to the GM's value), and :meth:`clean` refuses a request that submits
        another value for it: a browser never sends a disabled field, so only a crafted request
        does, and it should hear no rather than have its roll quietly differ from what it sent."""
        for name, value in values.items():
            if name in self.fields:
                self.fields[name].initial = value
                if name in locked:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = "Set by the GM."
                    self.locked.add(name)

    def setup(self) -> None:
        """Adjust fields to the target and sheet (initial values, disabled options)."""

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for name in sorted(self.locked):
            field = self.fields[name]
            sent = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            if sent in (None, "") or _same_value(field, sent, field.initial):
                continue
            self.add_error(
                name,
                f"The GM set {field.label} to {_shown(field, field.initial)} for this roll; "
                "it can't be changed.",
            )
        return data

    def full_clean(self) -> None:
        super().full_clean()
        if self.is_bound and not self.errors:
            try:
                self.plan = self.make_plan()
            except ValueError as exc:  # the engine refused the combination, in GM words
                self.add_error(None, str(exc))
                self.plan = None

    def _options(self, folded: bool) -> list[forms.BoundField]:
        return [
            bound
            for bound in self.visible_fields()
            if bound.name != "modification" and (bound.name in self.folded) == folded
        ]

    @property
    def main_fields(self) -> list[forms.BoundField]:
        """The options the panel always shows."""
        return self._options(folded=False)

    @property
    def more_fields(self) -> list[forms.BoundField]:
        """The options behind the "More options" fold."""
        return self._options(folded=True)

    @property
    def more_open(self) -> bool:
        """The fold opens on what the player should see in it: a message, a value the GM set,
        or a value other than the panel's default."""
        names = {bound.name for bound in self.more_fields}
        changed = set(self.changed_data) if self.is_bound else set()
        return bool(names & (set(self.errors) | self.locked | changed))

    @property
    def chosen_visibility(self) -> str:
        return self.cleaned_data.get("visibility") or Visibility.PUBLIC

    @classmethod
    def with_defaults(cls, *, target: Target, sheet: S, gm: bool = False, **presets: Any) -> Self:
        """The panel as first opened: bound to its initial values, so the odds show at once."""
        data = cls.default_data(target=target, sheet=sheet, gm=gm, **presets)
        return cls(data, target=target, sheet=sheet, gm=gm, **presets)

    @classmethod
    def default_data(
        cls, *, target: Target, sheet: S, gm: bool = False, **presets: Any
    ) -> dict[str, object]:
        """What the panel as first opened submits: each option's initial value (a box left
        unticked is left out, as a browser leaves it out)."""
        blank = cls(target=target, sheet=sheet, gm=gm, **presets)
        data = {}
        for name, bound in blank.fields.items():
            value = blank.get_initial_for_field(bound, name)
            if value is not None and value is not False and value != "":
                data[name] = value
        return data

    def next_roll_data(self, data: QueryDict, sheet: S) -> QueryDict:
        """The options a panel shows after a roll, given the sheet as it now is: ``data`` less
        any choice the resources no longer cover (it would be refused if rolled again)."""
        return data

    @classmethod
    def roll_state(cls, sheet_pk: Expression) -> dict[str, StateRead]:
        """Whatever else this panel reads about the character, as ORM queries of one value each
        (by the name it is set under on the row) over ``sheet_pk``, the row's sheet's pk: the
        roll's row read (rolls/rolling/row_read.py) runs them as subqueries of its one
        statement. The form reads them only while its sheet is the one loaded with the row: a
        re-read sheet re-reads."""
        return {}

    def spends(self, action: str) -> bool:
        """Does ``action`` change the sheet (spend or gain a resource)? Only then does the roll
        lock the sheet's row first; the others read it as loaded."""
        return True

    def make_plan(self) -> Plan:
        raise NotImplementedError

    def roll(self, action: str, sheet: S, rng: RandomSource) -> Outcome:
        """Carry out ``action`` against the *locked* ``sheet``; raise :class:`Refused` when the
        resources don't allow it (the caller's transaction then writes nothing)."""
        raise NotImplementedError

    def _base_options(self) -> dict[str, Any]:
        return {"target": self.target.kind, "target_id": self.target.obj.pk}
