"""The DAD6 Skills sheet: class and level, skills with competence, banes in play, rolled-forward
boons."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from rules import dad6
from sheets import ranges
from sheets.models.base import (
    Refused,
    RollableRow,
    SystemSheet,
    between_constraint,
    range_validators,
)
from sheets.models.campaigns import Character

# ---------------------------------------------------------------------------------------------
# DAD6
# ---------------------------------------------------------------------------------------------

DAD6_COMPETENCE_CHOICES = [(c, c.capitalize()) for c in dad6.COMPETENCES]


class Dad6Sheet(SystemSheet):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, related_name="dad6", primary_key=True
    )
    class_name = models.CharField("class", max_length=ranges.NAME_MAX_LENGTH, blank=True)
    level = models.SmallIntegerField(
        "class level",
        default=ranges.DAD6_LEVEL_MIN,
        validators=range_validators(ranges.DAD6_LEVEL_MIN, ranges.DAD6_LEVEL_MAX),
    )
    # Extra boons rolled forward: each is one automatic boon of the character's next roll (engine
    # resolve/odds bonus_boons), spent by that roll on the locked sheet.
    forward_boons = models.SmallIntegerField(
        "rolled-forward boons",
        default=0,
        validators=range_validators(0, ranges.DAD6_FORWARD_BOONS_MAX),
    )

    class Meta:
        constraints = [
            between_constraint(
                "level", ranges.DAD6_LEVEL_MIN, ranges.DAD6_LEVEL_MAX, "dad6_level_range"
            ),
            between_constraint(
                "forward_boons", 0, ranges.DAD6_FORWARD_BOONS_MAX, "dad6_forward_boons_range"
            ),
        ]

    def __str__(self) -> str:
        return f"DAD6 sheet of {self.character}"

    @property
    def class_skill_competence(self) -> str:
        return dad6.class_skill_competence(self.level)

    def spend_forward_boons(self, counted: int) -> dict[str, int]:
        """A roll takes the boons rolled forward, as many as its odds ``counted``, on this
        *locked* sheet; refused when another roll spent them in between."""
        if self.forward_boons != counted:
            raise Refused(
                "This character's rolled-forward boons changed a moment ago; check the odds and "
                "roll again."
            )
        if not counted:
            return {}
        self.forward_boons = 0
        self.save(update_fields=["forward_boons"])
        return {"forward_boons": -counted}

    def roll_forward(self) -> dict[str, int]:
        """One extra boon kept for the next roll (the follow-up checks the cap first)."""
        self.forward_boons += 1
        self.save(update_fields=["forward_boons"])
        return {"forward_boons": 1}

    def pay_down_bane(self) -> str:
        """An extra boon pays down the oldest bane in play; its description."""
        bane = self.banes.order_by("pk").first()
        if bane is None:
            raise Refused("There is no bane in play to pay down.")
        bane.delete()
        return bane.description

    @classmethod
    def create_for(cls, character: Character) -> Dad6Sheet:
        return cls.objects.create(character=character)


class Dad6Skill(RollableRow, models.Model):
    sheet = models.ForeignKey(Dad6Sheet, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    is_class_skill = models.BooleanField("class skill", default=False)
    # Class skills derive their competence from the level, so they store none.
    competence = models.CharField(
        max_length=16, choices=DAD6_COMPETENCE_CHOICES, blank=True, default=""
    )

    class Meta:
        ordering = ["-is_class_skill", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="dad6_skill_unique_name"),
            models.CheckConstraint(condition=~Q(name=""), name="dad6_skill_name_not_empty"),
            models.CheckConstraint(
                condition=Q(is_class_skill=True, competence="")
                | Q(is_class_skill=False, competence__in=list(dad6.COMPETENCES)),
                name="dad6_skill_competence_shape",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def effective_competence(self) -> str:
        if self.is_class_skill:
            return self.sheet.class_skill_competence
        return self.competence

    @property
    def pool(self) -> int:
        return dad6.pool_size(level=self.sheet.level, competence=self.effective_competence)

    @property
    def die_bonus(self) -> int:
        """What a mundane task adds to each die at this competence (engine)."""
        return dad6.die_modifier(competence=self.effective_competence)


# A bane bought with a boon whose player gave no wording (the roll's follow-up form asks for one).
DAD6_DEFAULT_BANE = "A bane accepted to buy a boon"


class Dad6Bane(models.Model):
    """A bane in play (Book: a failed Character buys a boon by accepting a bane): added by a bought
    boon, removed by the owner or GM on the sheet. It names no roll, so a hidden roll's bane says
    nothing about that roll beyond the sheet's figures (docs/roll-log.md, traces)."""

    sheet = models.ForeignKey(Dad6Sheet, on_delete=models.CASCADE, related_name="banes")
    description = models.CharField(max_length=ranges.NAME_MAX_LENGTH, default=DAD6_DEFAULT_BANE)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(description=""), name="dad6_bane_description_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return self.description
