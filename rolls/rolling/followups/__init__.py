"""Follow-ups: new, linked entries after a roll. Destiny after a Cogent roll, Correct and the
player's choice in Cold Stars, a boon bought with a bane and extra boons in DAD6.

Each follow-up names the entry it follows; the log's one-follow-up-per-entry constraint keeps
chains linear, so "Correct once", "one choice" and "one bought boon" hold even for two clicks at
once. Rules come from the engine; resources are checked and spent on the locked sheet.

What each system offers and how it is carried out lives in one module per system (``cogent``,
``dad6``, ``cold_stars``), whose ``FOLLOW_UPS`` the system's seam names (``follow_ups_path``): a
:class:`SystemFollowUps` — ``offers(entry, sheet)``, ``refusal(entry, name)`` (a reason of its own
why something is not offered), ``value_refusal(name, sheet)`` (an offer picked with a value not on
offer), ``actions`` (name → the function that makes the follow-up's :class:`Outcome`) and
``not_offered`` (name → why it isn't offered, for a roll of any system).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Protocol

from django.utils.module_loading import import_string

from log.models import RollEntry, Visibility
from rolls.rolling import choosers
from rolls.rolling.outcomes import Outcome
from rules import RandomSource
from sheets.models import Membership, Refused, Sheet
from sheets.systems import all_rule_systems, rule_system

CONTEST_ROLL = "contest_roll"  # the outcome of one side's roll in a contest where both roll


@dataclass(frozen=True)
class FollowUp:
    name: str  # URL part: "destiny", "correct", "choice", "buy_boon", "extra_boon"
    label: str
    value: str = ""  # for "choice" and "extra_boon": what was picked
    problem: str = ""  # why it can't be done now (shown beside a disabled button)
    asks: str = ""  # the label of a text the player may give as the value (a bane's wording)
    asks_max: int = 0  # that text's longest length
    # Offered after a success, where it spends something on a roll that already worked (Correct
    # re-rolls the success away, destiny only raises the margin): a secondary button, so a
    # mis-tap under the result doesn't take it for the next step.
    secondary: bool = False


# A follow-up: (the entry followed, its *locked* sheet, the dice, the value picked) → Outcome.
Action = Callable[[RollEntry, Any, RandomSource, str], Outcome]


class SystemFollowUps(Protocol):
    """What one system's follow-ups answer (its sheet is the system's own sheet model)."""

    @property
    def actions(self) -> Mapping[str, Action]: ...

    @property
    def not_offered(self) -> Mapping[str, str]: ...

    def offers(self, entry: RollEntry, sheet: Any) -> list[FollowUp]: ...

    def refusal(self, entry: RollEntry, name: str) -> str: ...

    def value_refusal(self, name: str, sheet: Any) -> str: ...


@dataclass(frozen=True)
class FollowUps:
    """A system's follow-ups as one object (each system's module makes its ``FOLLOW_UPS``)."""

    offers: Callable[[RollEntry, Any], list[FollowUp]]
    refusal: Callable[[RollEntry, str], str]
    value_refusal: Callable[[str, Any], str]
    actions: Mapping[str, Action]
    # Why each of its follow-ups isn't offered, when the roll's own system has no reason.
    not_offered: Mapping[str, str]


def follow_ups_of(system: str) -> SystemFollowUps:
    return _loaded(rule_system(system).results.follow_ups_path)


@cache
def _loaded(path: str) -> SystemFollowUps:
    follow_ups: SystemFollowUps = import_string(path)
    return follow_ups


def _system(entry: RollEntry) -> SystemFollowUps:
    return follow_ups_of(entry.system)


def names() -> tuple[str, ...]:
    """Every follow-up any system offers (the URL's and the API's ``action``)."""
    return tuple(
        name for system in all_rule_systems() for name in follow_ups_of(system.key).actions
    )


def _not_offered_text(name: str) -> str:
    for system in all_rule_systems():
        text = follow_ups_of(system.key).not_offered.get(name)
        if text:
            return text
    return "That follow-up doesn't exist."


def available(entry: RollEntry, sheet: Sheet, *, has_follow_up: bool) -> list[FollowUp]:
    """The follow-ups to offer under ``entry`` (for someone allowed to roll its character)."""
    if has_follow_up or entry.character_id is None or entry.outcome == CONTEST_ROLL:
        # A side's roll in a contest where both roll is Corrected or kept from the contest's
        # prompt (rolls/table/contests.py), never from its own card.
        return []
    if _hidden_in_a_public_campaign(entry):
        return []
    # What a system's follow-ups read again from the entry: without it, nothing is offered
    # rather than failing half-way.
    where, keys = rule_system(entry.system).results.follow_up_reads
    if not all(key in getattr(entry, where) for key in keys):
        return []
    offers: list[FollowUp] = _system(entry).offers(entry, sheet)
    return offers


def offered(
    entry: RollEntry, sheet: Sheet, membership: Membership, *, has_follow_up: bool
) -> list[FollowUp]:
    """:func:`available`, as ``membership`` sees them: on a player character's roll only its
    player makes these choices and spends (rolls/rolling/choosers.py), so anyone else — the GM —
    sees each offer disabled, saying whom it waits for."""
    offers = available(entry, sheet, has_follow_up=has_follow_up)
    if not offers or entry.character is None:
        return offers
    waiting = choosers.waiting(entry.character, membership, entry)
    if not waiting:
        return offers
    return [replace(offer, problem=waiting) for offer in offers]


def _refuse_unless_offered(entry: RollEntry, sheet: Sheet, name: str, value: str = "") -> None:
    offers = [
        o
        for o in available(entry, sheet, has_follow_up=entry.follow_ups.exists())
        if o.name == name
    ]
    if not offers:
        raise Refused(_not_offered(entry, name))
    if any(o.value for o in offers):
        # The value is the player's pick: it must be one of those offered, never left out.
        offers = [o for o in offers if o.value == value]
        if not offers:
            raise Refused(_system(entry).value_refusal(name, sheet))
    if offers[0].problem:
        raise Refused(offers[0].problem)


def _hidden_in_a_public_campaign(entry: RollEntry) -> bool:
    """A hidden roll made before its campaign switched every roll public. Its follow-up would
    keep the roll's audience (RollEntryQuerySet.append), which the campaign no longer allows,
    and making it public would give the hidden roll away: nothing follows it."""
    # Public entries (nearly all) are settled without reading the campaign.
    return entry.visibility != Visibility.PUBLIC and entry.campaign.force_public_rolls


def _not_offered(entry: RollEntry, name: str) -> str:
    if entry.follow_ups.exists():
        return "This roll already has a follow-up; act on the latest entry instead."
    if _hidden_in_a_public_campaign(entry):
        return (
            "This campaign now makes every roll public, and this roll was hidden: "
            "nothing can follow it up."
        )
    reason: str = _system(entry).refusal(entry, name)
    if reason:
        return reason
    if entry.outcome == CONTEST_ROLL:
        return "This roll is one side of a contest: what follows it is on the contest's prompt."
    return _not_offered_text(name)


def perform(
    name: str, entry: RollEntry, sheet: Sheet, rng: RandomSource, value: str = ""
) -> Outcome:
    """Check and carry out a follow-up on the *locked* ``sheet``; :class:`Refused` if not allowed."""
    _refuse_unless_offered(entry, sheet, name, value)
    outcome: Outcome = _system(entry).actions[name](entry, sheet, rng, value)
    return outcome
