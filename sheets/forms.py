"""Forms for accounts, campaigns, invites and every sheet part.

Range checks come from the model fields' validators (so the message appears beside the field);
cross-field and cross-row rules that a check constraint cannot see are validated here.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.core.exceptions import FieldDoesNotExist
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils import timezone

from sheets import ranges
from sheets.catalog import cold_stars_catalog
from sheets.models import (
    CUSTOM_WEAPON,
    ApiToken,
    Campaign,
    CampaignSkill,
    Character,
    CogentCombatSkill,
    CogentDisability,
    CogentInjury,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    CogentVocation,
    ColdStarsDomain,
    ColdStarsSheet,
    ColdStarsSkill,
    Dad6Bane,
    Dad6Sheet,
    Dad6Skill,
    Invite,
    Sheet,
    SubSkillKind,
    cogent_combat_skills,
)


class SignupForm(UserCreationForm):
    """A taken username is the one thing this form may reveal (its error says so). Everything
    else answers the same for a taken and a free name: emails are not checked for uniqueness, the
    password is validated against the name either way, and the database is asked once."""

    email = forms.EmailField(help_text="Used only to reset a forgotten password.")

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def validate_password_for_user(self, user: Any, **kwargs: Any) -> None:
        # A taken name leaves the instance without one, which would skip the password-similarity
        # check and so answer differently; compare the password with the name posted either way.
        if not user.username:
            user.username = self.fields["username"].to_python(self.data.get("username", ""))
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

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
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


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ("name", "description", "system", "force_public_rolls")
        widgets = {"description": forms.Textarea(attrs={"rows": 4})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
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
