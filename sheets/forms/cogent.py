"""Cogent Roleplay's sheet forms."""

from __future__ import annotations

from typing import Any, cast

from django import forms

from sheets import ranges
from sheets.forms.characters import (
    SheetRowForm,
)
from sheets.models import (
    CUSTOM_WEAPON,
    Campaign,
    CogentCombatSkill,
    CogentDisability,
    CogentInjury,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    CogentVocation,
    SubSkillKind,
    cogent_combat_skills,
)


class CogentSheetForm(forms.ModelForm):
    class Meta:
        model = CogentSheet
        fields = (
            "strength",
            "reflex",
            "intelligence",
            "destiny_points",
            "penalty_dice",
        )


class CogentSkillForm(forms.ModelForm):
    class Meta:
        model = CogentSkill
        fields = ("rating", "craft")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rating"].label = f"{self.instance.name} rating"
        if self.instance.has_craft:
            self.fields["craft"].label = "Animal or craft"
            self.fields["craft"].widget.attrs["placeholder"] = "e.g. Horse, Spaceship"
        else:
            del self.fields["craft"]


class CogentInjuryForm(SheetRowForm):
    class Meta:
        model = CogentInjury
        fields = ("level", "description")
        help_texts = {
            "level": "Each level removes one die from physical checks (Strength, Reflex, combat).",
            "description": "Optional: where and how (e.g. cut forearm).",
        }


class CogentDisabilityForm(SheetRowForm):
    class Meta:
        model = CogentDisability
        fields = ("name", "attribute", "dice")
        help_texts = {
            "dice": "Dice it removes from checks of that attribute (Feeble, Heavy, Dim-witted: 1).",
        }
        widgets = {"name": forms.TextInput(attrs={"placeholder": "e.g. Feeble, Phobia (heights)"})}

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        attribute, dice = data.get("attribute"), data.get("dice")
        if attribute and not dice:
            self.add_error("dice", "Say how many dice it removes, or leave the attribute empty.")
        elif dice and not attribute:
            self.add_error("attribute", "Choose the attribute whose checks lose the dice.")
        return data


class CogentVocationForm(forms.ModelForm):
    class Meta:
        model = CogentVocation
        fields = ("name", "attribute", "rating")

    def __init__(
        self, *args: Any, sheet: CogentSheet, in_section: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        # An existing vocation is only changed in the Vocations section, with the others: its
        # name is compared with their new names there, and each sub-skill is checked against
        # this form's new rating (the sub-skill forms share this instance).
        self.in_section = in_section
        self.instance.sheet = sheet
        if self.instance.pk:
            self.fields["rating"].label = f"{self.instance.name} rating"

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if self.in_section:
            return name  # the section compares the vocations' new names with each other
        clash = CogentVocation.objects.filter(sheet=self.instance.sheet, name__iexact=name)
        if clash.exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError("This character already has a vocation of that name.")
        return name


class CogentSubSkillForm(forms.ModelForm):
    """Adds a sub-skill: a vocational skill (own name and attribute) or a combat skill."""

    combat_skill = forms.ChoiceField(required=False)  # the Book's list and the campaign's
    name = forms.CharField(
        label="Vocational skill name", max_length=ranges.NAME_MAX_LENGTH, required=False
    )

    class Meta:
        model = CogentSubSkill
        fields = ("kind", "name", "attribute", "rating")

    def __init__(self, *args: Any, vocation: CogentVocation, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.vocation = vocation
        campaign = vocation.sheet.character.campaign
        cast(forms.ChoiceField, self.fields["combat_skill"]).choices = [
            ("", "—"),
            *((name, name) for name in cogent_combat_skills(campaign)),
        ]
        self.fields["kind"].widget = forms.RadioSelect(choices=SubSkillKind.choices)
        self.fields["kind"].initial = SubSkillKind.VOCATIONAL

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        vocation = self.instance.vocation
        kind = data.get("kind")
        if kind == SubSkillKind.COMBAT:
            if not data.get("combat_skill"):
                self.add_error("combat_skill", "Choose a combat skill from the list.")
            data["name"] = data.get("combat_skill", "")
            data["attribute"] = ""
        elif kind == SubSkillKind.VOCATIONAL:
            data["name"] = (data.get("name") or "").strip()
            if not data["name"]:
                self.add_error("name", "A vocational skill needs a name.")
            if not data.get("attribute"):
                self.add_error("attribute", "A vocational skill needs a governing attribute.")
        name = data.get("name")
        if name and vocation.subskills.filter(name__iexact=name).exists():
            self.add_error(
                "combat_skill" if kind == SubSkillKind.COMBAT else "name",
                "This vocation already has that sub-skill.",
            )
        rating = data.get("rating")
        if rating is not None and rating > vocation.rating:
            self.add_error(
                "rating", f"A sub-skill cannot be above its vocation ({vocation.rating})."
            )
        slot = vocation.free_slot()
        if slot is None:
            raise forms.ValidationError(
                f"A vocation holds at most {ranges.COGENT_SUBSKILLS_PER_VOCATION} sub-skills."
            )
        self.instance.slot = slot
        return data


class CogentSubSkillRatingForm(forms.ModelForm):
    """A sub-skill's rating; a combat skill also names its usual weapon (rules at the table)."""

    class Meta:
        model = CogentSubSkill
        fields = ("rating", "weapon", "weapon_bonus")
        labels = {"weapon_bonus": "Other weapon's bonus"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rating"].label = f"{self.instance.name} rating"
        if self.instance.is_combat:
            self.fields["weapon"].label = f"{self.instance.name} weapon"
            weapon = cast(forms.ChoiceField, self.fields["weapon"])
            weapon.choices = [("", "No weapon"), *cast(list[tuple[str, str]], weapon.choices)[1:]]
            self.fields["weapon_bonus"].required = False
            self.fields["weapon_bonus"].widget.attrs |= {
                "min": ranges.COGENT_WEAPON_BONUS_MIN,
                "max": ranges.COGENT_WEAPON_BONUS_MAX,
            }
            chosen = (
                self.data.get(self.add_prefix("weapon")) if self.is_bound else self.instance.weapon
            )
            if chosen != CUSTOM_WEAPON:
                # A named weapon's bonus is the Book's: the box appears once "Other" is chosen
                # (saved, or sent back with "Enter the weapon's bonus dice" without JavaScript).
                self.fields["weapon_bonus"].widget = forms.HiddenInput()
        else:
            del self.fields["weapon"], self.fields["weapon_bonus"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.instance.is_combat:
            return data
        if data.get("weapon") == CUSTOM_WEAPON:
            if data.get("weapon_bonus") is None:
                self.add_error("weapon_bonus", "Enter the weapon's bonus dice.")
        else:
            data["weapon_bonus"] = 0  # a named weapon's bonus is the Book's, none without one
        return data

    def clean_rating(self) -> int:
        rating = self.cleaned_data["rating"]
        limit = self.instance.vocation.rating
        if rating > limit:
            raise forms.ValidationError(f"A sub-skill cannot be above its vocation ({limit}).")
        return rating


# ---------------------------------------------------------------------------------------------
# DAD6
# ---------------------------------------------------------------------------------------------


class CogentCombatSkillForm(forms.ModelForm):
    class Meta:
        model = CogentCombatSkill
        fields = ("name",)
        labels = {"name": "Combat skill"}
        help_texts = {"name": "A magic, a power or a fighting style, e.g. “Fire Magic”."}

    def __init__(self, *args: Any, campaign: Campaign, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.campaign = campaign

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("A combat skill needs a name.")
        if name.lower() in (n.lower() for n in cogent_combat_skills(self.instance.campaign)):
            raise forms.ValidationError("That combat skill is already on the list.")
        return name
