"""The seam between the app and its rule systems: one object per system, looked up from the campaign.

Everything that differs per system and is not a rule lives here (the rules are in ``rules``):
the sheet model and its related name, the sheet and resource forms, the roll form, the rollable
rows, the skill names a GM may ask for, the difficulty a GM call fixes, the contest styles, the
outcomes the log filters by, what follow-ups read again, the sheet's parts for its page, the JSON
import and export, the template folder. Views, forms, models and templates ask
``rule_system_of(campaign)`` (or ``rule_system(key)``, both below) instead of branching on the
system's name. The system object holds its name and its sheet; the rest is grouped into facets,
one attribute per concern (``sheet_page``, ``rolling``, ``results``, ``table``, ``creation``,
``json``, ``campaign_skills``, ``templates``; ``sheets.systems.facets``).

Each system is a subclass in its own module (``cogent``, ``dad6``, ``cold_stars``), named in the
setting ``RULE_SYSTEMS`` and registered at start-up here (``register``); the models see only its
names (``sheets.registry.SystemNames``: keys, labels, the sheet's related name, contest kinds) and
never call a system, because the seam imports forms, which import the models. Classes of the
``rolls`` app (the roll form, the GM's resource form) are named by dotted path and imported on
first use: ``sheets`` imports without ``rolls``' views and forms.

Adding a system: docs/architecture.md, "Adding a rule system".
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar

from sheets import registry
from sheets.models import SystemSheet
from sheets.systems.facets import (
    TABLE_ROWS,
    CampaignSkills,
    Creation,
    Difficulty,
    FormMaker,
    GmTable,
    Results,
    Rolling,
    RowKind,
    SheetJson,
    SheetPage,
    SheetSection,
    TableRow,
    Templates,
)

if TYPE_CHECKING:
    from sheets.models import Campaign, Character

# What a system's module imports from the seam: the base, its records and its facets.
__all__ = [
    "TABLE_ROWS",
    "CampaignSkills",
    "Creation",
    "Difficulty",
    "FormMaker",
    "GmTable",
    "Results",
    "Rolling",
    "RowKind",
    "RuleSystem",
    "SheetJson",
    "SheetPage",
    "SheetSection",
    "TableRow",
    "Templates",
    "all_rule_systems",
    "register",
    "rule_system",
    "rule_system_of",
]


class RuleSystem[S: SystemSheet]:
    """One rule system as the app sees it: its key and its sheet, and a facet per concern.

    A subclass sets the key, the label and the sheet model, and builds each facet: the data-only
    ones (``json``, ``creation``, ``table``, ``results``) with keywords, the others as instances
    of its own subclasses (``rolling``, ``sheet_page``, ``campaign_skills``)."""

    key: ClassVar[str]  # the System value stored on the campaign
    label: ClassVar[str]
    related_name: ClassVar[str]  # Character → its one-to-one sheet
    sheet_model: type[S]  # (a class attribute in each system: ClassVar can't hold S)
    # The facets (sheets.systems.facets), one per concern. Those typed by S are set on the
    # class too (ClassVar can't hold S).
    sheet_page: SheetPage[S]  # the character page's system part: sections, forms, context
    rolling: Rolling[S]  # what can be rolled, the roll panel's form, odds and pools
    results: ClassVar[Results]  # an entry's headline, its follow-ups, the log's outcomes
    table: ClassVar[GmTable]  # the GM's calls and contests, resources form, summaries
    creation: ClassVar[Creation]  # guided character creation
    json: ClassVar[SheetJson]  # the sheet's part of the character JSON
    campaign_skills: ClassVar[CampaignSkills | None] = None  # the GM's own skills page, if any

    def __str__(self) -> str:
        return self.label

    @cached_property
    def templates(self) -> Templates:
        """The system's template folder (the one facet that follows from the key alone)."""
        return Templates(self.key)

    # --- the sheet ---------------------------------------------------------------------------
    def sheet_of(self, character: Character) -> S:
        sheet: S = getattr(character, self.related_name)
        return sheet

    def create_sheet(self, character: Character) -> S:
        return self.sheet_model.create_for(character)

    def lock_sheet(self, character_id: int) -> S:
        """Re-read the character's sheet row under a row lock (PostgreSQL ``FOR UPDATE``), so a
        resource is checked and spent by one request at a time."""
        sheet: S = self.sheet_model._default_manager.select_for_update().get(pk=character_id)
        return sheet

    def read_sheet(self, character_id: int) -> S:
        """The sheet as it is now in the database (after a transaction, committed or not)."""
        sheet: S = self.sheet_model._default_manager.get(pk=character_id)
        return sheet


# --- The systems by key ------------------------------------------------------------------------
# Filled once by SheetsConfig.ready from settings.RULE_SYSTEMS; the models' choices read only the
# names (sheets.registry), so a model never calls up into the seam.
SYSTEMS: dict[str, RuleSystem[Any]] = {}


def register(system: RuleSystem[Any]) -> None:
    """Add a system under its key, and its names where the models' choices read them."""
    SYSTEMS[system.key] = system
    names = registry.SystemNames(
        key=system.key,
        label=system.label,
        related_name=system.related_name,
        sheet_model=system.sheet_model._meta.label,
        contest_kinds=tuple((s.kind, s.label) for s in system.table.contest_styles),
    )
    registry.register(names)


def rule_system(key: str) -> RuleSystem[Any]:
    return SYSTEMS[key]


def rule_system_of(campaign: Campaign) -> RuleSystem[Any]:
    """Everything that differs per system for this campaign, in one object."""
    return SYSTEMS[campaign.system]


def all_rule_systems() -> tuple[RuleSystem[Any], ...]:
    return tuple(SYSTEMS.values())
