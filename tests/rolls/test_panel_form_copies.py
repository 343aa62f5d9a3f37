"""The roll panels copy their fields for each form faster than Django's deep copy
(rolls/rolling/forms/base.py, ``_Fields``): the copies must be what Django's would be."""

import copy

import pytest
from django import forms

from rolls.rolling.forms.base import _Fields
from sheets.systems import all_rule_systems


@pytest.mark.parametrize("system", all_rule_systems(), ids=lambda s: s.key)
def test_each_field_is_copied_as_django_copies_it(system):
    base = dict(system.roll_form.base_fields)
    fast, django = _Fields(base).__deepcopy__({}), copy.deepcopy(base)
    assert list(fast) == list(django)
    for name, field in base.items():
        new = fast[name]
        assert type(new) is type(django[name]) and new is not field
        assert vars(new).keys() == vars(django[name]).keys()
        assert new.widget is not field.widget and type(new.widget) is type(field.widget)
        assert new.widget.attrs == field.widget.attrs and new.widget.attrs is not field.widget.attrs
        assert new.error_messages == field.error_messages
        assert new.error_messages is not field.error_messages
        assert new.validators == field.validators and new.validators is not field.validators
        if isinstance(field, forms.ChoiceField):
            assert new.choices == django[name].choices and new.choices is not field.choices
            assert list(new.widget.choices) == list(django[name].widget.choices)
            assert new.widget.choices is not field.widget.choices


@pytest.mark.parametrize("system", all_rule_systems(), ids=lambda s: s.key)
def test_what_one_form_changes_stays_with_it(system):
    """A GM's preset disables a field and a panel narrows its choices: neither reaches the
    panel's class or the next form."""
    fields = _Fields(system.roll_form.base_fields)
    first, second = fields.__deepcopy__({}), fields.__deepcopy__({})
    for field in first.values():
        field.disabled, field.help_text, field.initial = True, "Set by the GM.", "x"
        field.widget.attrs["data-changed"] = "1"
        if isinstance(field, forms.ChoiceField):
            field.choices = [("only", "Only")]
    for name, field in second.items():
        original = system.roll_form.base_fields[name]
        assert field.disabled == original.disabled and field.help_text == original.help_text
        assert "data-changed" not in field.widget.attrs
        assert "data-changed" not in original.widget.attrs
        if isinstance(field, forms.ChoiceField):
            assert field.choices == original.choices != [("only", "Only")]


@pytest.mark.parametrize("gm", [False, True], ids=["player", "gm"])
@pytest.mark.django_db
def test_who_sees_the_result_offers_what_djangos_setter_would(gm, rob):
    """The panel sets its visibility choices without Django's setter (which normalises a list
    that is already normal, twice): the field and its widget end up as the setter leaves them,
    each form with lists of its own."""
    from rolls.models import offered_visibilities
    from rolls.rolling.targets import load_target

    character, athletics = rob
    target = load_target(character, "cogent-skill", athletics.pk)
    made = [
        target.character.campaign.rule_system.roll_form(target=target, sheet=target.sheet, gm=gm)
        for _ in range(2)
    ]
    expected = forms.ChoiceField()
    expected.choices = offered_visibilities(gm=gm)
    for form in made:
        field = form.fields["visibility"]
        assert field.choices == expected.choices
        assert list(field.widget.choices) == list(expected.widget.choices)
    first, second = (form.fields["visibility"] for form in made)
    assert first.choices is not second.choices
    assert first.widget.choices is not second.widget.choices
    assert first.choices is not first.widget.choices


@pytest.mark.django_db
@pytest.mark.parametrize("data", [{}, {"challenge_level": "3", "extra_penalty": "0"}])
def test_a_panel_form_goes_when_its_last_reference_does(data, rob):
    """No reference cycle keeps a validated panel (its bound fields hold it weakly, its assist
    choices don't name it): the form, its fields and its target go at once, not at the garbage
    collector's next pass, which every roll's leftovers made longer (docs/performance.md)."""
    import gc
    import weakref

    from rolls.rolling.targets import load_target

    character, athletics = rob
    target = load_target(character, "cogent-skill", athletics.pk)
    form = target.character.campaign.rule_system.roll_form(
        data or None, target=target, sheet=target.sheet
    )
    form.is_valid()
    assert all(bound.form is form for bound in form)  # bound fields still reach their form
    gone = weakref.ref(form)
    gc.disable()
    try:
        del form
        assert gone() is None
    finally:
        gc.enable()


@pytest.mark.django_db
@pytest.mark.parametrize("label", [None, "Given"])
def test_a_panels_bound_field_reads_as_djangos_does(label, rob):
    """The panel's bound fields work out their initial names, label and help text when read
    (rolls/rolling/forms/base.py): the same as Django's bound field would have set them."""
    from rolls.rolling.targets import load_target

    character, athletics = rob
    target = load_target(character, "cogent-skill", athletics.pk)
    form = target.character.campaign.rule_system.roll_form(target=target, sheet=target.sheet)
    form.fields["extra_penalty"].label = label
    form.fields["extra_penalty"].help_text = None
    for name, field in form.fields.items():
        ours, djangos = form[name], forms.BoundField(form, field, name)
        for attribute in ("html_name", "html_initial_name", "html_initial_id", "auto_id"):
            assert getattr(ours, attribute) == getattr(djangos, attribute), attribute
        assert (ours.label, ours.help_text) == (djangos.label, djangos.help_text)
        assert ours.label_tag() == djangos.label_tag()
