"""A rule system's members grouped by concern: each facet is one attribute of the system object.

``RuleSystem`` (``sheets.systems``) keeps what names the system and its sheet; everything else is
asked of a facet, so a caller reads which concern it touches (``system.rolling.roll_form``,
``system.table.difficulty``, ``system.json.dump(sheet)``). Facets that are only data and small
functions are frozen dataclasses a system builds with keywords; the one whose behaviour differs
per system beyond that (``CampaignSkills``) is subclassed.

docs/architecture.md, "The rule system seam", has the table of facets and members.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from django import forms

    from sheets.creation import CreationForm
    from sheets.models import Campaign


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

    dump: Callable[[Any], dict[str, Any]]
    load: Callable[..., None]


@dataclass(frozen=True)
class Creation:
    """Guided character creation (sheets.creation; the budgets are the engine's creation_check).

    ``fill(sheet, build)`` writes a valid form's ``build`` onto the new character's blank sheet,
    inside the view's transaction, so a failure leaves no half-made character."""

    form: type[CreationForm]
    fill: Callable[[Any, dict[str, Any]], None]

    def form_for(self, campaign: Campaign, data: Any, *, gm: bool) -> CreationForm:
        return self.form(data, campaign=campaign, gm=gm)


class CampaignSkills:
    """The GM's own skills page of a campaign (Cogent's combat skills, Cold Stars' skills).

    A system without one has ``campaign_skills = None``."""

    label: ClassVar[str]  # the page's title and the campaign page's button

    def form(self, campaign: Campaign, data: Any) -> forms.ModelForm:
        raise NotImplementedError

    def add(self, form: forms.ModelForm) -> str:
        """Save the GM's new skill (inside the view's transaction); the message saying so."""
        raise NotImplementedError

    def context(self, campaign: Campaign) -> dict[str, Any]:
        """What the page lists: the book's skills and the GM's."""
        raise NotImplementedError
