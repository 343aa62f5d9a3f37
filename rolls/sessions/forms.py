"""The GM table's session forms: a title each (validation only)."""

from __future__ import annotations

from typing import Any

from django import forms

from rolls.sessions.state import TITLE_MAX


class _TitleForm(forms.Form):
    """A title, optional, at most TITLE_MAX characters; each form names it its own way."""

    label = ""
    example = ""
    title = forms.CharField(required=False, max_length=TITLE_MAX, strip=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["title"].label = self.label
        self.fields["title"].help_text = self.example


class SessionForm(_TitleForm):
    label = "Session title"
    example = "Optional, e.g. “The heist”. Sessions are numbered for you."


class SceneForm(_TitleForm):
    label = "Scene title"
    example = "Optional, e.g. “The docks at night”."
