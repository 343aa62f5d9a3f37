"""A rule system's members grouped by concern: each facet is one attribute of the system object.

``RuleSystem`` (``sheets.systems``) keeps what names the system and its sheet; everything else is
asked of a facet, so a caller reads which concern it touches (``system.rolling.form_class``,
``system.table.difficulty``, ``system.json.dump(sheet)``). Facets that are data and small
functions (``Results``, ``GmTable``, ``Creation``, ``SheetJson``) are frozen dataclasses a system
builds with keywords; those whose behaviour is the system's own code (``SheetPage``, ``Rolling``,
``CampaignSkills``) are subclassed in the system's module.

docs/architecture.md, "The seam", has the table of facets and members.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from django.db import models
from django.utils.module_loading import import_string

from sheets.forms import FiguresSection, SectionForm
from sheets.models import SystemSheet

if TYPE_CHECKING:
    from django import forms

    from log.models import RollEntry
    from rolls.rolling.forms.base import RollForm
    from rolls.rolling.outcomes import Headline
    from rolls.table.styles.base import ContestStyle
    from sheets.creation import CreationForm
    from sheets.models import Campaign, Character


@dataclass(frozen=True)
class Difficulty:
    """What a GM call or an opposed contest fixes, and how it reads ("CL 3", "Risk 2")."""

    label: str  # the GM's form field label
    short: str  # before the number in a call's name
    minimum: int
    maximum: int
    default: int
    field: str  # the roll panel's field the call fixes


@dataclass(frozen=True)
class Templates:
    """The system's template folder, ``sheets/<key>/`` (D10 Pool's is in its own app)."""

    key: str

    @property
    def sheet(self) -> str:
        """The sheet's system part, included by the character page; its ``rolled`` sections
        are partials of it named by their keys."""
        return f"sheets/{self.key}/sheet.html"

    @property
    def summary(self) -> str:
        """A character's figures on the GM dashboard."""
        return f"sheets/{self.key}/summary.html"

    @property
    def creation(self) -> str:
        """The system's steps of the new-character page."""
        return f"sheets/{self.key}/create.html"


@dataclass(frozen=True)
class SheetJson:
    """A sheet's part of the character JSON (sheets.character_json): the system's two functions.

    ``load(sheet, data, c, *, gm, result, ignored)`` fills ``sheet`` from ``data`` (the
    ``"sheet"`` object), collecting problems in ``c`` and what was left out in ``ignored``."""

    dump: Callable[[Any], dict[str, object]]
    load: Callable[..., None]


@dataclass(frozen=True)
class Creation:
    """Guided character creation (sheets.creation; the budgets are the engine's creation_check).

    ``fill(sheet, build)`` writes a valid form's ``build`` onto the new character's blank sheet,
    inside the view's transaction, so a failure leaves no half-made character."""

    form: type[CreationForm]
    fill: Callable[[Any, dict[str, object]], None]

    def form_for(self, campaign: Campaign, data: object, *, gm: bool) -> CreationForm:
        return self.form(data, campaign=campaign, gm=gm)


class CampaignSkills:
    """The GM's own skills page of a campaign (Cogent's combat skills, Cold Stars' skills).

    A system without one has ``campaign_skills = None``."""

    label: ClassVar[str]  # the page's title and the campaign page's button

    def form(self, campaign: Campaign, data: object) -> forms.ModelForm:
        raise NotImplementedError

    def add(self, form: forms.ModelForm) -> str:
        """Save the GM's new skill (inside the view's transaction); the message saying so."""
        raise NotImplementedError

    def context(self, campaign: Campaign) -> dict[str, Any]:
        """What the page lists: the book's skills and the GM's."""
        raise NotImplementedError


@dataclass(frozen=True)
class TableRow:
    """A row the GM table's card shows (and, for an NPC, rolls from): one of the character's
    key skills or pools, with its dice in the sheet's words ("5d6", "Ability 3 + Skill 2")."""

    kind: str  # a RowKind's kind: the row is rolled as on the sheet
    row: Any
    dice: str


# How many of a character's rows its GM table card shows: its best few, so five cards fit a
# laptop screen (the sheet has the rest).
TABLE_ROWS = 4


def no_key_rows(sheet: object) -> list[TableRow]:
    """A system that names no key rows: its cards show its figures alone."""
    return []


@dataclass(frozen=True)
class GmTable:
    """The GM's table: what a call or contest fixes, the kinds of contest, the dashboard's
    per-character resource form and summary (rolls.table)."""

    difficulty: Difficulty
    # Its kinds of contest: the style objects' classes by dotted path (in rolls.table.styles),
    # imported on first use so that ``sheets`` imports without ``rolls``' forms.
    contest_style_paths: tuple[str, ...]
    resources_form_path: str  # the GM's form of one character's resources (rolls.table.forms)
    gm_picks_ability: bool = False  # calls and contests name the Ability (Cold Stars)
    # An opposed contest: only side A rolls, against a difficulty the opposition raises (DAD6).
    opposition_adds_difficulty: bool = False
    # What the dashboard's character summaries and key rows read, prefetched for every sheet
    # at once (the table's query count doesn't grow with its characters).
    summary_related: tuple[str | models.Prefetch, ...] = ()
    # The character's key rows on its card, best first, at most TABLE_ROWS: what the GM reads
    # (and rolls, for an NPC) at a glance. Read from summary_related's prefetches, never a
    # query per sheet.
    key_rows: Callable[[Any], list[TableRow]] = no_key_rows

    @cached_property
    def contest_styles(self) -> tuple[ContestStyle, ...]:
        return tuple(import_string(path)() for path in self.contest_style_paths)

    @property
    def contest_kinds(self) -> tuple[str, ...]:
        return tuple(style.kind for style in self.contest_styles)

    @cached_property
    def resources_form(self) -> type[forms.ModelForm]:
        form: type[forms.ModelForm] = import_string(self.resources_form_path)
        return form

    def difficulty_label(self, difficulty: int, ability: str = "") -> str:
        label = f"{self.difficulty.short} {difficulty}"
        return f"{label}, {ability.capitalize()}" if ability else label

    def call_preset(self, difficulty: int, ability: str = "") -> tuple[dict[str, object], set[str]]:
        """A GM call's prefilled panel values, all fixed (the GM's Ability too, when named)."""
        values: dict[str, object] = {self.difficulty.field: difficulty}
        if ability:
            values["ability"] = ability
        return values, set(values)


@dataclass(frozen=True)
class RowKind:
    """A rollable row kind: its URL kind, model, and how it is found within one character."""

    kind: str  # in URLs: /characters/<pk>/roll/<kind>/<row pk>/
    model: type[models.Model]
    lookup: str  # the row's path to the sheet's pk (= the character's pk)
    related: tuple[str, ...]  # loaded with the row
    prefetch: tuple[str, ...] = ()
    order_by: tuple[str, ...] = ()  # which row a name finds first, when names repeat
    assist_only: bool = False  # found by name only for an assist (Cogent vocations)


class Rolling[S: SystemSheet]:
    """What a character of the system can roll, and the panel that rolls it (rolls.rolling).

    Each system subclasses it: the odds, the pool and the skill names are read off its own rows.
    """

    # The roll panel's form, a rolls.rolling.forms.base.RollForm, by dotted path: imported on
    # first use so that ``sheets`` imports without ``rolls``' forms.
    form_path: ClassVar[str]
    rows: ClassVar[tuple[RowKind, ...]]
    has_assists: ClassVar[bool] = False  # one character's roll helps another's (Cogent)

    @cached_property
    def form_class(self) -> type[RollForm]:
        form: type[RollForm] = import_string(self.form_path)
        return form

    def row_kind(self, kind: str) -> RowKind | None:
        return next((row for row in self.rows if row.kind == kind), None)

    def odds(self, kind: str, row: object) -> dict[str, Fraction]:
        """The engine's odds for a sheet row at the panel's default options."""
        raise NotImplementedError

    def pool(self, kind: str, row: Any) -> dict[str, object]:
        """The dice a sheet row rolls at the panel's default options (the API's targets)."""
        return {"dice": row.pool}

    def skill_names(self, campaign: Campaign, *, vocations: bool = True) -> list[str]:
        """The skill names a GM may ask for in this campaign, in sheet order."""
        raise NotImplementedError

    def assist_names(self, sheet: S) -> list[str]:
        """The rows an assist may be rolled with, in sheet order (``has_assists`` systems)."""
        return []


@dataclass(frozen=True)
class Results:
    """What a rolled entry means afterwards: its headline, its follow-ups, the log's filter."""

    # The function that words an entry's outcome for the result card: its headline, figure and
    # what it means in play (in rolls.rolling.outcomes; computed when shown, never stored).
    headline_path: str
    # What offers and carries out its follow-ups: a rolls.rolling.followups.SystemFollowUps
    # by dotted path (each system's module's FOLLOW_UPS).
    follow_ups_path: str
    # What follow-ups read again from an entry (where, keys): without them nothing is offered.
    follow_up_reads: tuple[str, tuple[str, ...]]
    log_outcomes: tuple[str, ...]  # the outcomes the log filter offers, best first

    def headline(self, entry: RollEntry) -> Headline:
        """The result card's headline for one of this system's entries."""
        words: Callable[[RollEntry], Headline] = import_string(self.headline_path)
        return words(entry)


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
    figures: bool = False  # its form is the page's own (SheetPage.form): attributes, resources
    saves: bool = True  # False: edit mode only adds and removes rows, nothing to Save
    # A roll or its follow-up may change what it shows (resources spent, a bane accepted): the
    # roll's response carries it, and open sheets fetch it alone (docs/live.md). The system's
    # sheet template defines it as a partial named by its key.
    rolled: bool = False


class SheetPage[S: SystemSheet]:
    """The character page's system part: its sections, their forms and what they show
    (sheets.views.characters, sheets.rolled). Each system subclasses it."""

    form: ClassVar[type[forms.ModelForm]]  # the sheet's own fields: attributes, resources
    form_takes_gm: ClassVar[bool] = False  # the sheet form has GM-only fields
    # The page's parts in page order, each with an Edit mode (the name and notes are every
    # system's and the page's own).
    sections: ClassVar[tuple[SheetSection, ...]]

    def form_for(self, sheet: S, *, gm: bool, data: Any = None) -> forms.ModelForm:
        kwargs: dict[str, Any] = {"gm": gm} if self.form_takes_gm else {}
        return self.form(data, instance=sheet, prefix="sheet", **kwargs)

    def context(
        self,
        character: Character,
        sheet: S,
        form: FormMaker,
        *,
        can_edit: bool,
        gm: bool,
        editing: str = "",
    ) -> dict[str, object]:
        """The rows the sheet's part shows, each with its form when its section is edited, and
        which rows fold away in read mode (untrained, unused) so a long sheet stays short."""
        raise NotImplementedError

    def rolled_context(self, sheet: S) -> dict[str, object]:
        """What the ``rolled`` sections show besides the sheet itself, in read mode (the parts a
        roll's response carries: no other row of the sheet is read for them)."""
        return {}

    def section(self, key: str) -> SheetSection | None:
        return next((section for section in self.sections if section.key == key), None)

    def section_form(self, key: str, sheet: S, *, gm: bool, data: object) -> SectionForm:
        """Every form one Save of the section validates and saves together (bound to ``data``).
        Systems add their row sections; the sheet's figures are the same for all."""
        section = self.section(key)
        if section is None or not section.saves:
            raise LookupError(key)
        if section.figures:
            return FiguresSection([self.form_for(sheet, gm=gm, data=data)])
        raise NotImplementedError
