"""What every contest style answers, with the answers of a style that lacks a step.

The shared flow (``rolls.table.contests``) checks what is the same for every contest — its state,
whose turn it is, who may see what — and asks the contest's style for the rest. A style never
reads another system's sheet: the sheet it is handed is its own system's (the contest's campaign
plays one system).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from log.models import OUTCOME_LABELS
from rolls.table.verdicts import append_verdict, side_json, verdict_audience
from sheets.models import Refused
from sheets.systems import all_rule_systems

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import QueryDict

    from log.models import RollEntry
    from rolls.models import Contest
    from rolls.rolling.targets import Target
    from rolls.table.contests import SideStatus
    from rules import RandomSource
    from sheets.models import Character, Membership

WAITING = "waiting for the roll"


def contest_style(kind: str) -> ContestStyle:
    """The style of a contest kind (kinds are unique across systems, so no campaign is read)."""
    return next(
        s for system in all_rule_systems() for s in system.table.contest_styles if s.kind == kind
    )


def style_of(contest: Contest) -> ContestStyle:
    """How this contest runs (who rolls, what side B does): its kind's style, from the seam.
    Asked here rather than of the model: the models call nothing above them."""
    return contest_style(contest.kind)


class ContestStyle:
    """One kind of contest. Subclasses set ``kind`` and ``label`` and fill the steps they have."""

    kind: ClassVar[str]  # stored on the contest (Contest.kind)
    label: ClassVar[str]  # how the GM's form and the card name it
    side_b_words: ClassVar[str] = ""  # what side B does when it doesn't roll
    even_words: ClassVar[str] = "Exactly even"  # the result that lets side A choose
    # What side A may take when the result lets it choose: (value, the button's words).
    choices: ClassVar[tuple[tuple[str, str], ...]] = ()
    choice_refusal: ClassVar[str] = ""
    correct_words: ClassVar[str] = ""  # the Correct button, where a side may Correct
    # The partial of a side's options in the prompt's roll form (given ``options``).
    options_template: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.label

    # --- side A's roll panel (a contest where only side A rolls) -----------------------------
    def panel_preset(self, contest: Contest) -> tuple[dict[str, Any], set[str]]:
        """What side A's roll panel is prefilled with, and which values are locked."""
        raise Refused("In this contest both sides roll from the contest prompt.")

    def check_panel_roll(self, contest: Contest, character: Character) -> None:
        """Refuse a panel roll for this contest unless the style takes one."""
        raise Refused("Both sides of this contest roll from the contest prompt, not the panel.")

    def rolled_from_panel(self, contest: Contest, entry: RollEntry, user: User) -> RollEntry | None:
        """Side A's panel roll is in (inside its transaction): the verdict, if it decides now."""
        return None

    # --- the contest's prompt ----------------------------------------------------------------
    def side_options(self, data: QueryDict) -> object:
        """A side's options for its roll, read from a request's ``data``; :class:`Refused` in
        words when they are out of range."""
        return None

    def roll_side(
        self,
        contest: Contest,
        target: Target,
        sheet: Any,
        rng: RandomSource,
        user: User,
        *,
        options: Any,
        visibility: str,
        base: dict[str, Any],
        opponent: str,
    ) -> RollEntry:
        """One side's roll (``target``) on its *locked* sheet with its ``side_options``;
        ``base``: what every side's entry records (contest, side, round, target)."""
        raise Refused("Only the acting side rolls in this contest, from its roll panel.")

    def correct_side(
        self, contest: Contest, side: str, sheet: Any, rng: RandomSource, user: User
    ) -> RollEntry:
        raise Refused("This contest has no Correct step.")

    def settle_side(self, contest: Contest, side: str, user: User) -> RollEntry | None:
        raise Refused("This contest has no keeping step: its rolls stand as rolled.")

    def decide_if_ready(self, contest: Contest, user: User) -> RollEntry | None:
        """Once every side is in: the verdict entry, or a new round, or side A's choice."""
        return None

    def choose(self, contest: Contest, choice: str, user: User) -> RollEntry:
        """Side A's pick (one of ``choices``) when the result lets it choose."""
        raise Refused("This contest isn't waiting for the initiator's choice.")

    # --- the card ----------------------------------------------------------------------------
    def notes(self, contest: Contest) -> list[str]:
        """What the card's meta line says of this contest besides its kind, state and round."""
        return []

    def idle_words(self, side: str) -> str:
        """A side that has not rolled (and may not yet, or never does)."""
        return WAITING

    def panel_side(self, contest: Contest, status: SideStatus) -> bool:
        """This side rolls from its roll panel now (the card links to it)."""
        return False

    def rolls_here(self, contest: Contest, status: SideStatus) -> bool:
        """This side rolls from the contest's prompt (the card shows its roll form until it
        has rolled)."""
        return False

    def keeps(self, contest: Contest, status: SideStatus) -> bool:
        """This side may keep its roll or Correct it now."""
        return False

    def side_choices(
        self,
        contest: Contest,
        status: SideStatus,
        membership: Membership,
        *,
        figures: bool,
    ) -> dict[str, Any]:
        """What a side that may act and has not rolled chooses from on the card (``options``
        for ``options_template``; ``problem`` when it can't roll at all)."""
        return {}


class SingleRoll(ContestStyle):
    """Only side A rolls, through the ordinary roll panel with a value locked; the roll's own
    outcome decides (``verdict_words`` say how it was set)."""

    def check_panel_roll(self, contest: Contest, character: Character) -> None:
        if not contest.is_active:
            raise Refused("This contest is over.")
        if contest.side_of(character) != "a":
            raise Refused(f"Only {contest.name_a} rolls in this contest.")
        if contest.entries.exists():
            raise Refused(f"{contest.name_a} has already rolled for this contest.")

    def idle_words(self, side: str) -> str:
        return self.side_b_words if side == "b" else WAITING

    def panel_side(self, contest: Contest, status: SideStatus) -> bool:
        return status.side == "a" and not status.rolled

    def verdict_words(self, contest: Contest, entry: RollEntry) -> str:
        """How side A's roll was set against side B (the verdict's detail begins with it)."""
        raise NotImplementedError

    def deciding(self, contest: Contest, entry: RollEntry) -> list[RollEntry]:
        """The rolls whose figures the verdict holds (and whose audience it takes)."""
        return [entry]

    def decide_single(
        self, contest: Contest, entry: RollEntry, user: User, *, choice: str = ""
    ) -> RollEntry:
        """The acting roll resolved normally is the verdict; ``choice``: side A's pick for a
        result that lets it choose."""
        how = self.verdict_words(contest, entry)
        outcome = choice or entry.outcome
        verdict = f"{contest.name_a}: {OUTCOME_LABELS[outcome] if choice else entry.outcome_label}"
        if choice:
            how += f"; all blank, {contest.name_a} took a {OUTCOME_LABELS[choice]}"
        deciding = self.deciding(contest, entry)
        return append_verdict(
            contest,
            user,
            winner="a" if outcome.endswith("success") else "b",
            outcome=outcome,
            label=verdict,
            detail=f"{how}. {entry.detail}".strip(),
            odds=Fraction(entry.odds),
            table={band: Fraction(p) for band, p in entry.odds_table.items()},
            sides=[side_json(e, "a", contest.name_a) for e in deciding],
            extra={"choice": choice} if choice else {},
            # The verdict shows the roll's dice: it is seen by exactly who may see the rolls.
            **verdict_audience(deciding),
        )
