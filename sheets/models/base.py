"""What every sheet model shares: the systems and roles, range validators and check constraints, and
what a rollable row tells the roll panel."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Self

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from sheets.registry import system_labels

if TYPE_CHECKING:
    from sheets.models.campaigns import Character


def range_validators(low: int, high: int) -> list:
    return [MinValueValidator(low), MaxValueValidator(high)]


def between_constraint(field: str, low: int, high: int, name: str) -> models.BaseConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__gte": low, f"{field}__lte": high}), name=name
    )


def in_constraint(field: str, values: Iterable[str], name: str) -> models.BaseConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__in": list(values)}), name=name)


# One read of a character's roll state (RollForm.roll_state): a ``values()`` query over whichever
# model holds it, which the roll's row read puts in its statement as a subquery.
type StateRead = models.QuerySet[Any, Any]


class Refused(Exception):
    """What a player asked for that the rules or the character's resources do not allow now;
    nothing is written. The message is shown to the player as is (sheets refuse spends, rolls
    refuse actions: one exception for both)."""


class System(models.TextChoices):
    COGENT = "cogent", "Cogent Roleplay"
    DAD6 = "dad6", "DAD6 Skills"
    COLD_STARS = "cold_stars", "Cold Stars"


def system_choices() -> list[tuple[str, str]]:
    """Every registered rule system as a field's choices (``settings.RULE_SYSTEMS``, read when
    asked: a campaign's system is any system the seam knows, not a closed list)."""
    return system_labels()


def registered_check(
    model: str, field: str, name: str, values: list[str], stored: list[str]
) -> list[Any]:
    """The migration operations that make the database's check constraint ``name`` (``field``
    in ``stored``, as an earlier migration made it) hold ``values``, the registered ones: none
    when they are the same (the app's own systems), else the constraint dropped and re-made.
    A migration runs it inside ``SeparateDatabaseAndState``: the models declare no closed list,
    the database still refuses a value no registered system knows."""
    from django.db import migrations

    if values == stored:
        return []
    return [
        migrations.RemoveConstraint(model_name=model, name=name),
        migrations.AddConstraint(model_name=model, constraint=in_constraint(field, values, name)),
    ]


class Role(models.TextChoices):
    GM = "gm", "GM"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


class SystemSheet(models.Model):
    """What every rule system's sheet model is (the seam's sheets are these, whichever system):
    one row per character, made blank by ``create_for`` when the character is. No fields of its
    own: each system's sheet declares its own, its one-to-one link to the character first."""

    class Meta:
        abstract = True

    @classmethod
    def create_for(cls, character: Character) -> Self:
        """The character's blank sheet, with the rows a new character starts with."""
        raise NotImplementedError


# Any system's sheet: what a view holds when the system does not matter to it.
Sheet = SystemSheet


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
