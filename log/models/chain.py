"""The campaign roll log: append-only entries, each hashed and chained to the one before it.

An entry is written once, by :meth:`RollEntryQuerySet.append`, inside the transaction that also
spends or gains the resources it records. Nothing updates or deletes it afterwards: ``save`` on a
stored row, ``delete``, and the QuerySet's ``update``/``delete``/``bulk_*`` all raise
:class:`AppendOnlyError`. A correction is a new entry that ``follows`` the old one.

The entry model itself is in :mod:`log.models.entry`; the canonical form hashed into ``hash``
is documented in docs/roll-log.md; keep the two in step.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from django.core.exceptions import EmptyResultSet
from django.db import IntegrityError, connections, models, transaction
from django.db.models import (
    BooleanField,
    Case,
    ExpressionWrapper,
    F,
    FilteredRelation,
    JSONField,
    OuterRef,
    Q,
    Subquery,
    Value,
    When,
)
from django.db.models.expressions import RawSQL
from django.dispatch import Signal
from django.utils import timezone

import live
from log.models import visibility
from log.models.chain_check import ChainReport, verify_chain
from log.models.chain_sql import ChainSQL, Counts, Head
from log.models.head import LogHead
from log.models.keys import server_key
from log.models.kinds import MARKER_KINDS, Kind, Visibility, kind_info, kinds_where
from log.models.sources import DiceSource
from log.models.texts import EntryText, with_texts
from proofs.protocol import entry_message, head_message
from rules import RandomSource
from sheets.models import Campaign, Character, Membership

if TYPE_CHECKING:
    from collections.abc import Sequence

    from django.contrib.auth.models import User

    from log.models.entry import RollEntry
    from proofs.witness import Witness


# Sent once an appended entry has committed, in a campaign with an active webhook
# (``Campaign.has_webhooks``), with ``entry_pk``: the webhooks queue their deliveries from it
# (connected in RollsConfig.ready), so the log's models import no delivery code.
webhook_entry_committed = Signal()

# Bumped whenever the canonical form changes, so a verifier knows which rules an entry follows.
HASH_VERSION = 1


# Version 2 adds the GM table's links ("call", "contest"). Entries without either link keep the
# version-1 form byte for byte, so every chain written before them still verifies.
HASH_VERSION_GM_TABLE = 2


# Version 3 (every entry written since) adds a random salt and who the entry is about and by whom
# (the ids behind the links, and the frozen hidden-NPC flag). The salt is what keeps a hash that a
# player can see from being checked against guesses of a hidden roll's dice (docs/roll-log.md).
HASH_VERSION_SALTED = 3


# Version 4 (every entry written since) adds the odds as the card showed them (odds_display);
# the entry says so in its own hash_version column, which the content hashes as "v".
HASH_VERSION_ODDS = 4


# Version 5 (every entry written since) adds the dice's proof (``proof``: {} when no dice were
# drawn from the VRF), so the proof a reader checks is the one the chain and signature cover.
HASH_VERSION_PROOF = 5


# Version 6 (every entry written since) adds ``commitments``: a member's free text (a message,
# its correction) enters as SHA-256(salt ‖ text), the text itself kept beside the chain
# (log/models/texts.py), so it can be removed while the hash, signature and views still verify.
HASH_VERSION_TEXT = 6


class HeadMoved(Exception):
    """The dice were drawn for a chain position another append took first: nothing was written.
    The caller rolls again under the head's lock (rolls/rolling/actions.py)."""


SALT_BYTES = 16  # 128 bits


class AppendOnlyError(Exception):
    """Roll log entries are never changed or deleted; corrections are new entries."""

    def __init__(self, what: str = "changed") -> None:
        super().__init__(
            f"Roll log entries can't be {what}: the log is append-only. Record a new entry instead."
        )


class RollEntryQuerySet(models.QuerySet["RollEntry"]):
    # --- append-only -----------------------------------------------------------------------
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("changed")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("deleted")

    def bulk_update(self, *args: Any, **kwargs: Any) -> int:
        raise AppendOnlyError("changed")

    def bulk_create(self, *args: Any, **kwargs: Any) -> list:
        # bulk_create would skip the hash chain; entries are appended one by one.
        raise AppendOnlyError("bulk-created")

    # --- reading ---------------------------------------------------------------------------
    def for_cards(self) -> RollEntryQuerySet:
        """Everything an entry card shows, in this one query: with the character's portrait key
        and whether the character is hidden now (templates/rolls/_entry_portrait.html shows the
        portrait only to those who may read the character), two columns of one join rather than
        a query per row."""
        # A message's text and, for a correction, the text before it (hash version 6: beside
        # the chain, log/models/texts.py) come as two more LEFT JOINs.
        return with_texts(self.select_related("follows", "reveals")).annotate(
            character_portrait=F("character__portrait"),
            character_hidden_now=F("character__hidden_from_players"),
            follows_text=FilteredRelation(
                "follows__texts", condition=Q(follows__texts__field="detail")
            ),
            follows_shown=F("follows_text__text"),
        )

    def page(self, campaign: Campaign, *, before: int | None, size: int) -> list[RollEntry]:
        """Keyset page, newest first: entries with id < ``before`` (never OFFSET). One query;
        one extra row tells whether an older page exists."""
        qs = self.filter(campaign=campaign)
        if before is not None:
            return list(qs.filter(pk__lt=before).for_cards().order_by("-pk")[: size + 1])
        # The newest page in chain order, which in a campaign is id order (an entry's id is drawn
        # while it holds the chain's head: docs/architecture.md): only the (campaign, seq) index
        # gives that order. Ordered by id, PostgreSQL may read a big campaign's newest entries by
        # walking the primary key down from the newest row of all — past every entry other
        # campaigns wrote since (75,000 rows, 37 ms, in the log benchmark: docs/performance.md).
        return list(qs.for_cards().order_by("-seq")[: size + 1])

    def markers(self) -> RollEntryQuerySet:
        """The session markers (index ``roll_entry_markers``: a campaign's, newest first)."""
        return self.filter(kind__in=MARKER_KINDS)

    def with_session(self) -> RollEntryQuerySet:
        """Each row carries ``session_state``: the ``result`` of the newest session marker at or
        before it in its campaign's chain (None before the first), which says the session and
        scene it belongs to (rolls/sessions/state.py reads it). Markers of hash version 6 keep
        their names (the GM's titles) beside the chain: ``session_named`` is the committed name
        of the session's start, ``marker_named`` that of the newest marker (a scene's), None
        where none is kept. One index probe a row for each, in the row's own query."""
        return self.annotate(
            session_state=Subquery(
                self._marker_before(OuterRef("campaign_id"), OuterRef("pk")).values("result")[:1],
                output_field=JSONField(),
            ),
            session_named=self._marker_named(kind=Kind.SESSION),
            marker_named=self._marker_named(),
        )

    def _marker_before(self, campaign: OuterRef, pk: OuterRef) -> RollEntryQuerySet:
        """The markers at or before ``pk`` in ``campaign``'s chain, newest first."""
        return self.model._default_manager.filter(
            campaign_id=campaign, kind__in=MARKER_KINDS, pk__lte=pk
        ).order_by("-pk")

    def _marker_named(self, **where: object) -> Subquery:
        """The name of the newest marker at or before the row (``where``: of a kind): kept
        beside the chain where it is committed (None once removed, log/models/texts.py), else
        its ``detail`` (a marker from before hash version 6, whose titles are in the clear)."""
        kept = EntryText.objects.filter(entry_id=OuterRef("pk"), field="detail").exclude(salt="")
        marker = self._marker_before(OuterRef("campaign_id"), OuterRef("pk")).filter(**where)
        named = Case(
            When(commitments__has_key="detail", then=Subquery(kept.values("text")[:1])),
            default=F("detail"),
            output_field=models.TextField(),
        )
        return Subquery(marker.annotate(named=named).values("named")[:1])

    def labels(self) -> list[str]:
        """The distinct labels of these entries, in order — one query, fast at a million entries.

        ``SELECT DISTINCT label`` would read every entry (and, for a player, join each one to test
        its visibility): seconds at a million. This is a loose index scan instead — a recursive
        query that asks, per step, for the smallest label above the last one found, so the
        (campaign, label) index is probed once per distinct label and the visibility test runs
        only until the first visible entry of each label."""
        step = self.filter(label__gt=RawSQL('"poolside_labels"."label"', ()))
        try:
            sql, params = step.order_by("label").values("label")[:1].query.sql_with_params()
        except EmptyResultSet:  # .none(), or a filter that can match nothing
            return []
        query = (
            'WITH RECURSIVE "poolside_labels"("label") AS ('
            " SELECT CAST('' AS varchar(200))"
            f' UNION ALL SELECT ({sql}) FROM "poolside_labels"'
            ' WHERE "poolside_labels"."label" IS NOT NULL)'
            ' SELECT "label" FROM "poolside_labels"'
            """ WHERE "label" IS NOT NULL AND "label" <> ''"""
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(query, params)
            return [label for (label,) in cursor.fetchall()]

    def rolls(self) -> RollEntryQuerySet:
        """What a character's roll lists show (their sheet, their card, the GM table): the kinds
        that are ``on_roll_lists``, so never a message."""
        return self.exclude(kind__in=kinds_where(lambda info: not info.on_roll_lists))

    def recent_for(self, character: Character, size: int) -> list[RollEntry]:
        return list(self.filter(character=character).rolls().for_cards().order_by("-pk")[:size])

    # --- visibility ------------------------------------------------------------------------
    # The rule is log/models/visibility.py's table; these are its SQL for the log's rows.
    def with_revealed(self) -> RollEntryQuerySet:
        """Each row carries ``is_revealed`` from this query, instead of a query of its own the
        first time it is asked for."""
        return self.annotate(
            is_revealed=ExpressionWrapper(visibility.revealed_q(), output_field=BooleanField())
        )

    def readable_by_everyone(self) -> RollEntryQuerySet:
        """Entries every member may read, whoever they are: all that may leave the site (the
        webhooks, docs/webhooks.md)."""
        return self.filter(visibility.everyone_q())

    def visible_to(self, membership: Membership) -> RollEntryQuerySet:
        """Entries the member may know exist — as a full card or, for the roller of a blind roll,
        a placeholder. Each row carries ``readable`` (may the member see its figures?)."""
        qs = self.filter(campaign_id=membership.campaign_id)
        rule = visibility.member_q(membership)
        if rule is None:  # the GM
            readable: Any = Value(True)
        else:
            qs = qs.filter(rule.known)
            readable = ExpressionWrapper(rule.readable, output_field=BooleanField())
        return qs.annotate(readable=readable, readable_for=Value(membership.pk))

    def readable_by(self, membership: Membership) -> RollEntryQuerySet:
        """Entries whose dice, outcome, odds and pool the member may see (exports, statistics)."""
        qs = self.filter(campaign_id=membership.campaign_id)
        rule = visibility.readable_q(membership)
        return qs if rule is None else qs.filter(rule)

    # --- integrity ---------------------------------------------------------------------------
    def verify_chain(self, campaign_id: int, witnesses: Sequence[Witness] = ()) -> ChainReport:
        """Recompute one campaign's chain and check what the server's key vouches for, and that
        the log holds each witnessed head (log/models/chain_check.py)."""
        return verify_chain(self, campaign_id, witnesses)

    # --- writing ---------------------------------------------------------------------------
    def made_with_nonce(self, campaign_id: int, user: User, nonce: str) -> RollEntry | None:
        """The entry ``user`` rolled with ``nonce`` in the campaign, if any: the nonce is a roll's
        idempotency key (constraint ``roll_entry_unique_nonce``)."""
        if not nonce:
            return None
        return self.filter(campaign_id=campaign_id, user=user, proof__alpha__nonce=nonce).first()

    def append_by(self, user: User, character: Character, **fields: Any) -> RollEntry:
        """Append an entry ``user`` made for ``character``: the campaign, the names and the system
        are read from them (a field given here wins: a reveal keeps the name rolled under)."""
        campaign = fields.pop("campaign", None) or character.campaign  # given when it is loaded
        who: dict[str, Any] = {
            "character": character,
            "user": user,
            "character_name": character.name,
            "username": user.get_username(),
            "system": campaign.system,
        }
        return self.append(campaign=campaign, **(who | fields))

    def reserve(self, campaign: Campaign) -> Head:
        """Where the next entry of ``campaign`` will sit, for dice drawn before it is appended
        (docs/verifiable-dice.md): ``(seq, prev_hash, position secret, counters)`` — the rollers'
        counts as they stand before it. Inside a transaction
        the head is locked now, so the append that follows lands there; outside one it is the
        head as last known, and the append raises :class:`HeadMoved` if another came first."""
        connection = transaction.get_connection(self.db)
        sql = ChainSQL.of(connection, self.model)
        head: Head | None
        if connection.in_atomic_block:
            with connection.cursor() as cursor:
                head = _locked_head(cursor, sql, campaign)
        else:
            with connection.cursor() as cursor:
                head = _head_as_known(cursor, sql, campaign)
            if head is None:  # a campaign from before heads existed: make it, locked
                with transaction.atomic(using=self.db), connection.cursor() as cursor:
                    head = _locked_head(cursor, sql, campaign)
        return head[0] + 1, head[1], head[2], head[3]

    def append(
        self, *, campaign: Campaign, dice: RandomSource | None = None, **fields: Any
    ) -> RollEntry:
        """Append one entry to the campaign's chain and return it.

        Runs inside the caller's transaction when there is one (so resource changes and the entry
        commit together): the locked path. Outside one on PostgreSQL, the lock-free path first.
        ``dice``: the source the entry's dice came from; if it drew them from the VRF, the entry
        carries its proof and must land where the dice were drawn for (else :class:`HeadMoved`,
        nothing written). The invariants both paths keep are written once, in
        log/models/chain_sql.py's docstring (numbered there; the comments below cite them).
        """
        follows = fields.get("follows")
        if follows is not None:
            # A follow-up belongs to its root roll's chain: same audience, same roller.
            root = follows.root if follows.root_id else follows
            fields |= {
                "root": root,
                "visibility": root.visibility,
                "roller_id": root.roller_id,
                "hidden_character": root.hidden_character,
            }
        elif "roller" not in fields and "roller_id" not in fields:
            fields["roller"] = fields.get("user")
        if "hidden_character" not in fields:
            fields["hidden_character"] = _is_hidden_npc(fields)
        # The setting is about rolls: a message keeps the audience its author chose.
        if (
            campaign.force_public_rolls
            and not kind_info(fields["kind"]).keeps_chosen_audience
            and fields.get("visibility", Visibility.PUBLIC) != Visibility.PUBLIC
        ):
            raise ValueError("This campaign makes every roll public.")
        # Under the head's lock there is no race to retry and no savepoint to retry from
        # (invariant 4): inside the caller's transaction this adds no statement of its own. A
        # clash of the unique (campaign, seq) backstop, or a second follow-up of one entry,
        # fails the caller's transaction, which is the caller's to report.
        connection = transaction.get_connection(self.db)
        sql = ChainSQL.of(connection, self.model)
        drawn = Drawn.of(dice)
        entry = None
        if sql.one_statement and not connection.in_atomic_block:
            # Nothing else to commit with it (a plain roll): the append alone, in one statement.
            entry = self._link_alone(connection, sql, campaign, fields, drawn)
        if entry is None:
            with transaction.atomic(using=self.db, savepoint=False):
                entry = self._link(connection, sql, campaign, fields, drawn)
        if campaign.has_webhooks:
            # Only campaigns with an active webhook: the flag came with the campaign, so a roll
            # elsewhere costs no query here. What is sent is decided after commit, by the
            # signal's receiver (rolls/webhooks/delivery.py); a failure there is logged, never
            # turned into an error of the roll that already happened.
            transaction.on_commit(
                partial(webhook_entry_committed.send, sender=self.model, entry_pk=entry.pk),
                using=self.db,
                robust=True,
            )
        return entry

    def _link_alone(
        self,
        connection: Any,
        sql: ChainSQL,
        campaign: Campaign,
        fields: dict[str, Any],
        drawn: Drawn | None,
    ) -> RollEntry | None:
        """The lock-free path (chain_sql.py, invariants 5–8): the entry linked to the head as
        last known (or where its dice were drawn for) and written by one statement, in this
        process's turn for the campaign. None when another append came first: the caller then
        takes the locked path — unless dice were drawn for the place taken: :class:`HeadMoved`."""
        key = (connection.alias, campaign.pk)
        with _append_turn(campaign.pk), connection.cursor() as cursor:
            head = drawn.head if drawn else _head_as_known(cursor, sql, campaign)
            if head is None:  # a campaign from before heads existed: the locked way makes one
                return None
            entry = self._new_entry(campaign, fields, head, drawn)
            counters = _counted(head[3], drawn)
            if not sql.write(cursor, entry, _head_signature(entry), counters, expected=head[0]):
                _HEADS.pop(key, None)
                if drawn:
                    raise HeadMoved
                return None
            if head[2]:  # the secret is known (a source that didn't keep it: guess again)
                _remember_head(key, entry, head[2], counters)
            entry._state.adding, entry._state.db = False, connection.alias
        if not sql.announced:
            live.publish(campaign.pk, "entry", entry.pk)  # after commit: that is now
        entry.is_revealed = False  # brand new: nothing can have revealed it yet
        return entry

    def _new_entry(
        self, campaign: Campaign, fields: dict[str, Any], head: Any, drawn: Drawn | None
    ) -> RollEntry:
        """The entry, linked to the head ``(length, hash, …)`` as read, hashed and signed."""
        entry = self.model(
            **fields | {"campaign": campaign, "seq": head[0] + 1, "prev_hash": head[1]}
        )
        entry.salt = secrets.token_hex(SALT_BYTES)
        entry.character_ref = entry.character_id
        entry.user_ref = entry.user_id
        entry.roller_ref = entry.roller_id
        entry.hash_version = HASH_VERSION_TEXT
        entry.commitments = entry.commitments or {}
        entry.proof = drawn.proof if drawn else {}
        entry.created_at = timezone.now()
        entry.hash = entry.compute_hash()
        key = server_key()
        entry.signature = key.sign(entry_message(campaign.pk, entry.seq, entry.hash))
        entry.signed_by = key.id
        return entry

    def _link(
        self,
        connection: Any,
        sql: ChainSQL,
        campaign: Campaign,
        fields: dict[str, Any],
        drawn: Drawn | None,
    ) -> RollEntry:
        """The locked path (chain_sql.py, invariant 4): lock the chain's head, link the entry to
        it and move it, in the transaction."""
        with connection.cursor() as cursor:
            row = _locked_head(cursor, sql, campaign)
            if drawn and tuple(row[:2]) != drawn.head[:2]:
                raise HeadMoved  # drawn outside this transaction, for a head that has moved
            entry = self._new_entry(campaign, fields, row, drawn)
            counters = _counted(row[3], drawn)
            if sql.one_statement:
                # The same one statement as without a transaction; under the lock the head can't
                # have moved, so it always writes (NOTIFY is transactional).
                if not sql.write(cursor, entry, _head_signature(entry), counters, expected=row[0]):
                    raise IntegrityError("The log's head moved under its lock.")
                if not sql.announced:
                    live.publish(campaign.pk, "entry", entry.pk)
            else:
                sql.insert(cursor, entry)
                sql.move_head(cursor, entry, _head_signature(entry), counters)
                live.publish(campaign.pk, "entry", entry.pk)
            # Known from now on only if this transaction commits: until then, nothing.
            key = (connection.alias, campaign.pk)
            _HEADS.pop(key, None)
            secret = row[2]
            transaction.on_commit(
                lambda: _remember_head(key, entry, secret, counters), using=self.db
            )
            entry._state.adding, entry._state.db = False, connection.alias
        # Open streams hear of the entry when (and only if) the caller's transaction commits.
        entry.is_revealed = False  # brand new: nothing can have revealed it yet
        return entry


def _head_signature(entry: RollEntry) -> str:
    """The signature of the head the entry moves the log to. Not the entry's own signature,
    which vouches for the entry (another message): a head's signature is kept only on the head,
    so nobody can cut the log back to an earlier head and sign it with what the rows hold."""
    return server_key().sign(head_message(entry.campaign_id, entry.seq, entry.hash))


@dataclass(frozen=True)
class Drawn:
    """Dice drawn from the VRF for a chain position: the head they were drawn on, the proof,
    and the roller's number it proves (``n``, counted on the head by the append)."""

    head: Head  # (length, hash, position secret, counters) before the entry
    proof: dict[str, Any]
    roller: str = ""  # the roller's user id as text, the counters' key ("": not counted)
    n: int = 0

    @classmethod
    def of(cls, dice: RandomSource | None) -> Drawn | None:
        """None for no source, a source that never drew, or one that isn't the VRF's (the
        tests' seeded dice)."""
        if not isinstance(dice, DiceSource):
            return None
        proof = dice.record()
        if not proof or dice.seq is None or dice.prev_hash is None:
            return None
        secret, counters = (dice.reserved[2], dice.reserved[3]) if dice.reserved else ("", {})
        head = (dice.seq - 1, dice.prev_hash, secret, counters)
        if dice.n is None:
            return cls(head, proof)
        return cls(head, proof, str(dice.roller), dice.n)


def _counted(counters: Counts, drawn: Drawn | None) -> Counts:
    """The rollers' counts once the entry is in: its roller's is its number (alpha version 2's
    counter, docs/verifiable-dice.md). A roll is counted if and only if it is logged."""
    if drawn is None or not drawn.roller:
        return counters
    return counters | {drawn.roller: drawn.n}


def _locked_head(cursor: Any, sql: ChainSQL, campaign: Campaign) -> Head:
    """The campaign's head, locked for this transaction: ``(length, hash, secret, counters)``.
    A campaign from before heads existed gets its head now (signed, as a new one would be)."""
    row = sql.lock_head(cursor, campaign.pk)
    if row is None:
        if not LogHead.objects.filter(campaign_id=campaign.pk).exists():
            head = LogHead(campaign_id=campaign.pk)
            head.sign()
            head.save(force_insert=True)
        row = sql.lock_head(cursor, campaign.pk)
        if row is None:  # made above, or by a concurrent append: never
            raise IntegrityError("The log's head is missing after it was made.")
    return row


# Appends to one campaign from this process take turns here before reading its head (a
# campaign's turn is one of these locks, by its pk): chain_sql.py, invariant 6.
_TURNS = [threading.Lock() for _ in range(64)]


def _append_turn(campaign_pk: int) -> threading.Lock:
    return _TURNS[campaign_pk % len(_TURNS)]


# The head each campaign's chain had when this process last appended to it, by database alias and
# campaign: (length, hash, position secret, counters). Only a guess: chain_sql.py, invariant 7.
_HEADS: dict[tuple[str, int], Head] = {}
_HEADS_KEPT = 10_000


def _remember_head(key: tuple[str, int], entry: RollEntry, secret: str, counters: Counts) -> None:
    if len(_HEADS) >= _HEADS_KEPT:
        _HEADS.clear()
    _HEADS[key] = (entry.seq, entry.hash, secret, counters)


def _head_read_with(campaign: Campaign) -> Head | None:
    """The log head read with the campaign (``select_related("log_head")``), if it was: asked
    of the relation's descriptor, so that a campaign read without it costs no query here."""
    if not Campaign.log_head.is_cached(campaign):
        return None
    try:
        head = campaign.log_head
    except LogHead.DoesNotExist:  # a campaign from before heads existed
        return None
    return (head.length, head.hash, head.position_secret, head.counters or {})


def _head_as_known(cursor: Any, sql: ChainSQL, campaign: Campaign) -> Head | None:
    """The head read with the campaign or the one this process last wrote, whichever is further
    on; read now when neither is there. None for a campaign from before heads existed."""
    connection = sql.connection
    head = _further(_head_read_with(campaign), _HEADS.get((connection.alias, campaign.pk)))
    if head is None:
        head = sql.peek_head(cursor, campaign.pk)
    return head


def _further(*heads: Head | None) -> Head | None:
    known = [head for head in heads if head is not None]
    return max(known, key=lambda head: head[0]) if known else None


def _is_hidden_npc(fields: dict[str, Any]) -> bool:
    """Is the entry about a hidden NPC, as of now? Frozen into the entry: later changes to the
    character (un-hiding it, deleting it) never make what was hidden readable. A reveal is
    meant for everyone, whoever it is about."""
    if fields.get("kind") == Kind.REVEAL:
        return False
    character = fields.get("character")
    if character is not None:
        return bool(character.hidden_from_players)
    if fields.get("character_id") is not None:
        return Character.objects.filter(
            pk=fields["character_id"], hidden_from_players=True
        ).exists()
    return False
