"""Forms of the GM table: inline resources, a call for a roll, a contest. Ranges come from the
sheets and the engine; the forms only check that what the GM picked exists on the sheets."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import connection

from rolls.rolling.targets import Target, find_target
from rules import cogent, dad6
from sheets.models import (
    Character,
    CogentSheet,
    ColdStarsAbility,
    ColdStarsSheet,
    Dad6Sheet,
)
from sheets.systems import rule_system_of

ANY_ABILITY = ""


class CogentResourcesForm(forms.ModelForm):
    class Meta:
        model = CogentSheet
        fields = ("destiny_points",)


class ColdStarsResourcesForm(forms.ModelForm):
    """Momentum and Willpower within 0..their maximum (the sheet's clean() and constraints)."""

    class Meta:
        model = ColdStarsSheet
        fields = ("momentum", "willpower")


class Dad6ResourcesForm(forms.ModelForm):
    """The boons rolled forward (the GM's to correct; rolls add and spend them)."""

    class Meta:
        model = Dad6Sheet
        fields = ("forward_boons",)


def _ability_field(label: str) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label,
        required=False,
        choices=[(ANY_ABILITY, "Each skill's suggested Ability"), *list(ColdStarsAbility.choices)],
    )


def _lacking(characters: list[Character], skill: str) -> list[str]:
    return [c.name for c in characters if find_target(c, skill) is None]


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class CharactersField(forms.ModelMultipleChoiceField):
    """Several characters by id. An id out of the database's integer range is refused as an
    invalid value here: Django's ``id__in`` lookup passes it on, and SQLite raises OverflowError."""

    def _check_values(self, value: Any) -> Any:
        model = Character  # what this field lists
        low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
        for pk in value if isinstance(value, list | tuple) else ():
            try:
                in_range = low <= int(pk) <= high
            except (TypeError, ValueError):
                continue  # Django's own check names the bad value
            if not in_range:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        # A private hook of ModelMultipleChoiceField that the stubs don't declare.
        return super()._check_values(value)  # type: ignore[misc]

    def label_from_instance(self, obj: Any) -> str:
        character: Character = obj
        return character.name + (" (NPC)" if character.is_npc else "")


class CallForm(forms.Form):
    characters = CharactersField(
        queryset=Character.objects.none(), widget=forms.CheckboxSelectMultiple, label="Who rolls"
    )
    skill = forms.ChoiceField(label="Skill")
    difficulty = forms.IntegerField(label="Difficulty")
    ability = _ability_field("Ability")
    note = forms.CharField(label="Note", max_length=200, required=False)
    punchers_chance = forms.BooleanField(
        label="Allow a puncher's chance",
        required=False,
        help_text="Each character called may take it instead of a normal roll: natural sixes "
        "only, re-rolled for more until they stop or lose them all.",
    )

    def __init__(self, *args: Any, campaign: Any, skills: list[str], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "call")
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        cast(forms.ModelChoiceField, self.fields["characters"]).queryset = Character.objects.filter(
            campaign=campaign
        )
        cast(forms.ChoiceField, self.fields["skill"]).choices = [(name, name) for name in skills]
        spec = rule_system_of(campaign).table.difficulty
        low, high = spec.minimum, spec.maximum
        difficulty = cast(forms.IntegerField, self.fields["difficulty"])
        difficulty.label, difficulty.min_value, difficulty.max_value = spec.label, low, high
        difficulty.initial = spec.default
        difficulty.validators += [
            MinValueValidator(low),
            MaxValueValidator(high),
        ]
        difficulty.widget.attrs.update(min=low, max=high)
        if not rule_system_of(campaign).table.gm_picks_ability:
            del self.fields["ability"]
        # Offered where the system's roll panel has the option (DAD6's).
        if "punchers_chance" not in rule_system_of(campaign).rolling.form_class.base_fields:
            del self.fields["punchers_chance"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        characters, skill = data.get("characters"), data.get("skill")
        if characters and skill:
            lacking = _lacking(list(characters), skill)
            if lacking:
                self.add_error(
                    "skill",
                    f"{_names(lacking)} {'has' if len(lacking) == 1 else 'have'} no skill called "
                    f"{skill}; untick {'them' if len(lacking) > 1 else 'that character'} or pick "
                    "another skill.",
                )
        return data


class ContestForm(forms.Form):
    kind = forms.ChoiceField(label="Contest")
    character_a = forms.ModelChoiceField(
        queryset=Character.objects.none(), label="Side A (initiator, acting side)"
    )
    skill_a = forms.ChoiceField(label="Side A's skill")
    ability_a = _ability_field("Side A's Ability")
    character_b = forms.ModelChoiceField(queryset=Character.objects.none(), label="Side B")
    skill_b = forms.ChoiceField(label="Side B's skill", required=False)
    ability_b = _ability_field("Side B's Ability")
    outside_domain_a = forms.BooleanField(
        label="Side A acts outside every domain of its skill",
        required=False,
        help_text="A domain skill at rank 3+ then counts as at most 2.",
    )
    outside_domain_b = forms.BooleanField(
        label="Side B acts outside every domain of its skill",
        required=False,
        help_text="A domain skill at rank 3+ then counts as at most 2 (for the passive Risk too).",
    )
    difficulty = forms.IntegerField(
        label="Difficulty before opposition",
        min_value=dad6.DIFFICULTY_MIN,
        max_value=dad6.DIFFICULTY_MAX,
        initial=dad6.DIFFICULTY_MIN,
    )
    opposition = forms.IntegerField(
        label="Opposing factors (+1 boon each)",
        min_value=0,
        max_value=dad6.DIFFICULTY_MAX - dad6.DIFFICULTY_MIN,
        initial=1,
    )

    def __init__(self, *args: Any, campaign: Any, skills: list[str], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "contest")
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        system = rule_system_of(campaign)
        kinds = [(style.kind, style.label) for style in system.table.contest_styles]
        if len(kinds) > 1:
            # Each kind's label says how it plays, and one ("Active vs passive: the passive side
            # sets the Risk") is wider than a phone: a closed select shows only its start, a
            # radio's label wraps.
            self.fields["kind"].widget = forms.RadioSelect()
            self.fields["kind"].initial = kinds[0][0]
        cast(forms.ChoiceField, self.fields["kind"]).choices = kinds
        for side in ("a", "b"):
            cast(
                forms.ModelChoiceField, self.fields[f"character_{side}"]
            ).queryset = Character.objects.filter(campaign=campaign)
        choices = [(name, name) for name in skills]
        cast(forms.ChoiceField, self.fields["skill_a"]).choices = choices
        cast(forms.ChoiceField, self.fields["skill_b"]).choices = [("", "—"), *choices]
        if not system.table.gm_picks_ability:
            del self.fields["ability_a"], self.fields["ability_b"]
            del self.fields["outside_domain_a"], self.fields["outside_domain_b"]
        if not system.table.opposition_adds_difficulty:
            del self.fields["difficulty"], self.fields["opposition"]
            self.fields["skill_b"].required = True
        else:
            self.fields["skill_b"].help_text = "DAD6: side B opposes; only side A rolls."

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        a, b = data.get("character_a"), data.get("character_b")
        for side, character in (("a", a), ("b", b)):
            if character and character.hidden_from_players:
                # Its rolls and name on the contest card would give the hidden NPC away.
                self.add_error(
                    f"character_{side}",
                    f"{character.name} is hidden from players; show the NPC before a contest.",
                )
                return data
        if a and b and a == b:
            self.add_error("character_b", "Pick two different characters.")
            return data
        for side, character in (("a", a), ("b", b)):
            skill = data.get(f"skill_{side}")
            if character and skill and find_target(character, skill) is None:
                self.add_error(f"skill_{side}", f"{character.name} has no skill called {skill}.")
        if (
            rule_system_of(self.campaign).table.opposition_adds_difficulty
            and "difficulty" in data
            and "opposition" in data
        ):
            try:
                dad6.opposed_difficulty(data["difficulty"], opposition=data["opposition"])
            except ValueError as exc:
                self.add_error("opposition", str(exc))
        return data


class AssistForm(forms.Form):
    """The GM has a character (an NPC or any other) assist a named character (Cogent): the form
    opens the assisting character's roll panel set up for the assist, where the GM rolls it."""

    # Plain choices from one read of the campaign's characters (two model fields would read twice).
    assisting = forms.TypedChoiceField(label="Who assists", coerce=int)
    skill = forms.ChoiceField(label="With", help_text="A core skill, vocation or vocational skill.")
    assisted = forms.TypedChoiceField(label="Whom", coerce=int)
    challenge_level = forms.TypedChoiceField(
        label="Assist CL",
        coerce=int,
        choices=[
            (cl, f"{cl} — {name}")
            for cl, name in cogent.CHALLENGE_LEVELS.items()
            if cl >= cogent.ASSIST_MIN_CL
        ],
        initial=cogent.ASSIST_MIN_CL,
    )
    further_helpers = forms.IntegerField(
        label="Further helpers",
        min_value=0,
        max_value=cogent.GROUP_HELPERS_MAX,
        initial=0,
        required=False,
        help_text="A group assist: each helper besides the one who rolls adds +1 die to the "
        "assist roll (the assisted roll takes its ± wins).",
    )

    def __init__(self, *args: Any, campaign: Any, skills: list[str], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "assist")
        super().__init__(*args, **kwargs)
        characters = Character.objects.filter(campaign=campaign).order_by("name", "pk")
        self.characters = {c.pk: c for c in characters}
        choices = [("", "---------")] + [
            (pk, c.name + (" (NPC)" if c.is_npc else "")) for pk, c in self.characters.items()
        ]
        cast(forms.ChoiceField, self.fields["assisting"]).choices = choices
        cast(forms.ChoiceField, self.fields["assisted"]).choices = choices
        cast(forms.ChoiceField, self.fields["skill"]).choices = [(name, name) for name in skills]
        self.target: Target | None = None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for name in ("assisting", "assisted"):
            if data.get(name) is not None:
                data[name] = self.characters[data[name]]
        assisting, assisted, skill = data.get("assisting"), data.get("assisted"), data.get("skill")
        if assisting and assisted and assisting == assisted:
            self.add_error("assisted", "A character assists someone else's roll.")
        if assisting and skill:
            self.target = find_target(assisting, skill, assist=True)
            if self.target is None:
                self.add_error("skill", f"{assisting.name} has no skill called {skill}.")
        return data
