"""Sheets long enough to scroll, for the browser tests of the roll panel."""

from sheets.models import System
from tests.factories import CharacterFactory


def halfway_row(system):
    """A character of ``system`` whose sheet scrolls, and the row halfway down it."""
    character = CharacterFactory(campaign__system=system)
    if system == System.DAD6:
        rows = [
            character.dad6.skills.create(name=f"Skill {n:02}", competence="trained")
            for n in range(16)
        ]
    else:
        # Every skill rated, so none folds away in read mode: the sheet is long.
        rows = list(character.sheet.skills.order_by("pk"))
        character.sheet.skills.update(
            rating=1, **({"trained": True} if system == System.COLD_STARS else {})
        )
    return character, rows[len(rows) // 2]
