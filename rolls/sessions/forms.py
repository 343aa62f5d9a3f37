"""The GM table's session forms: a title each (validation only)."""

from __future__ import annotations

from django import forms

from rolls.sessions.state import TITLE_MAX


class SessionForm(forms.Form):
    title = forms.CharField(
        label="Session title",
        required=False,
        max_length=TITLE_MAX,
        strip=True,
        help_text="Optional, e.g. “The heist”. Sessions are numbered for you.",
    )


class SceneForm(forms.Form):
    title = forms.CharField(
        label="Scene title",
        required=False,
        max_length=TITLE_MAX,
        strip=True,
        help_text="Optional, e.g. “The docks at night”.",
    )
