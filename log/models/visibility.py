"""Who may read a log entry, and who may know that it exists: the rule, written once.

``GRANTS`` is the rule as a table (docs/roll-log.md, "Visibility", says it in words). Everything
that asks the rule is produced from it: the SQL filters (a ``Q``, for the log, the exports, the
statistics' trials and the members' signed views) and the Python predicate
(``RollEntry.is_readable_by`` and friends, on a row already loaded). ``as_of`` says when the
question is asked: ``NOW``, or ``WRITTEN`` — as it stood when each entry was appended, which is
what a member's signed view (rolls/seen/chain.py) holds, so that the view only ever grows.

The GM reads everything. Anyone else reads an entry that one ``READ`` grant gives them, and knows
of (sees a placeholder for) one a ``PLACEHOLDER`` grant gives them. Who is not a member of the
entry's campaign reads and knows nothing. tests/rolls/test_visibility_rule.py holds SQL, Python
and the signed views to the rule's words on random logs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from django.db.models import Exists, F, OuterRef, Q

from log.models.kinds import Visibility
from log.models.messages import EntryRecipient

if TYPE_CHECKING:
    from log.models.entry import RollEntry
    from sheets.models import Membership


class AsOf(Enum):
    NOW = "now"
    WRITTEN = "written"  # as when each entry was appended: no later reveal counts


class Audience(Enum):
    EVERYONE = "everyone"  # every member of the campaign
    ROLLER = "roller"  # who made the root roll (or wrote the message)
    RECIPIENT = "recipient"  # a member a whisper is to


class Shows(Enum):
    READ = "read"  # the entry in full: dice, outcome, odds, pool, text
    PLACEHOLDER = "placeholder"  # that it happened, nothing more (``HiddenEntry``)


@dataclass(frozen=True)
class Grant:
    """One way a member who isn't the GM comes to read (or know of) an entry."""

    why: str
    audience: Audience
    visibilities: tuple[str, ...] = ()  # the entry's visibility is one of these (empty: any)
    # Only an entry not about a hidden NPC (``hidden_character``, frozen when written: un-hiding
    # or deleting the NPC later changes nothing about who reads what was rolled before).
    not_hidden_npc: bool = False
    revealed: bool = False  # only once the entry or its chain's root has been revealed
    # Only the root of its chain: a follow-up exists only after some outcomes (a bought boon
    # only after a failure), so even its placeholder would give a hidden result away.
    root_only: bool = False
    shows: Shows = Shows.READ


GRANTS: tuple[Grant, ...] = (
    # A hidden NPC's rolls would give the NPC away, so players read them only once revealed.
    Grant("a public entry", Audience.EVERYONE, (Visibility.PUBLIC,), not_hidden_npc=True),
    Grant("a revealed entry", Audience.EVERYONE, revealed=True),
    Grant("their own GM-only roll", Audience.ROLLER, (Visibility.GM_ONLY,)),
    # A whisper is never revealed and never a placeholder: everyone else learns nothing of it.
    Grant("a whisper they wrote", Audience.ROLLER, (Visibility.WHISPER,)),
    Grant("a whisper to them", Audience.RECIPIENT, (Visibility.WHISPER,)),
    Grant(
        "their own blind roll",
        Audience.ROLLER,
        (Visibility.BLIND,),
        root_only=True,
        shows=Shows.PLACEHOLDER,
    ),
)


# --- SQL ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rows:
    """Where a kind of row keeps what the grants ask: the rule's facts as lookups."""

    revealed: Callable[[AsOf], Q]
    recipient: Callable[[int], Q] | None  # None: these rows never hold a whisper


def _entry_revealed(as_of: AsOf) -> Q:
    if as_of is AsOf.WRITTEN:
        # Nothing is revealed before it is written; a follow-up written after its root's reveal
        # was readable from the start.
        return Q(root__revealed_by__pk__lt=F("pk"))
    return Q(revealed_by__isnull=False) | Q(root__revealed_by__isnull=False)


def _entry_recipient(user_id: int) -> Q:
    # One probe of the recipients' unique index.
    return Q(Exists(EntryRecipient.objects.filter(entry_id=OuterRef("pk"), user_ref=user_id)))


ENTRIES = Rows(revealed=_entry_revealed, recipient=_entry_recipient)


def revealed_q(as_of: AsOf = AsOf.NOW, rows: Rows = ENTRIES) -> Q:
    """Opened by a reveal: the entry, or its chain's root."""
    return rows.revealed(as_of)


def _where(grant: Grant, rows: Rows, as_of: AsOf, **fields: object) -> Q:
    """What the grant asks of the entry, whoever reads it (and ``fields``, when given)."""
    if len(grant.visibilities) == 1:
        fields["visibility"] = grant.visibilities[0]
    elif grant.visibilities:
        fields["visibility__in"] = grant.visibilities
    if grant.not_hidden_npc:
        fields["hidden_character"] = False
    if grant.root_only:
        fields["root__isnull"] = True
    where = Q(**fields)
    return where & rows.revealed(as_of) if grant.revealed else where


def _who(grant: Grant, rows: Rows, user_id: int | None) -> Q | None:
    """Who the grant is for, as a condition (None: everyone)."""
    if grant.audience is Audience.EVERYONE:
        return None
    if grant.audience is Audience.ROLLER:
        return Q(roller_id=user_id)
    if rows.recipient is None or user_id is None:  # _applies leaves these out: never asked
        return Q(pk__in=[])
    return rows.recipient(user_id)


def _applies(grant: Grant, rows: Rows, user_id: int | None) -> bool:
    """Is the grant part of the SQL asked? Not one for a particular member when the rule is
    asked for every member at once, and not a whisper's on rows that never hold one (so the
    statistics' SQL asks nothing of whispers)."""
    if user_id is None:  # the rule for every member at once
        return grant.audience is Audience.EVERYONE
    return rows.recipient is not None or Visibility.WHISPER not in grant.visibilities


def _q(shows: Shows, rows: Rows, as_of: AsOf, user_id: int | None) -> Q:
    """The grants that show ``shows``, OR-ed, in the table's order. Grants that ask the same of
    the entry share one condition (a whisper: ``visibility = 'whisper' AND (author OR
    recipient)``)."""
    grouped: dict[tuple[object, ...], list[Grant]] = {}
    for grant in GRANTS:
        if grant.shows is shows and _applies(grant, rows, user_id):
            grouped.setdefault(_facts(grant), []).append(grant)
    rule = Q(pk__in=[])  # no grant: nothing
    for n, grants in enumerate(grouped.values()):
        if len(grants) == 1 and grants[0].audience is Audience.ROLLER:
            # The roller among the entry's other fields: one Q, as the SQL always read.
            where = _where(grants[0], rows, as_of, roller_id=user_id)
        else:
            where = _where(grants[0], rows, as_of)
            whos = [who for grant in grants if (who := _who(grant, rows, user_id)) is not None]
            if whos:
                who = whos[0]
                for other in whos[1:]:
                    who |= other
                where = where & who if where else who
        rule = where if n == 0 else rule | where
    return rule


def _facts(grant: Grant) -> tuple[object, ...]:
    """What a grant asks of the entry, leaving out who it is for."""
    return (grant.visibilities, grant.not_hidden_npc, grant.revealed, grant.root_only)


def everyone_q(as_of: AsOf = AsOf.NOW, rows: Rows = ENTRIES) -> Q:
    """Readable by every member, whoever they are: all that may leave the site (webhooks)."""
    return _q(Shows.READ, rows, as_of, None)


def readable_q(membership: Membership, as_of: AsOf = AsOf.NOW, rows: Rows = ENTRIES) -> Q | None:
    """The entries (of the member's campaign) the member reads in full; None: every one."""
    if membership.is_gm:
        return None
    return _q(Shows.READ, rows, as_of, membership.user_id)


@dataclass(frozen=True)
class MemberRule:
    """A member's rule in SQL: ``known`` filters the entries they know of, ``readable`` says
    which of those they read in full (the others are placeholders)."""

    known: Q
    readable: Q


def member_q(membership: Membership, as_of: AsOf = AsOf.NOW) -> MemberRule | None:
    """The member's rule over the entries of their campaign; None for the GM (every entry, read)."""
    readable = readable_q(membership, as_of)
    if readable is None:
        return None
    placeholder = _q(Shows.PLACEHOLDER, ENTRIES, as_of, membership.user_id)
    return MemberRule(known=readable | placeholder, readable=readable)


# --- Python ------------------------------------------------------------------------------------


def _was_revealed(entry: RollEntry, as_of: AsOf) -> bool:
    if as_of is AsOf.NOW:
        return entry.is_revealed
    if entry.root_id is None:
        return False
    return type(entry)._default_manager.filter(reveals_id=entry.root_id, pk__lt=entry.pk).exists()


def _grants(entry: RollEntry, grant: Grant, user_id: int | None, as_of: AsOf) -> bool:
    """Does ``grant`` give the entry to the user (None: to every member)? The one check that
    costs a query, the reveal, is asked last."""
    if grant.visibilities and entry.visibility not in grant.visibilities:
        return False
    if grant.not_hidden_npc and entry.hidden_character:
        return False
    if grant.root_only and entry.root_id is not None:
        return False
    if grant.audience is Audience.ROLLER and (user_id is None or entry.roller_id != user_id):
        return False
    if grant.audience is Audience.RECIPIENT and user_id not in entry.recipient_ids:
        return False
    return not grant.revealed or _was_revealed(entry, as_of)


# The grants in the order Python asks them: those that cost a query (a reveal) last.
_BY_COST = sorted(GRANTS, key=lambda grant: grant.revealed)


def reads(entry: RollEntry, membership: Membership | None, as_of: AsOf = AsOf.NOW) -> bool:
    """May the member see the entry's dice, outcome, odds, pool and text?"""
    if membership is None or membership.campaign_id != entry.campaign_id:
        return False
    if membership.is_gm:
        return True
    return any(
        _grants(entry, grant, membership.user_id, as_of)
        for grant in _BY_COST
        if grant.shows is Shows.READ
    )


def placeholder_for(
    entry: RollEntry, membership: Membership | None, as_of: AsOf = AsOf.NOW
) -> bool:
    """Does a placeholder grant let the member know of the entry (whether or not they read it)?
    Never for the GM, who reads everything."""
    if membership is None or membership.campaign_id != entry.campaign_id or membership.is_gm:
        return False
    return any(
        _grants(entry, grant, membership.user_id, as_of)
        for grant in GRANTS
        if grant.shows is Shows.PLACEHOLDER
    )


def knows(entry: RollEntry, membership: Membership | None, as_of: AsOf = AsOf.NOW) -> bool:
    """May the member know the entry exists (in full, or as a placeholder)?"""
    return reads(entry, membership, as_of) or placeholder_for(entry, membership, as_of)


def read_by_everyone(entry: RollEntry, as_of: AsOf = AsOf.NOW) -> bool:
    """Does every member read the entry (no grant needed but those for everyone)?"""
    return any(
        _grants(entry, grant, None, as_of)
        for grant in _BY_COST
        if grant.shows is Shows.READ and grant.audience is Audience.EVERYONE
    )
