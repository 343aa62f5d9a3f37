"""The roll's row read: one statement per row kind, written once from the models' metadata and run
through ``connection.cursor()``; its instances made by ``Model.from_db`` (docs/architecture.md,
"Performance code that remains").

A roll reads its row with the sheet, the character, the campaign and its log head, the roller's
membership and what the panel reads about the sheet (``RollForm.roll_state``: ORM queries, which
Django's compiler writes as SQL once, here). Built with the ORM, compiling that query was a
quarter of a roll's Python, about 2 ms of CPU (docs/performance.md, "The roll's row read"); the
SQL never changes but for its three values, so it is written once per kind and database. Each column's value
goes through the converters Django's compiler applies to it (on SQLite a timestamp becomes an aware
datetime), and each related instance is set on its parent through the relation's descriptor, as
``select_related`` would leave it: reading ``row.sheet.character.campaign`` runs no query.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections, models
from django.db.models import Expression, prefetch_related_objects
from django.db.models.expressions import RawSQL

from sheets.models import Membership
from sheets.models.base import StateRead
from web.database import column, table

# A form's roll state: the row's sheet's pk, as an expression → {attribute name: a query of one
# value over it}.
type RollState = Callable[[Expression], dict[str, StateRead]]

_Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class _Part:
    """One model instance of the row read: the row itself, a model it reaches by a key (or a
    reverse one-to-one), or the viewer's membership."""

    model: type[models.Model]
    parent: int  # the part it is set on (-1: none)
    attr: str  # its name there
    outer: bool  # may be missing (a LEFT JOIN): then None, or left unset for a reverse relation
    reverse: bool  # a reverse one-to-one: left unset when missing (Django caches no None there)
    start: int  # where its columns start in the row
    names: tuple[str, ...]  # its concrete fields' attnames, in the model's order
    pk_at: int  # where its pk is among them
    converters: tuple[tuple[int, tuple[_Converter, ...], Any], ...]  # (column, converters, col)


@dataclass(frozen=True)
class RowRead:
    """The row of one kind by its pk and its sheet's pk, as the user with that id reads it:
    :meth:`write` writes it, :meth:`load` runs it on the calling thread's connection."""

    alias: str  # the database's
    sql: str
    parts: tuple[_Part, ...]
    state_names: tuple[str, ...]  # the roll state's attributes, the row's last columns
    state_start: int
    state_params: tuple[Any, ...]  # the roll state's parameters, first in the statement
    prefetch: tuple[str, ...]

    @classmethod
    def write(
        cls,
        connection: Any,
        model: type[models.Model],
        lookup: str,
        related: Sequence[str],
        *,
        campaign: str,
        roll_state: RollState,
        prefetch: Sequence[str] = (),
    ) -> RowRead:
        """``lookup``: the row's path to its sheet's pk (``sheet_id``, ``vocation__sheet_id``);
        ``related``: the paths loaded with it (forward keys, or a reverse one-to-one last);
        ``campaign``: the path to the campaign whose membership is the viewer's. ``connection``
        is only written with: each thread runs the statement on its own."""
        writer = _Writer(connection, model)
        for path in related:
            writer.join_path(path)
        writer.viewer(writer.join_path(campaign))
        *to_sheet, sheet_pk = lookup.split("__")
        where = writer.qualified(writer.join_path("__".join(to_sheet)), sheet_pk)
        state = roll_state(RawSQL(where, (), output_field=models.IntegerField()))
        state_start, state_params = len(writer.columns), list[Any]()
        for query in state.values():
            # Django's compiler writes each query once; it runs as a subquery of the row's.
            sql, params = query.query.sql_with_params()
            writer.columns.append(f"({sql})")
            state_params += params
        pk = writer.qualified(0, model._meta.pk.attname)
        sql = (
            f"SELECT {', '.join(writer.columns)} FROM {writer.table_as(0)} "
            f"{' '.join(writer.joins)} WHERE {pk} = %s AND {where} = %s"
        )
        return cls(
            connection.alias,
            sql,
            tuple(writer.parts),
            tuple(state),
            state_start,
            tuple(state_params),
            tuple(prefetch),
        )

    def load(self, pk: int, sheet_pk: int, user_id: int) -> Any | None:
        """The row, its related instances set on it, ``viewer`` (the user's membership of the
        campaign, None for a non-member) and the roll state as attributes; None if no row."""
        connection = connections[self.alias]
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [*self.state_params, user_id, pk, sheet_pk])
            found = cursor.fetchone()
        if found is None:
            return None
        made: list[Any] = []
        for part in self.parts:
            instance = self._instance(part, found, connection)
            made.append(instance)
            parent = made[part.parent] if part.parent >= 0 else None
            if parent is None or (instance is None and part.reverse):
                continue
            setattr(parent, part.attr, instance)
        row = made[0]
        for name, value in zip(self.state_names, found[self.state_start :], strict=True):
            setattr(row, name, value)
        if self.prefetch:
            prefetch_related_objects([row], *self.prefetch)
        return row

    def _instance(self, part: _Part, found: Sequence[Any], connection: Any) -> models.Model | None:
        values = list(found[part.start : part.start + len(part.names)])
        if part.outer and values[part.pk_at] is None:
            return None
        # The backend's converters were taken from the connection the statement was written
        # with: what they do depends on the database's settings (its time zone), not on which
        # thread's connection runs it.
        for index, converters, col in part.converters:
            for converter in converters:
                values[index] = converter(values[index], col, connection)
        return part.model.from_db(self.alias, part.names, values)


class _Writer:
    """The statement's parts, columns and joins as they are written."""

    def __init__(self, connection: Any, model: type[models.Model]) -> None:
        self.connection = connection
        self.parts: list[_Part] = []
        self.columns: list[str] = []
        self.joins: list[str] = []
        self.aliases: dict[str, int] = {"": self.add(model, -1, "", outer=False, reverse=False)}

    def join_path(self, path: str) -> int:
        """The part at ``path`` (joined on first use, with every part before it)."""
        if path in self.aliases:
            return self.aliases[path]
        head, _, name = path.rpartition("__")
        parent = self.join_path(head)
        field: Any = self.parts[parent].model._meta.get_field(name)  # a key or a relation
        outer = self.parts[parent].outer
        target = field.related_model
        if field.concrete and (field.many_to_one or field.one_to_one):
            theirs, ours, reverse = field.target_field.attname, field.attname, False
            outer = outer or field.null
        elif field.one_to_one:  # the reverse of a one-to-one key: at most one row
            key = field.remote_field
            theirs, ours, reverse, outer = key.attname, key.target_field.attname, True, True
        else:
            raise ValueError(f"{path}: a row read follows keys and reverse one-to-ones only")
        index = self.add(target, parent, name, outer=outer, reverse=reverse)
        join = "LEFT OUTER JOIN" if outer else "INNER JOIN"
        self.joins.append(
            f"{join} {self.table_as(index)} ON "
            f"{self.qualified(index, theirs)} = {self.qualified(parent, ours)}"
        )
        self.aliases[path] = index
        return index

    def viewer(self, campaign: int) -> None:
        """The user's membership of the campaign, as ``sheets.access.with_viewer`` joins it."""
        index = self.add(Membership, 0, "viewer", outer=True, reverse=False)
        key = self.parts[campaign].model._meta.pk.attname
        self.joins.append(
            f"LEFT OUTER JOIN {self.table_as(index)} ON "
            f"{self.qualified(index, 'campaign_id')} = {self.qualified(campaign, key)} "
            f"AND {self.qualified(index, 'user_id')} = %s"
        )

    def add(
        self, model: type[models.Model], parent: int, attr: str, *, outer: bool, reverse: bool
    ) -> int:
        index = len(self.parts)
        fields = list(model._meta.concrete_fields)
        converters = []
        for position, field in enumerate(fields):
            col = field.get_col(f"t{index}")
            found = self.connection.ops.get_db_converters(col) + field.get_db_converters(
                self.connection
            )
            if found:
                converters.append((position, tuple(found), col))
        self.parts.append(
            _Part(
                model,
                parent,
                attr,
                outer,
                reverse,
                len(self.columns),
                tuple(field.attname for field in fields),
                fields.index(model._meta.pk),
                tuple(converters),
            )
        )
        quote = self.connection.ops.quote_name
        self.columns += [f"t{index}.{quote(field.column)}" for field in fields]
        return index

    def table_as(self, index: int) -> str:
        return f"{table(self.connection, self.parts[index].model)} t{index}"

    def qualified(self, index: int, attname: str) -> str:
        """``t<index>.<column>`` of the field ``attname`` of that part's model."""
        return f"t{index}.{column(self.connection, self.parts[index].model, attname)}"
