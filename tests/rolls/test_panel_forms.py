"""The roll panel's form (rolls/rolling/forms/base.py): each form has fields of its own, and a
validated form leaves no reference cycle behind."""

import gc
import weakref

import pytest
from django import forms

from log.models import offered_visibilities
from rolls.rolling.targets import load_target
from sheets.systems import rule_system_of

pytestmark = pytest.mark.django_db


def panel(rob, data=None, **kwargs):
    character, athletics = rob
    target = load_target(character, "cogent-skill", athletics.pk)
    return rule_system_of(target.character.campaign).rolling.form_class(
        data, target=target, sheet=target.sheet, **kwargs
    )


def test_what_one_form_changes_stays_with_it(rob):
    """A GM's preset disables a field and a panel narrows its choices: neither reaches the
    panel's class or the next form."""
    before, first = panel(rob), panel(rob, gm=True)
    for field in first.fields.values():
        field.disabled, field.help_text = True, "Set by the GM."
        field.widget.attrs["data-changed"] = "1"
        if isinstance(field, forms.ChoiceField):
            field.choices = [("only", "Only")]
    second = panel(rob)
    base = type(second).base_fields
    for name, field in second.fields.items():
        was = before.fields[name]
        assert (field.disabled, field.help_text) == (was.disabled, was.help_text)
        assert field.widget.attrs == was.widget.attrs
        assert "data-changed" not in base[name].widget.attrs
        if isinstance(field, forms.ChoiceField):
            assert list(field.choices) == list(was.choices) != [("only", "Only")]
    # Each form offers its own audience: the GM's (public or secret) never reach a player's.
    assert second.fields["visibility"].choices == offered_visibilities(gm=False)
    assert first.fields["visibility"].choices != second.fields["visibility"].choices


@pytest.mark.parametrize("data", [{}, {"challenge_level": "3", "extra_penalty": "0"}])
def test_a_panel_form_goes_when_its_last_reference_does(data, rob):
    """No reference cycle keeps a validated panel (its bound fields hold it weakly, its assist
    choices don't name it): the form, its fields and its target go at once, not at the garbage
    collector's next pass, which every roll's leftovers made longer (docs/performance.md)."""
    form = panel(rob, data or None)
    form.is_valid()
    assert all(bound.form is form for bound in form)  # bound fields still reach their form
    gone = weakref.ref(form)
    gc.disable()
    try:
        del form
        assert gone() is None
    finally:
        gc.enable()
