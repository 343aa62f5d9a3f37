"""The Poolside rules engine: pure Python, no Django, one module per system.

Every function is deterministic except ``roll``, which takes its randomness as an argument; the
product passes :func:`system_rng` so rolls come from the operating system's CSPRNG.
"""

from __future__ import annotations

import secrets

from . import cogent, cold_stars, dad6
from ._common import Groups, PoolSource, RandomSource, draw

__all__ = [
    "OUTCOMES_BEST_FIRST",
    "Groups",
    "PoolSource",
    "RandomSource",
    "cogent",
    "cold_stars",
    "dad6",
    "draw",
    "system_rng",
]

# Every outcome code the three engines produce, best first: how pages order the odds bands and
# the log its outcome filter.
OUTCOMES_BEST_FIRST = (
    "critical_success",
    "success",
    "costly_success",
    "choice",
    "failure",
    "critical_failure",
)


def system_rng() -> secrets.SystemRandom:
    """The production source of randomness."""
    return secrets.SystemRandom()
