"""DAD6 Skills' sheet forms."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from sheets.forms.characters import (
    SheetRowForm,
)
from sheets.models import (
    Dad6Bane,
    Dad6Sheet,
    Dad6Skill,
)


class Dad6SheetForm(forms.ModelForm):
    class Meta:
        model = Dad6Sheet
        fields = ("class_name", "level")


class Dad6ForwardBoonsForm(forms.ModelForm):
    """The boons rolled forward, as the GM's character JSON import reads them."""

    class Meta:
        model = Dad6Sheet
        fields = ("forward_boons",)


class Dad6BaneForm(SheetRowForm):
    """A bane in play, as the character JSON import reads it (the sheet adds them from rolls)."""

    class Meta:
        model = Dad6Bane
        fields = ("description",)


class Dad6SkillForm(forms.ModelForm):
    class Meta:
        model = Dad6Skill
        fields = ("name", "is_class_skill", "competence")
        help_texts = {"competence": "Class skills take their competence from the class level."}

    def __init__(
        self, *args: Any, sheet: Dad6Sheet, in_section: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.instance.sheet = sheet
        # In the Skills section all rows are renamed together: the section compares new names.
        self.in_section = in_section
        self.fields["competence"].required = False
        if self.instance.pk:
            self.fields["competence"].label = f"{self.instance.name} competence"

    def for_section(self) -> Dad6SkillForm:
        """As a row of the Skills section: the section says once what the help says per row,
        and a class skill's empty competence reads as what it is."""
        competence = cast(forms.ChoiceField, self.fields["competence"])
        competence.help_text = ""
        choices = cast(list[tuple[str, str]], competence.choices)
        competence.choices = [("", "From the class level"), *choices[1:]]
        return self

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("A skill needs a name.")
        if self.in_section:
            return name
        clash = Dad6Skill.objects.filter(sheet=self.instance.sheet, name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This character already has a skill of that name.")
        return name

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("is_class_skill"):
            data["competence"] = ""
        elif not data.get("competence"):
            self.add_error("competence", "Choose a competence for a skill outside the class.")
        return data


# ---------------------------------------------------------------------------------------------
# Cold Stars
# ---------------------------------------------------------------------------------------------
