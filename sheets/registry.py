"""The rule systems by the key a campaign stores: the one mapping keyed by system in the app.

The seam's lookups (``rule_system``, ``contest_style``) live here rather than in
``sheets.systems``, because models need them (``Campaign.rule_system``, ``Contest.style``,
``RollEntry.headline``) and this module imports nothing at run time: a system's module pulls in
its forms, its creation form and its JSON, which import the models. Which systems there are is
the setting ``RULE_SYSTEMS`` (each a ``RuleSystem`` subclass by dotted path); ``SheetsConfig.ready``
registers them once every model is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rolls.table.styles.base import ContestStyle
    from sheets.systems import RuleSystem

SYSTEMS: dict[str, RuleSystem[Any]] = {}


def register(system: RuleSystem[Any]) -> None:
    """Add a system under its key (``SheetsConfig.ready``, once per system)."""
    SYSTEMS[system.key] = system


def rule_system(key: str) -> RuleSystem[Any]:
    return SYSTEMS[key]


def rule_system_keys() -> tuple[str, ...]:
    """The keys a campaign may store: every registered system's (settings.RULE_SYSTEMS)."""
    return tuple(SYSTEMS)


def all_rule_systems() -> tuple[RuleSystem[Any], ...]:
    return tuple(SYSTEMS.values())


def contest_style(kind: str) -> ContestStyle:
    """The style of a contest kind (kinds are unique across systems, so no campaign is read)."""
    return next(
        s for system in all_rule_systems() for s in system.table.contest_styles if s.kind == kind
    )


def contest_kind_choices() -> list[tuple[str, str]]:
    """Every system's contest kinds with their labels (the contest's ``kind`` choices)."""
    return [(s.kind, s.label) for system in all_rule_systems() for s in system.table.contest_styles]
