"""What the models may know of the rule systems: names only, each system's ``SystemNames``.

The models' choices (``Campaign.system``, ``RollEntry.system``, ``Contest.kind``), a character's
sheet (its related name and model) and two migrations read these; nothing here imports any of
ours, so the model layer stays below the seam. The systems themselves (``RuleSystem`` objects:
forms, styles, headlines) are looked up above the models, in ``sheets.systems``
(``rule_system_of(campaign)``, ``rule_system(key)``), which ``SheetsConfig.ready`` fills from the
setting ``RULE_SYSTEMS`` and which records each system's names here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SystemNames:
    """One system as the models see it: plain names, no behaviour."""

    key: str  # the System value a campaign stores
    label: str
    related_name: str  # Character → its one-to-one sheet
    sheet_model: str  # the sheet model's "app_label.ModelName"
    contest_kinds: tuple[tuple[str, str], ...]  # (kind, label) of each contest style


# By key, in registration order (settings.RULE_SYSTEMS).
SYSTEMS: dict[str, SystemNames] = {}


def register(names: SystemNames) -> None:
    """Record one system's names (``sheets.systems.register``, once per system)."""
    SYSTEMS[names.key] = names


def names_of(key: str) -> SystemNames:
    return SYSTEMS[key]


def rule_system_keys() -> tuple[str, ...]:
    """The keys a campaign may store: every registered system's (settings.RULE_SYSTEMS)."""
    return tuple(SYSTEMS)


def system_labels() -> list[tuple[str, str]]:
    """Every registered system's key and label (``sheets.models.base.system_choices``)."""
    return [(names.key, names.label) for names in SYSTEMS.values()]


def contest_kind_choices() -> list[tuple[str, str]]:
    """Every system's contest kinds with their labels (the contest's ``kind`` choices)."""
    return [kind for names in SYSTEMS.values() for kind in names.contest_kinds]
