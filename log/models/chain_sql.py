"""The write path's hand-written SQL, and the append's invariants.

Every statement the roll log's append writes by hand is here, written once per database from the
models' metadata and run through ``connection.cursor()``; the append's steps are
``RollEntryQuerySet.reserve`` and ``append`` in log/models/chain.py, and docs/architecture.md
("Appending to the log") walks through them. The rest of the write path is the ORM's — the sheets'
locks and spends, the assists, the GM table — but for the live transport's ``pg_notify``
(rolls/live: ``publish``, and ``announcement_with_id``, which :meth:`ChainSQL.write` embeds),
which every writer of a live event shares. Before the write, the roll reads its row by one more
statement written from ``_meta`` (``RowRead``, rolls/rolling/row_read.py: kept for what it
measurably saves, docs/performance.md). Off the roll's path: the log's distinct-labels scan
(``RollEntryQuerySet.labels``) and the API's rate counter (``ApiUsage.count_request``).

The append's invariants — what every change to the entry, the head or the append must keep:

1. **The head is the chain's end.** Each campaign has one ``LogHead`` row: ``length`` is the
   ``seq`` of its newest entry (0: none), ``hash`` that entry's hash, ``signature`` the server's
   signature of (campaign, length, hash) — never the entry's own, so nobody can cut the log back
   and sign an older head — and ``position_secret``, which never changes. The head moves only
   with the insert of the entry it names: in one statement (PostgreSQL) or one transaction.
2. **An entry is linked to the head it was written against:** ``seq = length + 1`` and
   ``prev_hash = hash`` of that head, and it is written only if the head is still there. The
   unique (campaign, seq) constraint is the backstop: a chain never forks, on any database.
3. **Ids grow with seq in a campaign** (the log's pages and the streams' catch-up order by id):
   an entry's id is drawn by its INSERT while its statement, or its transaction, holds the
   head's row.
4. **The locked path** (inside the caller's transaction, and every retry): the head is read
   ``FOR UPDATE`` (:meth:`ChainSQL.lock_head`; a campaign from before heads gets a signed one
   first), so appends take turns on it and the link can't go stale; SQLite has no row locks, and
   its transactions' ``BEGIN IMMEDIATE`` takes the write lock instead. On PostgreSQL the entry is
   then written by the same one statement as below, whose condition always holds under the lock
   (else ``IntegrityError``); on SQLite by an INSERT and the head's UPDATE.
5. **The lock-free path** (PostgreSQL, no transaction open: a plain roll): the entry is linked to
   the head *as last known* — read with the campaign (the roll's row read selects ``log_head``)
   or the one this process last wrote (``_HEADS``), whichever is further on; read now
   (:meth:`ChainSQL.peek_head`) when neither is known — and written by one statement
   (:meth:`ChainSQL.write`): ``UPDATE`` the head ``WHERE length = <known>``, ``INSERT`` the entry
   only if that moved it, ``pg_notify`` with the new id. PostgreSQL rechecks the condition against
   the newest row version, so a head another process moved makes the statement write nothing;
   the append is then made on the locked path. The statement is its own transaction: no BEGIN or
   COMMIT, and no lock held across Python.
6. **``_TURNS``:** within one process, appends to one campaign take turns (64 striped
   ``threading.Lock`` objects, by campaign pk) from choosing the head to writing, so a process never
   races itself; only another process can move the head in between, and that costs one retry.
7. **``_HEADS`` is only a guess** (bounded; cleared when full): a wrong one costs a retry, never a
   wrong link (2). It is set after a lock-free write (committed at once) and on the commit of a
   locked append, and dropped when a write finds the head moved and while a locked append's
   transaction is open.
8. **Dice are drawn for a place and a number** (docs/verifiable-dice.md): ``reserve`` gives the
   VRF the (seq, prev_hash, position secret, counters) the entry will take — inside a
   transaction by locking the head (4), so the append lands there; outside one the head as last
   known (5). The proof binds only the roller's next number (their counter + 1), not the place.
   The append lands exactly there or writes nothing and raises ``HeadMoved`` (lock-free: the
   statement's condition is that place; locked: the locked head is compared with it), and moves
   the head's ``counters`` with it: a number is counted if and only if its roll is logged.
   ``make_roll`` then rolls again inside a transaction, under the lock, with the same nonce and
   (unless the roller's own other roll came first) the same number: the same dice.
9. **Announced if and only if committed:** with the ``postgres`` live transport the
   ``pg_notify`` is in the write's statement or transaction; the others publish after the
   statement (lock-free: it has committed) or on the transaction's commit.
10. **Append-only:** nothing updates or deletes an entry (the QuerySet raises
    ``AppendOnlyError``; PostgreSQL's triggers refuse, migration rolls.0005).

Held by tests/rolls/test_log.py (links, append-only, ``sent_as``), tests/rolls/test_concurrency.py
(races between processes, the retry under the lock, dice drawn for a place taken: ``HeadMoved``),
tests/rolls/test_integrity.py (the triggers) — those two PostgreSQL only, run by .ci/run's
PostgreSQL pass — and tests/rolls/test_verifiable_dice.py (a proof checked at its place).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import orjson
from django.db import models
from django.db.backends.utils import CursorWrapper
from psycopg.types.json import Jsonb

import live
from log.models.head import LogHead
from web.database import column, table

if TYPE_CHECKING:
    from log.models.entry import RollEntry

# Each roller's count of proven rolls, by user id as text (``LogHead.counters``).
Counts = dict[str, int]
# A campaign's head as the append reads it: (length, hash, position secret, counters).
Head = tuple[int, str, str, Counts]


def json_bytes(value: Any) -> bytes:
    """``json.dumps(value)`` as UTF-8, written by orjson (the same JSON for an entry's columns);
    what orjson refuses goes the standard library's way, which writes it or refuses it."""
    try:
        return orjson.dumps(value)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value).encode()


def sent_as(field: Any, connection: Any) -> tuple[type, Any] | object | None:
    """How the append sends this column's value on PostgreSQL, when its field prepares values
    Django's own way for its class (checked by exact class: a subclass may prepare otherwise).

    - ``JSON_COLUMN``: a plain JSONField's value as orjson writes it, in the Jsonb wrapper Django would
      send with the standard library's dumps — the same JSON for what an entry holds (no floats:
      docs/roll-log.md), a fifth of the work.
    - ``(kind, wrap)``: a value of exactly type ``kind`` (``str``, ``int`` or ``bool``) is what
      the text, integer, key and boolean fields' preparation returns for it, in the parameter
      type Django gives an integer column (``wrap``, e.g. psycopg's ``Int4``; None: as it is); a
      value of any other type, or None, goes through the field's own ``get_db_prep_save``.

    Preparing each of the entry's 36 columns through its field (three to six calls each) was most
    of what writing it cost in Python (docs/performance.md). None: always the field's way.
    """
    kind = type(field)
    if kind.pre_save is not models.Field.pre_save:  # e.g. a date with auto_now
        return None
    if kind is models.JSONField:
        return JSON_COLUMN if field.encoder is None else None
    if kind in (models.ForeignKey, models.OneToOneField):
        kind = type(field.target_field)  # a key is prepared as the field it points to
    if kind in (models.CharField, models.TextField):
        return (str, None)
    if kind is models.BooleanField:
        return (bool, None)
    if kind in (models.AutoField, models.BigAutoField):
        return (int, None)  # an id as it is
    if kind in (
        models.IntegerField,
        models.BigIntegerField,
        models.PositiveIntegerField,
        models.PositiveBigIntegerField,
    ):
        # What connection.ops.adapt_integerfield_value does for an int.
        types = getattr(connection.ops, "integerfield_type_map", {})
        return (int, types[kind().get_internal_type()])
    return None


JSON_COLUMN = object()


class ChainSQL:
    """The append's statements, written once per database from the models' metadata.

    Building and compiling a query is most of what a statement costs in Django (about 0.5 ms
    each, the INSERT of an entry's thirty columns 1.7 ms; docs/performance.md), and every roll
    makes these with nothing but new values. The INSERT does what ``Model.save`` does for a new
    row (each field's ``pre_save`` and ``get_db_prep_save``); ``RollEntry`` has no save signals
    to send.

    On PostgreSQL the entry is written by one statement of data-modifying ``WITH`` clauses
    (:meth:`write`; invariants 4 and 5 above). SQLite has no data-modifying ``WITH``: there the
    lock, the insert and the move are separate statements (:meth:`lock_head`, :meth:`insert`,
    :meth:`move_head`).
    """

    _made: dict[str, ChainSQL] = {}

    @classmethod
    def of(cls, connection: Any, model: type[RollEntry]) -> ChainSQL:
        made = cls._made.get(connection.alias)
        if made is None:
            made = cls._made[connection.alias] = cls(connection, model)
        return made

    def __init__(self, connection: Any, model: type[RollEntry]) -> None:
        qn, head = connection.ops.quote_name, table(connection, LogHead)
        campaign, length, hash_, signature, signed_by, secret, counters = (
            column(connection, LogHead, name)
            for name in (
                "campaign",
                "length",
                "hash",
                "signature",
                "signed_by",
                "position_secret",
                "counters",
            )
        )
        self.counters_field = LogHead._meta.get_field("counters")
        self.connection = connection
        self.table, self.pk = model._meta.db_table, model._meta.pk
        self.one_statement = connection.vendor == "postgresql"
        self.fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        # How each column's value is sent on PostgreSQL (None: through its field's own
        # get_db_prep_save, as on SQLite), worked out once: see sent_as.
        self.sent_as: list[Any] = [
            sent_as(f, connection) if self.one_statement else None for f in self.fields
        ]
        columns = ", ".join(qn(f.column) for f in self.fields)
        values = ", ".join(["%s"] * len(self.fields))
        self.move = (
            f"UPDATE {head} SET {length} = %s, {hash_} = %s, {signature} = %s, {signed_by} = %s,"
            f" {counters} = %s WHERE {campaign} = %s"
        )
        for_update = " FOR UPDATE" if connection.features.has_select_for_update else ""
        self.peek = (
            f"SELECT {length}, {hash_}, {secret}, {counters} FROM {head} WHERE {campaign} = %s"
        )
        self.lock = f"{self.peek}{for_update}"
        if self.one_statement:
            # The head moves only from where the entry was linked, and the entry is inserted only
            # if it moved (the INSERT reads the UPDATE's row); its id comes back.
            pk = qn(self.pk.column)
            self.added_pk = f"added.{pk}"  # the new entry's id, for the announcement
            self.add = (
                f"WITH moved AS ({self.move} AND {length} = %s RETURNING 1), "
                f"added AS (INSERT INTO {qn(self.table)} ({columns}) SELECT {values} FROM moved "
                f"RETURNING {pk}) SELECT {pk}"
            )
        else:
            self.add = f"INSERT INTO {qn(self.table)} ({columns}) VALUES ({values})" + (
                f" RETURNING {qn(self.pk.column)}"
                if connection.features.can_return_columns_from_insert
                else ""
            )

    def _values(self, entry: RollEntry) -> list[Any]:
        values, state, connection = [], entry.__dict__, self.connection
        for field, sent_as in zip(self.fields, self.sent_as, strict=True):
            if sent_as is None:
                values.append(field.get_db_prep_save(field.pre_save(entry, True), connection))
                continue
            value = state[field.attname]  # Field.pre_save reads it so
            if sent_as is JSON_COLUMN:
                values.append(None if value is None else Jsonb(value, dumps=json_bytes))
            elif type(value) is sent_as[0]:
                wrap = sent_as[1]
                values.append(value if wrap is None else wrap(value))
            else:
                values.append(field.get_db_prep_save(value, connection))
        return values

    def peek_head(self, cursor: CursorWrapper, campaign_pk: int) -> Head | None:
        """The campaign's head as it is now, ``(length, hash, position secret, counters)``; None
        if it has none (a campaign from before heads existed)."""
        cursor.execute(self.peek, [campaign_pk])
        return self._head(cursor.fetchone())

    def lock_head(self, cursor: CursorWrapper, campaign_pk: int) -> Head | None:
        """:meth:`peek_head`, its row locked until the transaction ends (invariant 4)."""
        cursor.execute(self.lock, [campaign_pk])
        return self._head(cursor.fetchone())

    def _head(self, row: tuple[int, str, str, str | None] | None) -> Head | None:
        if row is None:
            return None
        counters = row[3]
        if isinstance(counters, str):  # as Django has the driver give JSON: text
            return (row[0], row[1], row[2], json.loads(counters))
        return (row[0], row[1], row[2], counters or {})

    def _counters(self, counters: dict[str, int]) -> object:
        """The head's ``counters`` as the statement sends it (NULL for none), as Django would."""
        return self.counters_field.get_db_prep_save(counters or None, self.connection)

    def move_head(
        self, cursor: CursorWrapper, entry: RollEntry, head_signature: str, counters: Counts
    ) -> None:
        """SQLite, under the write lock: move the head to ``entry``, just inserted."""
        text = json.dumps(counters) if counters else None  # SQLite keeps JSON as text
        cursor.execute(
            self.move,
            [entry.seq, entry.hash, head_signature, entry.signed_by, text, entry.campaign_id],
        )

    @property
    def announced(self) -> bool:
        """Does :meth:`write` announce the entry itself (the ``postgres`` live transport)?"""
        return live.backend() == live.POSTGRES

    def write(
        self,
        cursor: CursorWrapper,
        entry: RollEntry,
        head_signature: str,
        counters: Counts,
        *,
        expected: int,
    ) -> bool:
        """PostgreSQL: insert ``entry``, move the head to it and (with the ``postgres`` transport)
        announce it, in one statement — only if the head is still at length ``expected``. False
        when it wasn't, and then nothing was written; True with the entry's new pk set."""
        move: list[object] = [
            entry.seq,
            entry.hash,
            head_signature,
            entry.signed_by,
            self._counters(counters),
            entry.campaign_id,
            expected,
        ]
        expression, extra = "", tuple[str, ...]()
        if self.announced:
            expression, extra = live.announcement_with_id(entry.campaign_id, "entry", self.added_pk)
            expression = ", " + expression
        params: list[Any] = [*move, *self._values(entry), *extra]
        cursor.execute(f"{self.add}{expression} FROM added", params)
        row = cursor.fetchone()
        if row is None:
            return False
        entry.pk = row[0]
        return True

    def insert(self, cursor: CursorWrapper, entry: RollEntry) -> None:
        cursor.execute(self.add, self._values(entry))
        if self.connection.features.can_return_columns_from_insert:
            entry.pk = cursor.fetchone()[0]
        else:  # pragma: no cover - SQLite ≥ 3.35 returns it
            entry.pk = self.connection.ops.last_insert_id(cursor, self.table, self.pk.column)
