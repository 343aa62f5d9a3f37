"""Forms shared by every system's sheet: the basics, the sections a sheet is edited in, its
rows, and importing a character from JSON.

Range checks come from the model fields' validators (so the message appears beside the field);
cross-field and cross-row rules that a check constraint cannot see are validated here.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import FieldDoesNotExist
from django.core.validators import MaxValueValidator, MinValueValidator

from sheets import ranges
from sheets.models import (
    Character,
    Sheet,
)


class CharacterBasicsForm(forms.ModelForm):
    class Meta:
        model = Character
        fields = ("name", "notes", "hidden_from_players")
        widgets = {"notes": forms.Textarea(attrs={"rows": 5})}

    def __init__(self, *args: Any, gm: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not (gm and self.instance.is_npc):
            del self.fields["hidden_from_players"]


def show_ranges(form: forms.BaseForm) -> forms.BaseForm:
    """Put a number field's allowed range up front: ``min``/``max`` on the input and the range in
    its help text, read from the model field's validators (the same ones the database's check
    constraints mirror), so nobody has to type a wrong value to learn the limits."""
    model = getattr(getattr(form, "_meta", None), "model", None)
    if model is None:
        return form
    for name, field in form.fields.items():
        if not isinstance(field, forms.IntegerField) or field.widget.is_hidden:
            continue
        try:
            validators = model._meta.get_field(name).validators
        except FieldDoesNotExist:  # a form-only field
            continue
        low = next((v.limit_value for v in validators if isinstance(v, MinValueValidator)), None)
        high = next((v.limit_value for v in validators if isinstance(v, MaxValueValidator)), None)
        if low is None or high is None or "max" in field.widget.attrs:
            continue
        field.widget.attrs |= {"min": low, "max": high}
        span = ranges.span(low, high)
        field.help_text = f"{field.help_text} ({span})" if field.help_text else span
        # Checked here first with the range in the message (the model's validators then skip the
        # field): "Enter a number from −1 to 4." rather than "Ensure this value is …".
        message = f"Enter a number from {span}."
        field.validators = [
            *field.validators,
            MinValueValidator(low, message),
            MaxValueValidator(high, message),
        ]
    return form


class SectionForm:
    """Every form of one section of a sheet (its figures, or all its rows), saved by one Save.

    All of them are validated before anything is written, and saved in the view's transaction,
    so a section is saved whole or not at all; a form with errors keeps what was typed in every
    field of the section. ``forms`` are in validation order: a row a later row is checked against
    (a Cogent vocation before its sub-skills) comes first.
    """

    def __init__(self, parts: list[forms.ModelForm]) -> None:
        self.forms = [cast(forms.ModelForm, show_ranges(part)) for part in parts]

    def is_valid(self) -> bool:
        # Every form is validated (no short-circuit), so each shows its own errors at once.
        valid = [form.is_valid() for form in self.forms]
        return all(valid) and self.clean_rows()

    def clean_rows(self) -> bool:
        """Rules across the section's rows, on the values posted; False after adding errors."""
        return True

    def save(self) -> None:
        for form in self.forms:
            form.save()

    def add_error(self, field: None, error: str) -> None:
        """A clash the database found while saving: the first form shows it above its row."""
        self.forms[0].add_error(field, error)

    @property
    def bound(self) -> dict[str, forms.BaseForm]:
        """The forms by their prefix: the sheet page shows each in its row."""
        bound: dict[str, forms.BaseForm] = {form.prefix or "": form for form in self.forms}
        return bound


class FiguresSection(SectionForm):
    """The sheet's own figures (attributes, resources), which rolls spend while the section may be
    open: only what the user changed is written, so a destiny point or Momentum spent meanwhile
    isn't put back by the stale value still in the form. Each field carries the value the user
    saw (``show_hidden_initial``), and the change is measured against it."""

    def __init__(self, parts: list[forms.ModelForm]) -> None:
        super().__init__(parts)
        for form in self.forms:
            for field in form.fields.values():
                field.show_hidden_initial = True

    def save(self) -> None:
        for form in self.forms:
            if form.changed_data:
                form.instance.save(update_fields=form.changed_data)


class UniqueNamesSection(SectionForm):
    """Rows whose names must differ on one sheet, renamed together: checked on the new names, so
    swapping two names is no clash and two rows renamed alike are one. Rows without a name field
    (a vocation's sub-skills) take no part."""

    def __init__(self, parts: list[forms.ModelForm], *, what: str) -> None:
        super().__init__(parts)
        self.what = what  # the rows, as the clash message names them

    def save(self) -> None:
        # The database checks each UPDATE against the names still stored: a renamed row first
        # steps aside under a placeholder no one types, so two rows can swap their names.
        for form in self.forms:
            if form.instance.pk and "name" in form.changed_data and "name" in form.fields:
                type(form.instance)._default_manager.filter(pk=form.instance.pk).update(
                    name=f"\u2063{form.instance.pk}"
                )
        super().save()

    def clean_rows(self) -> bool:
        seen: set[str] = set()
        ok = True
        for form in self.forms:
            if "name" not in form.fields:
                continue
            name = form.cleaned_data.get("name", "").lower()
            if name and name in seen:
                form.add_error("name", f"Another {self.what} on this sheet has that name.")
                ok = False
            seen.add(name)
        return ok


# ---------------------------------------------------------------------------------------------
# Cogent
# ---------------------------------------------------------------------------------------------


class SheetRowForm(forms.ModelForm):
    """A form for one row of a sheet (a skill, an injury, a bane…): the row belongs to ``sheet``."""

    def __init__(self, *args: Any, sheet: Sheet, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.sheet = sheet


class CharacterImportForm(forms.Form):
    file = forms.FileField(
        label="JSON file", required=False, help_text="A file exported from Poolside."
    )
    text = forms.CharField(
        label="…or paste the JSON",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    MAX_BYTES = ranges.IMPORT_MAX_BYTES

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload, text = data.get("file"), data.get("text", "").strip()
        limit = f"{self.MAX_BYTES // 1024} KiB max"
        if upload and text:
            raise forms.ValidationError("Give a file or pasted JSON, not both.")
        if upload:
            if upload.size > self.MAX_BYTES:
                self.add_error("file", f"That file is too large for a character ({limit}).")
                return data
            try:
                data["raw"] = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                self.add_error("file", "That file is not UTF-8 text.")
        elif text:
            if len(text.encode("utf-8", errors="surrogatepass")) > self.MAX_BYTES:
                self.add_error("text", f"Pasted JSON is too large for a character ({limit}).")
                return data
            data["raw"] = text
        else:
            raise forms.ValidationError("Choose a file or paste the exported JSON.")
        return data
