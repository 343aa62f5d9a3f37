"""The portrait upload: the file field, checked and re-encoded by sheets.portraits."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from sheets.portraits import PortraitError, Rendered, process


class PortraitForm(forms.Form):
    portrait = forms.FileField(
        label="New portrait",
        help_text="A JPEG, PNG or WebP picture of at most 2 MB. It is cropped to a square "
        "around its centre; its metadata (camera, place, date) is not kept.",
        # A hint for the file chooser only: the server reads what the file is from its content.
        widget=forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )

    def clean_portrait(self) -> Rendered:
        try:
            return process(self.cleaned_data["portrait"])
        except PortraitError as exc:
            raise ValidationError(str(exc), code="portrait") from exc


__all__ = ["PortraitForm"]
