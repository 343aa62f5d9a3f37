"""The portrait upload: the file field, checked and re-encoded by sheets.portraits."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError

from sheets.portraits import PortraitBusy, PortraitError, Rendered, process


class PortraitForm(forms.Form):
    portrait = forms.FileField(
        label="New portrait",
        help_text="A JPEG, PNG or WebP picture of at most 2 MB. It is cropped to a square "
        "around its centre; its metadata (camera, place, date) is not kept.",
        # A hint for the file chooser only: the server reads what the file is from its content.
        widget=forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )

    def __init__(self, *args: object, refusal: str = "", **kwargs: object) -> None:
        # ``refusal``: the upload is refused before it is looked at (the user's upload rate),
        # with this sentence beside the field. ``busy`` tells the view no decoding turn came.
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.refusal = refusal
        self.busy = False

    def clean_portrait(self) -> Rendered:
        if self.refusal:
            raise ValidationError(self.refusal, code="rate")
        try:
            return process(self.cleaned_data["portrait"])
        except PortraitError as exc:
            raise ValidationError(str(exc), code="portrait") from exc
        except PortraitBusy as exc:
            self.busy = True
            raise ValidationError(str(exc), code="busy") from exc


__all__ = ["PortraitForm"]
