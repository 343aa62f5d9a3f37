"""Roll panels: one form per system that validates the options, asks the engine for the pool and
the odds, and turns an engine roll into an :class:`~rolls.rolling.outcomes.Outcome`.

No rule lives here. Every pool, reading and chance comes from ``rolls.rules``; the forms only word
it (the breakdown "3 base + 2 Athletics + 1 Strength = 6d6 vs CL 3").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rolls.rolling.display import bands
from rolls.rolling.forms.cogent import CogentRollForm
from rolls.rolling.forms.cold_stars import ColdStarsRollForm
from rolls.rolling.forms.dad6 import Dad6RollForm
from rolls.rules import cogent, cold_stars, dad6
from sheets.models import System

if TYPE_CHECKING:
    from rolls.rolling.display import Band
    from rolls.rolling.forms.base import RollForm


FORMS: dict[str, type[RollForm]] = {
    System.COGENT: CogentRollForm,
    System.DAD6: Dad6RollForm,
    System.COLD_STARS: ColdStarsRollForm,
}


def default_bands(kind: str, obj: Any) -> list[Band]:
    """Odds beside a sheet row's Roll button, at the panel's default options."""
    if kind.startswith("cogent"):
        return bands(cogent.odds(obj.pool))
    if kind == "dad6-skill":
        # The rolled-forward boons count, as they will in the panel.
        forward = obj.sheet.forward_boons
        return bands(dad6.odds(obj.pool, competence=obj.effective_competence, bonus_boons=forward))
    return bands(cold_stars.odds(obj.pool))
