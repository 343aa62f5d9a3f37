"""The append's SQL: written once per database from the models' metadata, run through
``connection.cursor()`` (docs/architecture.md, "Appending to the log")."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import orjson
from django.db import models
from psycopg.types.json import Jsonb

import live
from log.models.head import LogHead
from web.database import column, table

if TYPE_CHECKING:
    from log.models.entry import RollEntry


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

    On PostgreSQL the entry is written by one statement of data-modifying ``WITH`` clauses: it
    moves the head only from the length the entry was linked to, inserts the entry only if the
    head moved, and (with the ``postgres`` live transport) notifies with the new id. Outside a
    transaction that is the whole append; inside one it follows the head's lock, under which the
    condition always holds. SQLite has no data-modifying ``WITH``: there the lock, the insert and
    the move are separate statements.
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
        campaign, length, hash_, signature, signed_by, secret = (
            column(connection, LogHead, name)
            for name in ("campaign", "length", "hash", "signature", "signed_by", "position_secret")
        )
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
            f"UPDATE {head} SET {length} = %s, {hash_} = %s, {signature} = %s, {signed_by} = %s"
            f" WHERE {campaign} = %s"
        )
        for_update = " FOR UPDATE" if connection.features.has_select_for_update else ""
        self.peek = f"SELECT {length}, {hash_}, {secret} FROM {head} WHERE {campaign} = %s"
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

    @property
    def announced(self) -> bool:
        """Does :meth:`write` announce the entry itself (the ``postgres`` live transport)?"""
        return live.backend() == live.POSTGRES

    def write(self, cursor: Any, entry: RollEntry, head_signature: str, *, expected: int) -> bool:
        """PostgreSQL: insert ``entry``, move the head to it and (with the ``postgres`` transport)
        announce it, in one statement — only if the head is still at length ``expected``. False
        when it wasn't, and then nothing was written; True with the entry's new pk set."""
        move = [
            entry.seq,
            entry.hash,
            head_signature,
            entry.signed_by,
            entry.campaign_id,
            expected,
        ]
        expression, extra = "", tuple[str, ...]()
        if self.announced:
            expression, extra = live.announcement_with_id(entry.campaign_id, "entry", self.added_pk)
            expression = ", " + expression
        cursor.execute(f"{self.add}{expression} FROM added", [*move, *self._values(entry), *extra])
        row = cursor.fetchone()
        if row is None:
            return False
        entry.pk = row[0]
        return True

    def insert(self, cursor: Any, entry: RollEntry) -> None:
        cursor.execute(self.add, self._values(entry))
        if self.connection.features.can_return_columns_from_insert:
            entry.pk = cursor.fetchone()[0]
        else:  # pragma: no cover - SQLite ≥ 3.35 returns it
            entry.pk = self.connection.ops.last_insert_id(cursor, self.table, self.pk.column)
