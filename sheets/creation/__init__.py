"""Guided character creation: one form per system, validated here, checked by the engine.

Each form holds the whole first sheet (attributes, skills, vocations or class, domains) and asks
its system's ``creation_check`` (``rules``) for the budgets, the problems and the warnings.
A player's build must keep within the budgets (each problem stands beside the field or section it
is about); the GM's NPCs may break them, and then see the problems as warnings. Missing fields take
a blank sheet's values, so a name alone still makes a character. The seam (``sheets.systems``)
picks the form and writes the sheet from ``form.build``.
"""

from sheets.creation.base import CreationForm, RatingField
from sheets.creation.cogent import CogentCreationForm
from sheets.creation.cold_stars import ColdStarsCreationForm
from sheets.creation.dad6 import Dad6CreationForm

__all__ = [
    "CogentCreationForm",
    "ColdStarsCreationForm",
    "CreationForm",
    "Dad6CreationForm",
    "RatingField",
]
