"""The Cogent Roleplay sheet: attributes, core skills, vocations and sub-skills, injuries, disabling
characteristics, combat skills."""

from __future__ import annotations

from django.db import models
from django.db.models import Expression, Q, StringAgg, Value
from django.db.models.functions import Cast, Concat
from django.utils.functional import cached_property

from rules import cogent, cogent_creation
from sheets import ranges
from sheets.models.base import (
    Refused,
    RollableRow,
    StateRead,
    SystemSheet,
    between_constraint,
    in_constraint,
    range_validators,
)
from sheets.models.campaigns import Campaign, Character

# ---------------------------------------------------------------------------------------------
# Cogent Roleplay
# ---------------------------------------------------------------------------------------------


class CogentAttribute(models.TextChoices):
    STRENGTH = "strength", "Strength"
    REFLEX = "reflex", "Reflex"
    INTELLIGENCE = "intelligence", "Intelligence"


# The 15 core skills with their governing attribute, and the fixed combat skills: from the engine.
COGENT_CORE_SKILLS: tuple[tuple[str, str], ...] = tuple(
    (name, attribute.lower()) for name, attribute in cogent.CORE_SKILLS.items()
)


COGENT_COMBAT_SKILLS: tuple[str, ...] = tuple(cogent.COMBAT_SKILLS)


COGENT_CRAFT_SKILL = "Ride/Pilot"  # the core skill that names its animal or craft


class CogentSheet(SystemSheet):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, related_name="cogent", primary_key=True
    )
    strength = models.SmallIntegerField(
        default=0,
        validators=range_validators(ranges.COGENT_ATTRIBUTE_MIN, ranges.COGENT_ATTRIBUTE_MAX),
    )
    reflex = models.SmallIntegerField(
        default=0,
        validators=range_validators(ranges.COGENT_ATTRIBUTE_MIN, ranges.COGENT_ATTRIBUTE_MAX),
    )
    intelligence = models.SmallIntegerField(
        default=0,
        validators=range_validators(ranges.COGENT_ATTRIBUTE_MIN, ranges.COGENT_ATTRIBUTE_MAX),
    )
    destiny_points = models.SmallIntegerField(
        default=ranges.COGENT_DESTINY_START,
        validators=range_validators(ranges.COGENT_DESTINY_MIN, ranges.COGENT_DESTINY_MAX),
    )
    penalty_dice = models.SmallIntegerField(
        "situational penalty dice",
        default=0,
        validators=range_validators(0, ranges.COGENT_PENALTY_MAX),
        help_text="Dice removed from every pool by the current situation.",
    )

    class Meta:
        constraints = [
            between_constraint(
                attr,
                ranges.COGENT_ATTRIBUTE_MIN,
                ranges.COGENT_ATTRIBUTE_MAX,
                f"cogent_{attr}_range",
            )
            for attr in ("strength", "reflex", "intelligence")
        ] + [
            between_constraint(
                "destiny_points",
                ranges.COGENT_DESTINY_MIN,
                ranges.COGENT_DESTINY_MAX,
                "cogent_destiny_range",
            ),
            between_constraint(
                "penalty_dice", 0, ranges.COGENT_PENALTY_MAX, "cogent_penalty_range"
            ),
        ]

    def __str__(self) -> str:
        return f"Cogent sheet of {self.character}"

    def spend_destiny(self, refusal: str) -> dict[str, int]:
        """Spend a destiny point on this *locked* sheet; ``refusal`` when none is left."""
        if self.destiny_points < cogent.DESTINY_COST:
            raise Refused(refusal)
        self.destiny_points -= cogent.DESTINY_COST
        self.save(update_fields=["destiny_points"])
        return {"destiny": -cogent.DESTINY_COST}

    def combat_skill_rating(self, name: str) -> int:
        """The character's best rating in the combat skill ``name`` (0 without it): dual
        wielding needs a point in the secondary weapon's skill (Book)."""
        ratings = CogentSubSkill.objects.filter(
            vocation__sheet=self, kind=SubSkillKind.COMBAT, name=name
        ).values_list("rating", flat=True)
        return max(ratings, default=0)

    @classmethod
    def create_for(cls, character: Character) -> CogentSheet:
        sheet = cls.objects.create(character=character)
        CogentSkill.objects.bulk_create(
            CogentSkill(sheet=sheet, name=name, attribute=attribute, position=i)
            for i, (name, attribute) in enumerate(COGENT_CORE_SKILLS)
        )
        return sheet

    def attribute_value(self, attribute: str) -> int:
        return getattr(self, CogentAttribute(attribute).value)

    @cached_property
    def injury_list(self) -> list[CogentInjury]:
        # Read once per loaded sheet (every row's pool needs it); uses a prefetch when there is one.
        return list(self.injuries.all())

    @cached_property
    def disability_list(self) -> list[CogentDisability]:
        return list(self.disabilities.all())

    @property
    def injury_dice(self) -> int:
        """Dice the injuries take off a physical check (they stack, Book)."""
        return self.injury_dice_on(None)

    @cached_property
    def injury_levels(self) -> list[int]:
        return [injury.level for injury in self.injury_list]

    @cached_property
    def disability_dice(self) -> dict[str, int]:
        """Dice the disabling characteristics take off, by the attribute they affect."""
        dice: dict[str, int] = {}
        for disability in self.disability_list:
            if disability.attribute:
                dice[disability.attribute] = dice.get(disability.attribute, 0) + disability.dice
        return dice

    @staticmethod
    def penalty_reads(sheet_pk: Expression) -> dict[str, StateRead]:
        """What sets a roll's penalty dice, as queries of one value over ``sheet_pk`` (this
        sheet's pk): the roll's row read runs them as subqueries of its statement (one query,
        docs/performance.md) instead of the injuries and the disabling characteristics one
        query each. :meth:`take_penalties` reads what they leave on the row."""

        def joined(rows: StateRead, value: Expression) -> StateRead:
            # The figures of all the sheet's rows, joined (none when it has none).
            each = rows.filter(sheet_id=sheet_pk).order_by().values("sheet")
            return each.annotate(joined=StringAgg(value, Value(","))).values("joined")

        text = models.TextField()
        return {
            "cogent_injury_levels": joined(CogentInjury.objects.all(), Cast("level", text)),
            "cogent_disability_dice": joined(
                CogentDisability.objects.all(),
                Concat("attribute", Value(":"), Cast("dice", text), output_field=text),
            ),
        }

    def take_penalties(self, row: models.Model) -> None:
        """Take the penalty figures :meth:`penalty_reads` put on ``row`` (no query)."""
        levels = getattr(row, "cogent_injury_levels", "") or ""
        self.__dict__["injury_levels"] = [int(level) for level in levels.split(",") if level]
        dice: dict[str, int] = {}
        for part in (getattr(row, "cogent_disability_dice", "") or "").split(","):
            attribute, _, count = part.partition(":")
            if attribute:
                dice[attribute] = dice.get(attribute, 0) + int(count)
        self.__dict__["disability_dice"] = dice

    def injury_dice_on(self, attribute: str | None) -> int:
        """Rules at the table: injury dice come off physical checks only (``None``: combat)."""
        return cogent.injury_dice(self.injury_levels, attribute=attribute)

    def disability_dice_on(self, attribute: str | None) -> int:
        """Dice the disabling characteristics take off checks governed by ``attribute`` (the
        engine's Decision: none off a combat pool, ``None``)."""
        return cogent.disability_dice(self.disability_dice, attribute=attribute)

    def penalties(self, attribute: str | None) -> list[tuple[int, str]]:
        """Seed step 4, the negative modifiers of a check governed by ``attribute`` (``None``:
        a combat pool), as (dice, what) pairs for a breakdown."""
        return [
            (self.injury_dice_on(attribute), "injury"),
            (self.disability_dice_on(attribute), "disabling characteristic"),
            (self.penalty_dice, "situational"),
        ]

    def modifier_on(self, attribute: str | None) -> int:
        return -sum(dice for dice, _ in self.penalties(attribute))

    def pool_for_skill(
        self, *, rating: int, attribute: str, extra: int = 0, bonus_dice: int = 0
    ) -> int:
        return cogent.pool_size(
            skill=rating,
            attribute=self.attribute_value(attribute),
            modifier=self.modifier_on(attribute) - extra,
            bonus_dice=bonus_dice,
        )

    def combat_pool(
        self, *, rating: int, weapon_bonus: int = 0, extra: int = 0, bonus_dice: int = 0
    ) -> int:
        return cogent.combat_pool_size(
            combat_skill=rating,
            attributes=[self.strength, self.reflex, self.intelligence],
            weapon_bonus=weapon_bonus,
            modifier=self.modifier_on(None) - extra,
            bonus_dice=bonus_dice,
        )

    def creation_warnings(
        self, skills: list[CogentSkill], vocations: list[CogentVocation]
    ) -> list[str]:
        """The Book's creation rules as soft checks, shown to the owner and the GM (the caller
        passes the rows it has loaded anyway)."""
        return cogent_creation.creation_warnings(
            core_skill_ratings=[skill.rating for skill in skills], vocations=len(vocations)
        )


class CogentInjury(models.Model):
    """One injury: its level removes that many dice from physical checks (Book)."""

    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="injuries")
    level = models.SmallIntegerField(
        choices=[(level, f"{level} — {name}") for level, name in cogent.INJURY_LEVELS.items()],
        validators=range_validators(min(cogent.INJURY_LEVELS), max(cogent.INJURY_LEVELS)),
    )
    description = models.CharField(max_length=ranges.NAME_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["-level", "pk"]
        constraints = [
            between_constraint(
                "level",
                min(cogent.INJURY_LEVELS),
                max(cogent.INJURY_LEVELS),
                "cogent_injury_level_range",
            )
        ]

    def __str__(self) -> str:
        name = f"{cogent.INJURY_LEVELS[self.level]} injury"
        return f"{name}: {self.description}" if self.description else name


class CogentDisability(models.Model):
    """A disabling characteristic (Book): a name, and the dice it removes from checks governed by
    one attribute when it has a mechanical effect (e.g. Feeble: −1 on Strength checks)."""

    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="disabilities")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(
        "affects checks of",
        max_length=16,
        choices=CogentAttribute.choices,
        blank=True,
        help_text="Leave empty when it has no dice effect (a phobia, a compulsion…).",
    )
    dice = models.SmallIntegerField(
        "dice removed",
        default=0,
        validators=range_validators(0, ranges.COGENT_PENALTY_MAX),
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="cogent_disability_name_not_empty"),
            between_constraint(
                "dice", 0, ranges.COGENT_PENALTY_MAX, "cogent_disability_dice_range"
            ),
            models.CheckConstraint(
                condition=Q(attribute="", dice=0)
                | Q(attribute__in=CogentAttribute.values, dice__gt=0),
                name="cogent_disability_shape",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class CogentSkill(RollableRow, models.Model):
    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(max_length=16, choices=CogentAttribute.choices)
    rating = models.SmallIntegerField(
        default=0, validators=range_validators(ranges.COGENT_SKILL_MIN, ranges.COGENT_SKILL_MAX)
    )
    position = models.PositiveSmallIntegerField(default=0)
    # Book (core_skills.tex): "When the ride skill is chosen the player must choose what type of
    # animal or craft it applies to." Only Ride/Pilot uses it.
    craft = models.CharField(max_length=ranges.NAME_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="cogent_skill_unique_name"),
            between_constraint(
                "rating", ranges.COGENT_SKILL_MIN, ranges.COGENT_SKILL_MAX, "cogent_skill_range"
            ),
            in_constraint("attribute", CogentAttribute.values, "cogent_skill_attribute_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def pool(self) -> int:
        return self.sheet.pool_for_skill(rating=self.rating, attribute=self.attribute)

    @property
    def has_craft(self) -> bool:
        return self.name == COGENT_CRAFT_SKILL


class CogentVocation(RollableRow, models.Model):
    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="vocations")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(
        "governing attribute", max_length=16, choices=CogentAttribute.choices
    )
    rating = models.SmallIntegerField(
        default=0,
        validators=range_validators(ranges.COGENT_VOCATION_MIN, ranges.COGENT_VOCATION_MAX),
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="cogent_vocation_unique_name"),
            models.CheckConstraint(condition=~Q(name=""), name="cogent_vocation_name_not_empty"),
            between_constraint(
                "rating",
                ranges.COGENT_VOCATION_MIN,
                ranges.COGENT_VOCATION_MAX,
                "cogent_vocation_range",
            ),
            in_constraint("attribute", CogentAttribute.values, "cogent_vocation_attribute_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def roll_label(self) -> str:
        return f"{self.name} (vocation)"

    @property
    def pool(self) -> int:
        return self.sheet.pool_for_skill(rating=self.rating, attribute=self.attribute)

    def free_slot(self) -> int | None:
        used = {sub.slot for sub in self.subskills.all()}
        for slot in range(1, ranges.COGENT_SUBSKILLS_PER_VOCATION + 1):
            if slot not in used:
                return slot
        return None


CUSTOM_WEAPON = "custom"  # a weapon outside the Book's melee table: its bonus is typed in


class SubSkillKind(models.TextChoices):
    VOCATIONAL = "vocational", "Vocational skill"
    COMBAT = "combat", "Combat skill"


class CogentSubSkill(RollableRow, models.Model):
    vocation = models.ForeignKey(CogentVocation, on_delete=models.CASCADE, related_name="subskills")
    # Slots 1..4, unique per vocation: the database itself caps a vocation at four sub-skills.
    slot = models.PositiveSmallIntegerField(
        validators=range_validators(1, ranges.COGENT_SUBSKILLS_PER_VOCATION)
    )
    kind = models.CharField(max_length=16, choices=SubSkillKind.choices)
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(
        "governing attribute",
        max_length=16,
        choices=CogentAttribute.choices,
        blank=True,
        help_text="Vocational skills only; combat skills use every attribute.",
    )
    rating = models.SmallIntegerField(
        default=0,
        validators=range_validators(ranges.COGENT_SUBSKILL_MIN, ranges.COGENT_SUBSKILL_MAX),
    )
    # Rules at the table: a combat skill names its usual weapon, so the sheet's pool and the roll
    # panel's default pool are the same number. A named weapon's bonus is the Book's; "other"
    # (``CUSTOM_WEAPON``) keeps the bonus typed in (ranged weapons and the like).
    weapon = models.CharField(
        max_length=32,
        blank=True,
        choices=[(name, f"{name} ({bonus:+d})") for name, bonus in cogent.WEAPON_BONUSES.items()]
        + [(CUSTOM_WEAPON, "Other (enter the bonus)")],
    )
    weapon_bonus = models.SmallIntegerField(
        default=0,
        validators=range_validators(ranges.COGENT_WEAPON_BONUS_MIN, ranges.COGENT_WEAPON_BONUS_MAX),
    )

    class Meta:
        ordering = ["slot"]
        constraints = [
            models.UniqueConstraint(
                fields=["vocation", "slot"], name="cogent_subskill_unique_slot"
            ),
            models.UniqueConstraint(
                fields=["vocation", "name"], name="cogent_subskill_unique_name"
            ),
            between_constraint(
                "slot", 1, ranges.COGENT_SUBSKILLS_PER_VOCATION, "cogent_subskill_slot_range"
            ),
            between_constraint(
                "rating",
                ranges.COGENT_SUBSKILL_MIN,
                ranges.COGENT_SUBSKILL_MAX,
                "cogent_subskill_range",
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind=SubSkillKind.VOCATIONAL, attribute__in=CogentAttribute.values)
                    & ~Q(name="")
                )
                | (Q(kind=SubSkillKind.COMBAT, attribute="") & ~Q(name="")),
                name="cogent_subskill_kind_shape",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def owning_sheet(self) -> CogentSheet:
        return self.vocation.sheet

    @property
    def roll_label(self) -> str:
        return f"{self.name} (combat)" if self.is_combat else self.name

    @property
    def is_combat(self) -> bool:
        return self.kind == SubSkillKind.COMBAT

    @property
    def weapon_label(self) -> str:
        """How a breakdown names the stored weapon."""
        return self.weapon if self.weapon in cogent.WEAPON_BONUSES else "weapon"

    @property
    def weapon_now(self) -> str:
        """The weapon the sheet's pool and the panel's default both use: the stored one, else the
        Book's weapon of the skill's own name (a Small combat skill with a Small weapon, Unarmed
        ungloved), else "other" at +0 (a ranged or narrator-defined skill: no table bonus)."""
        if self.weapon:
            return self.weapon
        named = [
            w for w in cogent.WEAPON_BONUSES if w == self.name or w.startswith(f"{self.name} (")
        ]
        return named[0] if named else CUSTOM_WEAPON

    @property
    def weapon_bonus_now(self) -> int:
        """The weapon's bonus dice: the Book's for a named weapon, the typed one for other."""
        weapon = self.weapon_now
        if weapon in cogent.WEAPON_BONUSES:
            return cogent.WEAPON_BONUSES[weapon]
        return self.weapon_bonus if weapon == CUSTOM_WEAPON else 0

    @property
    def pool(self) -> int:
        sheet = self.vocation.sheet
        if self.is_combat:
            return sheet.combat_pool(rating=self.rating, weapon_bonus=self.weapon_bonus_now)
        return sheet.pool_for_skill(rating=self.rating, attribute=self.attribute)


class CogentCombatSkill(models.Model):
    """A combat skill the narrator defines for a Cogent campaign (magic, powers, Book
    custom_rules_and_magic.tex), offered beside the fixed list wherever a combat skill is chosen."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="cogent_combat_skills"
    )
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"], name="cogent_combat_skill_unique_name"
            ),
            models.CheckConstraint(
                condition=~Q(name=""), name="cogent_combat_skill_name_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return self.name


def cogent_combat_skills(campaign: Campaign) -> list[str]:
    """The combat skills a sub-skill of this campaign may be: the Book's list, then the GM's.
    Read once per loaded campaign: a sheet offers the list in every vocation's add form."""
    cached: list[str] | None = getattr(campaign, "_cogent_combat_skills", None)
    if cached is None:
        names = campaign.cogent_combat_skills.values_list("name", flat=True)
        cached = [*COGENT_COMBAT_SKILLS, *names]
        campaign._cogent_combat_skills = cached  # type: ignore[attr-defined]  # a per-instance cache
    return cached
