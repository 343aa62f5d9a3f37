"""The rule systems by the key stored on a campaign: the only mapping keyed by system in the app."""

from __future__ import annotations

from typing import Any

from sheets.systems import RuleSystem
from sheets.systems.cogent import CogentSystem
from sheets.systems.cold_stars import ColdStarsSystem
from sheets.systems.dad6 import Dad6System

SYSTEMS: dict[str, RuleSystem[Any]] = {
    system.key: system for system in (CogentSystem(), Dad6System(), ColdStarsSystem())
}
