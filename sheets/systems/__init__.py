"""The seam between the app and its rule systems: one object per system, looked up from the campaign.

Everything that differs per system and is not a rule lives here (the rules are in ``rolls.rules``):
the sheet model and its related name, the sheet and resource forms, the roll form, the rollable
rows, the skill names a GM may ask for, the difficulty a GM call fixes, the contest styles, the
outcomes the log filters by, what follow-ups read again, the sheet's parts for its page, the JSON
import and export, the template folder. Views, forms, models and templates ask
``campaign.rule_system`` (or ``sheets.registry.rule_system``) instead of branching on the
system's name.

Each system is a subclass in its own module (``cogent``, ``dad6``, ``cold_stars``), named in the
setting ``RULE_SYSTEMS`` and registered at start-up in ``sheets.registry`` (which imports no forms,
so models may look systems up). Classes of the ``rolls`` app (the roll form, the
GM's resource form) are named by dotted path and imported on first use: ``sheets`` imports
without ``rolls``' views and forms.

Adding a system: docs/architecture.md, "Adding a rule system".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from sheets.forms import FiguresSection, SectionForm
from sheets.models import SystemSheet
from sheets.systems.facets import (
    CampaignSkills,
    Creation,
    Difficulty,
    GmTable,
    Results,
    Rolling,
    RowKind,
    SheetJson,
    Templates,
)

if TYPE_CHECKING:
    from django import forms

    from sheets.models import Character

# What a system's module imports from the seam: the base, its records and its facets.
__all__ = [
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
    "SheetSection",
    "Templates",
]


class FormMaker(Protocol):
    """Builds one form of the sheet page, or None unless the viewer may edit and ``section`` is
    the one in edit mode. A row of the section gets the form its Save validates (by ``key``, its
    prefix); ``factory`` builds any other form of the section (the add forms)."""

    def __call__(
        self, section: str, key: str, factory: Callable[[], forms.BaseForm] | None = None
    ) -> forms.BaseForm | None: ...


@dataclass(frozen=True)
class SheetSection:
    """A part of the sheet page that reads like a printed sheet and has its own Edit mode.

    ``key`` names it in ``?edit=<key>``, in its Save URL and as the section's id on the page.
    """

    key: str
    title: str
    figures: bool = False  # its form is the sheet's own (sheet_form): attributes, resources
    saves: bool = True  # False: edit mode only adds and removes rows, nothing to Save
    # A roll or its follow-up may change what it shows (resources spent, a bane accepted): the
    # roll's response carries it, and open sheets fetch it alone (docs/live.md). The system's
    # sheet template defines it as a partial named by its key.
    rolled: bool = False


class RuleSystem[S: SystemSheet]:
    """One rule system as the app sees it. Subclasses set the attributes and the methods that
    differ; the base holds what is the same shape for every system."""

    key: ClassVar[str]  # the System value stored on the campaign
    label: ClassVar[str]
    related_name: ClassVar[str]  # Character → its one-to-one sheet
    sheet_model: type[S]  # (a class attribute in each system: ClassVar can't hold S)
    sheet_form: ClassVar[type[forms.ModelForm]]
    sheet_form_takes_gm: ClassVar[bool] = False  # the sheet form has GM-only fields
    # The sheet page's parts in page order, each with an Edit mode (the name and notes are
    # every system's and the page's own).
    sections: ClassVar[tuple[SheetSection, ...]]
    # The facets (sheets.systems.facets) moved out of this class so far, one per concern.
    json: ClassVar[SheetJson]
    creation: ClassVar[Creation]
    campaign_skills: ClassVar[CampaignSkills | None] = None  # the GM's own skills page
    table: ClassVar[GmTable]
    rolling: Rolling[S]  # (set on the class: ClassVar can't hold S)
    results: ClassVar[Results]

    def __str__(self) -> str:
        return self.label

    @cached_property
    def templates(self) -> Templates:
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

    def sheet_form_for(self, sheet: S, *, gm: bool, data: Any = None) -> forms.ModelForm:
        kwargs: dict[str, Any] = {"gm": gm} if self.sheet_form_takes_gm else {}
        return self.sheet_form(data, instance=sheet, prefix="sheet", **kwargs)

    def sheet_context(
        self,
        character: Character,
        sheet: S,
        form: FormMaker,
        *,
        can_edit: bool,
        gm: bool,
        editing: str = "",
    ) -> dict[str, Any]:
        """The rows the sheet's part shows, each with its form when its section is edited, and
        which rows fold away in read mode (untrained, unused) so a long sheet stays short."""
        raise NotImplementedError

    def rolled_context(self, sheet: S) -> dict[str, Any]:
        """What the ``rolled`` sections show besides the sheet itself, in read mode (the parts a
        roll's response carries: no other row of the sheet is read for them)."""
        return {}

    def section(self, key: str) -> SheetSection | None:
        return next((section for section in self.sections if section.key == key), None)

    def section_form(self, key: str, sheet: S, *, gm: bool, data: Any) -> SectionForm:
        """Every form one Save of the section validates and saves together (bound to ``data``).
        Systems add their row sections; the sheet's figures are the same for all."""
        section = self.section(key)
        if section is None or not section.saves:
            raise LookupError(key)
        if section.figures:
            return FiguresSection([self.sheet_form_for(sheet, gm=gm, data=data)])
        raise NotImplementedError
