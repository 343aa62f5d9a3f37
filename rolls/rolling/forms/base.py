"""The roll panel's common form: options, presets a GM call or contest fixes, and the odds."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Iterable
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any, Self

from django import forms
from django.db.models import QuerySet
from django.forms.utils import pretty_name

from rolls.models import Visibility, offered_visibilities
from rolls.rolling.targets import Target
from rolls.rules import RandomSource
from sheets.models import CogentSheet, ColdStarsSheet, Dad6Sheet

if TYPE_CHECKING:
    from rolls.rolling.outcomes import Choice, Outcome, Plan


def _same_value(field: forms.Field, sent: Any, fixed: Any) -> bool:
    """Whether ``sent`` (as submitted) cleans to the same value as ``fixed`` through ``field``
    ("04" and 4 are the same Risk; "abc" is no Risk at all)."""
    probe = copy.copy(field)
    probe.disabled = False
    try:
        return probe.clean(sent) == probe.clean(fixed)
    except forms.ValidationError:
        return False


def _shown(field: forms.Field, value: Any) -> str:
    """A field's value as the panel words it (a choice's label without its figures)."""
    for choice, label in getattr(field, "choices", ()):
        if str(choice) == str(value):
            return str(label).split(" (")[0]
    return str(value)


def _copied(obj: Any) -> Any:
    """A shallow copy of a field or widget (what ``copy.copy`` does for them, without its
    protocol lookups): its attributes' dict copied whole, which is about half the work of
    adding each attribute to the new object's own (docs/performance.md)."""
    new = obj.__class__.__new__(obj.__class__)
    new.__dict__ = obj.__dict__.copy()
    return new


def _flat(choices: Any) -> bool:
    return isinstance(choices, list) and all(
        type(choice) is tuple and not isinstance(choice[1], list | tuple) for choice in choices
    )


class _Fields(dict[str, forms.Field]):
    """A panel's ``base_fields``, copied for each form as Django's ``Field.__deepcopy__`` copies
    them (the field and its widget shallow, their attrs, error messages, validators and choices
    new) but without ``copy.deepcopy``'s dispatch for every choice: the roll builds its panel's
    form on every request, and the generic deep copy was most of a form's cost
    (docs/performance.md)."""

    def __init__(self, base_fields: dict[str, forms.Field]) -> None:
        super().__init__(base_fields)
        # How each field copies, worked out once: the base fields never change (a form changes
        # its copies), and checking every choice of every field on every copy was a good part of
        # what copying cost. None: Django's own deep copy; else whether the field's and the
        # widget's choices are flat lists of pairs (a plain list() copies those).
        self.copies: dict[str, tuple[bool, bool] | None] = {
            name: (
                (
                    _flat(getattr(field, "_choices", None)),
                    _flat(getattr(field.widget, "_choices", None)),
                )
                if _copies_plainly(field)
                else None
            )
            for name, field in base_fields.items()
        }

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, forms.Field]:
        fields: dict[str, forms.Field] = {}
        for name, field in self.items():
            how = self.copies[name]
            if how is None:  # e.g. a model choice's queryset: Django's own way
                fields[name] = copy.deepcopy(field, memo)
                continue
            new = fields[name] = _copied(field)
            widget = new.widget = _copied(field.widget)
            widget.attrs = field.widget.attrs.copy()
            new.error_messages = field.error_messages.copy()
            new.validators = field.validators[:]
            flat_field, flat_widget = how
            if isinstance(field, forms.ChoiceField):
                choices = field._choices  # type: ignore[attr-defined]
                new._choices = list(choices) if flat_field else copy.deepcopy(choices)
            if isinstance(widget, forms.widgets.ChoiceWidget):
                # What Django's copy does (copy.copy, then the setter's normalize_choices), for
                # a flat list without normalizing what is already normal.
                if flat_widget:
                    widget._choices = list(field.widget._choices)  # type: ignore[attr-defined]
                else:
                    widget.choices = copy.copy(field.widget.choices)
        return fields


def _copies_plainly(field: forms.Field) -> bool:
    """Does Django deep-copy this field and its widget only the way :class:`_Fields` does?"""
    return type(field).__deepcopy__ in _PLAIN_FIELD_COPIES and (
        type(field.widget).__deepcopy__ in _PLAIN_WIDGET_COPIES
    )


_PLAIN_FIELD_COPIES = (forms.Field.__deepcopy__, forms.ChoiceField.__deepcopy__)
_PLAIN_WIDGET_COPIES = (forms.Widget.__deepcopy__, forms.widgets.ChoiceWidget.__deepcopy__)


class _BoundField(forms.BoundField):
    """A panel's bound field, which holds its form weakly. Django's holds it strongly while the
    form keeps its bound fields, a reference cycle: every roll left its form, fields, widgets,
    target and sheet (about 130 objects) for the garbage collector, whose passes over them cost
    a roll about 0.15 ms (docs/performance.md). Without the cycle they go when the view returns.
    A bound field is only ever used while its form is (a template holds the form).

    What only drawing the field reads (its initial names, label and help text) is worked out
    when first read, not when the bound field is made: a roll cleans every field of its panel
    and draws none."""

    def __init__(self, form: forms.BaseForm, field: forms.Field, name: str) -> None:
        # Django's __init__, less what the properties below work out when read.
        self.form = form
        self.field = field
        self.name = name
        self.html_name = form.add_prefix(name)
        self.renderer = form.renderer

    @property
    def form(self) -> forms.BaseForm:
        form = self._form()
        if form is None:  # pragma: no cover - a bound field kept past its form's life
            raise ReferenceError("This bound field's form is gone.")
        return form

    @form.setter
    def form(self, form: forms.BaseForm) -> None:
        self._form = weakref.ref(form)

    # Plain attributes in Django's declaration, worked out when read here (hence the ignores).
    @cached_property
    def html_initial_name(self) -> Any:  # type: ignore[override]
        return self.form.add_initial_prefix(self.name)

    @cached_property
    def html_initial_id(self) -> Any:  # type: ignore[override]
        return self.form.add_initial_prefix(self.auto_id)

    @cached_property
    def label(self) -> Any:  # type: ignore[override]
        return pretty_name(self.name) if self.field.label is None else self.field.label

    @cached_property
    def help_text(self) -> Any:  # type: ignore[override]
        return self.field.help_text or ""


@cache
def _visibilities(gm: bool) -> list[tuple[str, str]]:
    return offered_visibilities(gm=gm)


def _set_flat_choices(field: forms.Field, choices: list[tuple[str, str]]) -> None:
    """``field.choices = choices`` for a flat list of pairs, already what Django's setters would
    normalize it to (they would go through every choice twice, once for the field and once for
    its widget)."""
    field._choices = list(choices)  # type: ignore[attr-defined]
    field.widget._choices = list(choices)


class RollForm[S: (CogentSheet, Dad6Sheet, ColdStarsSheet)](forms.Form):
    """Shared by the three panels. ``target`` is the sheet row, ``sheet`` its sheet as loaded."""

    bound_field_class = _BoundField

    visibility = forms.ChoiceField(
        label="Who sees the result",
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        required=False,  # left out (an odds request, a bookmarked panel URL) means public
    )

    def __init__(
        self,
        data: Any = None,
        *,
        target: Target,
        sheet: S,
        gm: bool = False,
        preset: dict[str, Any] | None = None,
        locked: Iterable[str] = (),
        in_contest: bool = False,
    ) -> None:
        panel = type(self)
        if type(panel.__dict__.get("base_fields")) is dict:  # once per panel class
            panel.base_fields = _Fields(panel.base_fields)
        super().__init__(data, auto_id="roll_%s")
        self.target = target
        self.sheet: S = sheet
        self.gm = gm
        # The roll is one side of a GM's contest: rules that differ in a contest read this.
        self.in_contest = in_contest
        if target.character.campaign.force_public_rolls:
            # The campaign setting wins: no choice to offer, and a crafted POST can't add one.
            del self.fields["visibility"]
        else:
            _set_flat_choices(self.fields["visibility"], _visibilities(gm))
        self.plan: Plan | None = None
        self.choices: list[Choice] = []  # Cold Stars: every step-4 option, side by side
        self.locked: set[str] = set()
        self.setup()
        self.apply_preset(preset or {}, set(locked))

    def apply_preset(self, values: dict[str, Any], locked: set[str]) -> None:
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
    ) -> dict[str, Any]:
        """What the panel as first opened submits: each option's initial value (a box left
        unticked is left out, as a browser leaves it out)."""
        blank = cls(target=target, sheet=sheet, gm=gm, **presets)
        data = {}
        for name, bound in blank.fields.items():
            value = blank.get_initial_for_field(bound, name)
            if value is not None and value is not False and value != "":
                data[name] = value
        return data

    def next_roll_data(self, data: Any, sheet: S) -> Any:
        """The options a panel shows after a roll, given the sheet as it now is: ``data`` less
        any choice the resources no longer cover (it would be refused if rolled again)."""
        return data

    @classmethod
    def with_roll_state(cls, rows: QuerySet[Any], sheet_pk: str) -> QuerySet[Any]:
        """``rows`` (the query that loads a roll's target row, whose ``sheet_pk`` is its sheet's
        pk) with whatever else this panel reads about the character as annotations, so that a
        roll is one query before its transaction (rolls/rolling/targets.py). The form reads
        them only while its sheet is the one loaded with the row: a re-read sheet re-reads."""
        return rows

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
