"""Account forms: sign-up, API tokens, the password change that revokes tokens."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.utils import timezone

from sheets.models import (
    ApiToken,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class SignupForm(UserCreationForm):
    """A taken username is the one thing this form may reveal (its error says so). Everything
    else answers the same for a taken and a free name: emails are not checked for uniqueness, the
    password is validated against the name either way, and the database is asked once."""

    email = forms.EmailField(help_text="Used only to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def validate_password_for_user(self, user: User, **kwargs: Any) -> None:
        # A taken name leaves the instance without one, which would skip the password-similarity
        # check and so answer differently; compare the password with the name posted either way.
        if not user.username:
            username = self.fields["username"].to_python(self.data.get("username", ""))
            user.username = username or ""  # the field's empty value is "" already
        # django-stubs doesn't declare this hook of BaseUserCreationForm (Django 5.1+).
        super().validate_password_for_user(user, **kwargs)  # type: ignore[misc]

    def _get_validation_exclusions(self) -> set[str]:
        # clean_username's case-insensitive lookup already covers the model's exact unique
        # check, which would only run for a free name: one query more, a timing difference.
        # A private ModelForm hook the stubs don't declare.
        return {*super()._get_validation_exclusions(), "username"}  # type: ignore[misc]


class ApiTokenForm(forms.ModelForm):
    """A new personal access token: what uses it, what it may do, how long it lives."""

    EXPIRY_CHOICES = [
        ("30", "In 30 days"),
        ("90", "In 90 days"),
        ("365", "In a year"),
        ("", "Never"),
    ]

    expires = forms.ChoiceField(
        label="Expires",
        choices=EXPIRY_CHOICES,
        initial="90",
        required=False,
        help_text="A token that expires can't be forgotten in an old script for ever.",
    )

    class Meta:
        model = ApiToken
        fields = ("name", "scope")
        widgets = {"scope": forms.RadioSelect}

    def clean_name(self) -> str:
        return self.cleaned_data["name"].strip()

    def expires_at(self) -> datetime | None:
        days = self.cleaned_data.get("expires")
        return timezone.now() + timedelta(days=int(days)) if days else None


class PasswordChangeWithTokensForm(PasswordChangeForm):
    """Django's password change, asking whether the user's API tokens go too (they do unless
    the box is unticked): a password changed because it leaked should not leave the tokens made
    with it working. ``tokens_asked`` tells an unticked box from a client that never showed it,
    which gets the default, revoking."""

    revoke_tokens = forms.BooleanField(
        label="Also revoke my API tokens",
        label_suffix="",
        required=False,
        initial=True,
        help_text="Scripts and bots using them stop working until you make new tokens on your "
        "account page. Untick to keep them.",
    )
    tokens_asked = forms.BooleanField(required=False, widget=forms.HiddenInput, initial=True)

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        active = ApiToken.objects.filter(user=user).active().count()
        if not active:
            # Nothing to ask about (revoking none is the same as keeping none).
            del self.fields["revoke_tokens"], self.fields["tokens_asked"]
        else:
            self.fields[
                "revoke_tokens"
            ].label = f"Also revoke my {active} active API token{'s' if active != 1 else ''}"

    def revokes_tokens(self) -> bool:
        return bool(self.cleaned_data.get("revoke_tokens")) or not self.cleaned_data.get(
            "tokens_asked"
        )


# ---------------------------------------------------------------------------------------------
# Campaigns and invites
# ---------------------------------------------------------------------------------------------
