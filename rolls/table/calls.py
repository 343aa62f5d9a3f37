"""What a GM's call for a roll reads as and prefills, in its campaign's rule system.

Asked here, above the models, rather than of ``RollCall``: the words and the preset are the
seam's (``system.table``), and the model layer calls nothing above it (docs/architecture.md,
"Layers").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rolls.rolling import punch
from sheets.systems import rule_system_of

if TYPE_CHECKING:
    from rolls.models import RollCall


def difficulty_label(call: RollCall) -> str:
    """The call's difficulty as its system words it ("CL 3", "Risk 2, Perception")."""
    return rule_system_of(call.campaign).table.difficulty_label(call.difficulty, call.ability)


def call_preset(call: RollCall) -> tuple[dict[str, Any], set[str]]:
    """The roll panel's prefilled values and which of them the player cannot change; a call that
    allows a puncher's chance (DAD6) says so to the panel, which then offers it."""
    values, locked = rule_system_of(call.campaign).table.call_preset(call.difficulty, call.ability)
    if call.punchers_chance:
        values = {**values, punch.ALLOWED: True}
    return values, locked
