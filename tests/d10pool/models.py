from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import models

from sheets.models import RollableRow, SystemSheet
from sheets.models.base import between_constraint, range_validators
from tests.d10pool import rules

if TYPE_CHECKING:
    from sheets.models import Character

STARTING_SKILLS = (("Athletics", 3), ("Lore", 2))


class D10Sheet(SystemSheet):
    character = models.OneToOneField(
        "sheets.Character", on_delete=models.CASCADE, primary_key=True, related_name="d10pool"
    )
    grit = models.PositiveSmallIntegerField(
        default=2, validators=range_validators(0, rules.GRIT_MAX)
    )

    class Meta:
        constraints = [between_constraint("grit", 0, rules.GRIT_MAX, "d10_grit_range")]

    def __str__(self) -> str:
        return f"D10 sheet of {self.character}"

    @classmethod
    def create_for(cls, character: Character) -> D10Sheet:
        sheet = cls.objects.create(character=character)
        D10Skill.objects.bulk_create(
            D10Skill(sheet=sheet, name=name, dice=dice) for name, dice in STARTING_SKILLS
        )
        return sheet


class D10Skill(RollableRow, models.Model):
    sheet = models.ForeignKey(D10Sheet, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=60)
    dice = models.PositiveSmallIntegerField(
        default=1, validators=range_validators(rules.DICE_MIN, rules.DICE_MAX)
    )

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name
