"""The roll panel driven by values instead of a browser's form: the API's options (JSON) and the
Discord commands' options both become the data the panel's own form posts, over its defaults, so
a roll from either is validated exactly as the page validates it (docs/api.md, docs/discord.md).
"""

from __future__ import annotations

from django import forms
from django.http import QueryDict

from rolls.rolling import choosers
from rolls.rolling.asks import ASK_PARAMS, panel_ask
from rolls.rolling.forms.base import RollForm
from rolls.rolling.targets import Target
from sheets.models import Membership, Refused
from sheets.systems import rule_system_of


class NotSingle(ValueError):
    """An option that takes one value was given several (or a structure): ``name`` says which."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def with_options(
    form_class: type[RollForm], defaults: dict[str, object], values: dict[str, object]
) -> QueryDict:
    """The panel's defaults with the options given over them, as the panel's form posts them:
    true ticks a box, false or null unticks it (or leaves the option out), numbers and text go
    as text, and an option of several values (a multiple choice, the panel's tick boxes) takes
    a list — or one value — as the browser sends each ticked box."""
    fields = form_class.base_fields
    data = QueryDict(mutable=True)
    for name, value in defaults.items():
        data.setlist(name, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    for name, value in values.items():
        multiple = isinstance(fields.get(name), forms.MultipleChoiceField)
        if isinstance(value, dict) or (isinstance(value, list) and not multiple):
            raise NotSingle(name)
        if value is None or value is False or _unticks(fields.get(name), value):
            data.pop(name, None)
        elif isinstance(value, list):
            if any(isinstance(item, (dict, list)) for item in value):
                raise NotSingle(name)
            data.setlist(name, [str(item) for item in value])
        else:
            data[name] = "on" if value is True else str(value)
    return data


# A tick box given as text, as a query string can only give it: these read as unticked (a GET's
# "use_assist=false" was otherwise a ticked box, and refused when no assist waited).
FALSE_WORDS = frozenset({"false", "0", "off", "no", ""})


def _unticks(field: forms.Field | None, value: object) -> bool:
    return (
        isinstance(field, forms.BooleanField)
        and isinstance(value, str)
        and value.strip().lower() in FALSE_WORDS
    )


def bound_panel(target: Target, membership: Membership, values: dict[str, object]) -> RollForm:
    """``target``'s panel form, bound to the panel's defaults with ``values`` over them and
    validated. The GM's call or contest it answers (``call``/``contest`` in values) presets and
    locks options, as on the sheet; one it may not answer raises :class:`Refused` with the
    panel's reason, and a list where one value belongs :class:`NotSingle`."""
    for name in ASK_PARAMS:
        if isinstance(values.get(name), list):
            raise NotSingle(name)
    asked = {name: str(values[name]) for name in ASK_PARAMS if values.get(name) is not None}
    ask, refusal = panel_ask(asked, target)
    if refusal:
        raise Refused(refusal)
    presets = {"gm": membership.is_gm} | (ask.presets() if ask else {})
    # Press, Brace, Willpower and a skip are the player's (RULES.md §8): "" when this roller's.
    waiting = choosers.waiting(target.character, membership)
    form_class = rule_system_of(target.character.campaign).rolling.form_class
    defaults = form_class.default_data(
        target=target, sheet=target.sheet, choice_waiting=waiting, **presets
    )
    data = with_options(form_class, defaults, values)
    data.update(asked)
    form = form_class(data, target=target, sheet=target.sheet, choice_waiting=waiting, **presets)
    form.is_valid()
    return form
