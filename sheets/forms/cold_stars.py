"""Cold Stars' sheet forms."""

from __future__ import annotations

from typing import Any

from django import forms

from sheets import ranges
from sheets.models import (
    ColdStarsDomain,
    ColdStarsSheet,
    ColdStarsSkill,
)

COLD_STARS_ABILITY_FIELDS = ("strength", "agility", "intellect", "presence", "perception", "will")


class ColdStarsSheetForm(forms.ModelForm):
    """Abilities and resources; only the GM edits the resource maximums (RULES.md §3)."""

    class Meta:
        model = ColdStarsSheet
        fields = (
            *COLD_STARS_ABILITY_FIELDS,
            "momentum",
            "momentum_max",
            "willpower",
            "willpower_max",
        )

    def __init__(self, *args: Any, gm: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not gm:
            del self.fields["momentum_max"]
            del self.fields["willpower_max"]
            # The player's real limit is the maximum the GM set, not the column's range.
            for name in ("momentum", "willpower"):
                limit = getattr(self.instance, f"{name}_max")
                self.fields[name].widget.attrs |= {"min": 0, "max": limit}
                self.fields[name].help_text = f"{ranges.span(0, limit)} (the GM sets the maximum)"


class ColdStarsSkillForm(forms.ModelForm):
    class Meta:
        model = ColdStarsSkill
        fields = ("trained", "rating")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["trained"].label = f"{self.instance.name} trained"
        self.fields["rating"].label = f"{self.instance.name} rating"

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        trained, rating = data.get("trained"), data.get("rating")
        if rating is None:
            return data
        if not trained and rating != 0:
            self.add_error("rating", "An untrained skill has no rating: tick Trained, or set 0.")
        skill = self.instance
        if (
            skill.is_domain
            and trained
            and rating >= ranges.COLD_STARS_DOMAIN_REQUIRED_FROM
            and not skill.domains.exists()
        ):
            self.add_error(
                "rating",
                f"A domain skill rated {ranges.COLD_STARS_DOMAIN_REQUIRED_FROM} or more needs "
                "at least one domain: add a domain first.",
            )
        return data


class ColdStarsDomainForm(forms.ModelForm):
    class Meta:
        model = ColdStarsDomain
        fields = ("name",)
        labels = {"name": "New domain"}

    def __init__(self, *args: Any, skill: ColdStarsSkill, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.skill = skill
        self.fields["name"].label = f"New {skill.name} domain"

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("A domain needs a name.")
        if self.instance.skill.domains.filter(name__iexact=name).exists():
            raise forms.ValidationError("That domain is already on the sheet.")
        return name
