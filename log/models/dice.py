"""An entry's dice as shown: each face with its reading and a sentence for screen readers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Die:
    """One die of an entry, ready for display: its face and a sentence for screen readers."""

    face: int
    kind: str  # "d6", "ability", "skill", "risk"
    reading: str  # e.g. "win", "boon", "success", "blank", "critical_failure"
    label: str
    value: int | None = None  # a DAD6 die's modified result, when it differs from the face

    @property
    def scores(self) -> bool:
        """Does this die count towards the result (a win, a boon, a success)? Drawn filled, so
        it reads without colour."""
        return self.reading in SCORING_READINGS

    @property
    def pips(self) -> tuple[tuple[int, int], ...]:
        """A d6's pips as (x, y) centres on the 32×32 face ``templates/rolls/_dice.html`` draws;
        empty for a symbol die (Cold Stars' d10s show their symbol instead)."""
        if self.kind != "d6":
            return ()
        return D6_PIPS.get(self.face, ())


# Where a d6 face's pips sit (left/centre/right × top/middle/bottom), as on a real die.
_L, _C, _R = 9, 16, 23
D6_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_C, _C),),
    2: ((_R, _L), (_L, _R)),
    3: ((_R, _L), (_C, _C), (_L, _R)),
    4: ((_L, _L), (_R, _L), (_L, _R), (_R, _R)),
    5: ((_L, _L), (_R, _L), (_C, _C), (_L, _R), (_R, _R)),
    6: ((_L, _L), (_R, _L), (_L, _C), (_R, _C), (_L, _R), (_R, _R)),
}

SCORING_READINGS = frozenset({"win", "boon", "success", "critical_success"})


DIE_NAMES = {
    "d6": "d6",
    "ability": "d10 Ability die",
    "skill": "d10 Skill die",
    "risk": "d10 Risk die",
}


READING_WORDS = {
    "win": "win",
    "loss": "no win",
    "boon": "boon",
    "no_boon": "no boon",
    "blank": "blank",
    "success": "success",
    "critical_success": "critical success",
    "failure": "failure",
    "critical_failure": "critical failure",
}


def dice_of(faces: list[dict[str, Any]]) -> list[Die]:
    """Stored faces, ready for display: each die with a sentence for screen readers."""
    dice = []
    for die in faces:
        name = DIE_NAMES.get(die["kind"], die["kind"])
        words = READING_WORDS.get(die["reading"], die["reading"].replace("_", " "))
        shown = f"{die['face']}"
        if "value" in die and die["value"] != die["face"]:
            shown += f" (modified {die['value']})"
        value = die.get("value")
        dice.append(
            Die(
                die["face"],
                die["kind"],
                die["reading"],
                f"{name}: {shown}, {words}",
                value if value is not None and value != die["face"] else None,
            )
        )
    return dice
