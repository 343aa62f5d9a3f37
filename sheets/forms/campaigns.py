"""Campaign forms: the campaign itself, its invites and its own skills."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.utils import timezone

from sheets.catalog import cold_stars_catalog
from sheets.models import (
    Campaign,
    CampaignSkill,
    Invite,
    System,
)


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = (
            "name",
            "description",
            "system",
            "force_public_rolls",
            "momentum_max_default",
            "willpower_max_default",
        )
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None or self.instance.system != System.COLD_STARS:
            # Cold Stars' own settings: a new campaign starts with the defaults, and edits them
            # once it plays Cold Stars.
            del self.fields["momentum_max_default"]
            del self.fields["willpower_max_default"]
        if self.instance.system_locked():
            # A disabled field ignores posted data, so a crafted POST cannot change it either.
            self.fields["system"].disabled = True
            self.fields["system"].help_text = "Fixed: the campaign already has characters."


EXPIRY_CHOICES = [
    ("", "Never"),
    ("1", "In 1 day"),
    ("7", "In 7 days"),
    ("30", "In 30 days"),
]


class InviteForm(forms.ModelForm):
    expires_in = forms.TypedChoiceField(
        label="Expires",
        choices=EXPIRY_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
    )

    class Meta:
        model = Invite
        fields = ("role", "max_uses")
        labels = {"max_uses": "Use limit"}
        help_texts = {"max_uses": "Leave empty for unlimited uses."}

    def save(self, commit: bool = True) -> Invite:
        days = self.cleaned_data.get("expires_in")
        if days:
            self.instance.expires_at = timezone.now() + timedelta(days=days)
        return super().save(commit=commit)


# ---------------------------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------------------------


class CampaignSkillForm(forms.ModelForm):
    example_domains = forms.CharField(
        required=False,
        max_length=300,
        help_text="Domain skills only: comma-separated examples, e.g. “Small Craft, Racing Skiffs”",
    )

    class Meta:
        model = CampaignSkill
        fields = ("name", "group", "ability", "is_domain", "example_domains")

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.campaign = campaign

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("A skill needs a name.")
        if any(skill.name.lower() == name.lower() for skill in cold_stars_catalog()):
            raise forms.ValidationError("The default catalog already has a skill of that name.")
        if CampaignSkill.objects.filter(
            campaign=self.instance.campaign, name__iexact=name
        ).exists():
            raise forms.ValidationError("This campaign already has a skill of that name.")
        return name


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------
