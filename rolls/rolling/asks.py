"""What the roll panel needs from the GM table: the call or contest a roll answers.

The panel takes ``?call=<pk>`` or ``?contest=<pk>`` (and the form posts it back): the GM's values
are prefilled and locked (the Challenge Level, difficulty or Risk, a call's Ability; a request
sending another value is refused by the form), and the roll links back to the call or contest.
Every check runs again inside the roll's transaction, under a row lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from log.models import RollEntry
from rolls.models import Contest, RollCall
from rolls.rolling.targets import Target
from rolls.table import contests
from rolls.table.calls import call_preset, difficulty_label
from sheets.converters import parse_id
from sheets.models import Character, Refused

ASK_PARAMS = ("call", "contest")  # not options: which GM request the panel answers


class Links(TypedDict, total=False):
    """What the roll's entry links to (the roll action's own keyword arguments)."""

    call: RollCall | None
    contest: Contest | None


@dataclass
class Ask:
    """A call for a roll, or side A's roll in a single-roll contest."""

    call: RollCall | None = None
    contest: Contest | None = None
    values: dict[str, object] = field(default_factory=dict)
    locked: set[str] = field(default_factory=set)

    @property
    def param(self) -> str:
        return "call" if self.call else "contest"

    @property
    def pk(self) -> int:
        return (self.call or self.contest).pk  # type: ignore[union-attr]

    @property
    def skill(self) -> str:
        return self.call.skill if self.call else self.contest.skill_a  # type: ignore[union-attr]

    @property
    def description(self) -> str:
        if self.call:
            words = f"Answering the GM's call: {self.call.skill}, {difficulty_label(self.call)}"
            if self.call.punchers_chance:
                words += " (a puncher's chance allowed)"
            return words + (f" — {self.call.note}" if self.call.note else "")
        contest = self.contest
        assert contest is not None
        return f"Contest against {contest.name_b}: {contest.get_kind_display()}"

    def presets(self) -> dict[str, Any]:
        return {
            "preset": self.values,
            "locked": self.locked,
            "in_contest": self.contest is not None,
        }

    def links(self) -> Links:
        return {"call": self.call, "contest": self.contest}


def _id(value: object) -> int:
    """A row id from a request parameter, or 0 (no row has it)."""
    return parse_id(value) or 0


def ask_for(params: Any, character: Character, target: Target, *, lock: bool = False) -> Ask | None:
    """The call or contest named in ``params`` that ``character`` may answer with ``target``;
    None when the request names neither; :class:`Refused` (with the reason) otherwise.
    ``lock``: inside the roll's transaction, lock the row and check it has not been answered."""
    call_pk, contest_pk = params.get("call", ""), params.get("contest", "")
    if not call_pk and not contest_pk:
        return None
    if call_pk:
        calls = RollCall.objects.select_related("campaign")
        if lock:
            calls = calls.select_for_update(of=("self",))
        call = calls.filter(pk=_id(call_pk)).first()
        # A call for other characters answers like one that doesn't exist: a player learns of
        # the calls for their own characters only (docs/permissions.md).
        if (
            call is None
            or call.campaign_id != character.campaign_id
            or not call.targets_character(character)
        ):
            raise Refused(f"There is no such call for a roll for {character.name}.")
        # One message for both: the answer may be a hidden roll the GM made for the character,
        # which its player may not learn of from here.
        if not call.is_open or RollEntry.objects.filter(call=call, character=character).exists():
            raise Refused(
                f"This call for a roll is closed, or {character.name} has already answered it."
            )
        ask = Ask(call=call)
        ask.values, ask.locked = call_preset(call)
    else:
        found = Contest.objects.select_related("campaign", "character_a", "character_b")
        if lock:
            found = found.select_for_update(of=("self",))
        contest = found.filter(pk=_id(contest_pk)).first()
        # A contest the character takes no part in answers like one that doesn't exist (and
        # never names the characters who do).
        if (
            contest is None
            or contest.campaign_id != character.campaign_id
            or contest.side_of(character) is None
        ):
            raise Refused(f"There is no such contest for {character.name}.")
        contests.check_single_roll(contest, character)
        ask = Ask(contest=contest)
        ask.values, ask.locked = contests.panel_preset(contest)
    if target.obj.name != ask.skill:
        raise Refused(f"The GM asked for {ask.skill}, not {target.obj.name}.")
    return ask


def panel_ask(params: object, target: Target) -> tuple[Ask | None, str]:
    """The call or contest the panel answers, or the reason it can't (shown in the panel)."""
    try:
        return ask_for(params, target.character, target), ""
    except Refused as exc:
        return None, str(exc)
