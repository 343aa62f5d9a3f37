"""What every sheet model shares: the systems and roles, range validators and check constraints, and
what a rollable row tells the roll panel."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

if TYPE_CHECKING:
    from sheets.models import Sheet


def range_validators(low: int, high: int) -> list:
    return [MinValueValidator(low), MaxValueValidator(high)]


def between_constraint(field: str, low: int, high: int, name: str) -> models.BaseConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__gte": low, f"{field}__lte": high}), name=name
    )


def in_constraint(field: str, values: Iterable[str], name: str) -> models.BaseConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__in": list(values)}), name=name)


class Refused(Exception):
    """What a player asked for that the rules or the character's resources do not allow now;
    nothing is written. The message is shown to the player as is (sheets refuse spends, rolls
    refuse actions: one exception for both)."""


class System(models.TextChoices):
    COGENT = "cogent", "Cogent Roleplay"
    DAD6 = "dad6", "DAD6 Skills"
    COLD_STARS = "cold_stars", "Cold Stars"


class Role(models.TextChoices):
    GM = "gm", "GM"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


class RollableRow:
    """What the roll panel asks of a sheet row it rolls (mixed into each rollable row model)."""

    @property
    def is_combat(self) -> bool:
        """A Cogent combat skill says True: it rolls with a weapon."""
        return False

    @property
    def owning_sheet(self) -> Sheet:
        sheet: Sheet = self.sheet  # type: ignore[attr-defined]  # every row but a sub-skill has it
        return sheet

    @property
    def roll_label(self) -> str:
        """The row's name in a roll's label and the panel's heading."""
        name: str = self.name  # type: ignore[attr-defined]
        return name
