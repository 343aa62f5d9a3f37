"""Queries built and compiled once per process, then run with new values: for the roll path.

Building a queryset and compiling it to SQL is most of what a query costs in Django: on the
roll's row query (the row, its sheet, character, campaign, the roller's membership and the
panel's state) about 4 ms of Python against 0.3 ms in PostgreSQL (docs/performance.md). A
:class:`Prepared` query is built once by the ORM with sentinel values, compiled once per
database, and each call only swaps the sentinels for the call's values and runs the SQL. Rows
still become model instances the ORM's way (``select_related``, annotations, converters, the
ORM's own ``from_db`` and related populators, worked out once with the SQL), so a prepared query
returns exactly what the queryset it was built from returns.

The values are integers or strings that are plain parameters of the SQL (``pk=value``,
``user_id=value`` in a filter or a ``FilteredRelation`` condition), never something that changes
the SQL's shape (a list for ``__in``, ``None``): building refuses a value it can't find among the
parameters, and :meth:`Prepared.fetch` one of another type.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet, prefetch_related_objects
from django.db.models.base import ModelState
from django.db.models.fetch_modes import FETCH_ONE
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query import (  # type: ignore[attr-defined]
    ModelIterable,
    _get_from_db,
    get_related_populators,
)
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.db.models.sql import Query

# Values no real row, user or key has (primary keys are positive, keys have no NUL), each used
# once per build; within a 32-bit integer field's range, or Django would compile a lookup of it
# to "no rows" instead of to a parameter.
_SENTINELS = itertools.count(-(2**31) + 1)


def _sentinel(kind: type) -> int | str:
    number = next(_SENTINELS)
    return number if kind is int else f"\x00prepared{number}"


# What a compiler works out while compiling and then reads to turn rows into instances.
_COMPILER_STATE = ("select", "klass_info", "annotation_col_map", "col_count", "has_extra_select")


# The queryset a build made (its query now a _PreparedQuery) and which parameter each value
# replaces.
type _Compiled[M: Model] = tuple[QuerySet[M], tuple[Any, ...], list[str | None]]


class _PreparedQuery(Query):
    """A query whose compiler is given its SQL and state instead of working them out: the SQL,
    the compiler's state after compiling (with the columns' converters, which Django would work
    out again for every row set) and this run's parameters."""

    sql: str
    state: dict[str, Any]
    params: tuple[Any, ...]

    def clone(self) -> _PreparedQuery:
        # Nothing of a prepared query changes but its parameters: a shallow copy will do
        # (Query.clone deep-copies the select_related tree, the where clause…).
        obj = _PreparedQuery.__new__(_PreparedQuery)
        obj.__dict__ = self.__dict__.copy()
        return obj

    def get_compiler(
        self, using: Any = None, connection: Any = None, elide_empty: bool = True
    ) -> Any:
        compiler = super().get_compiler(using, connection, elide_empty)
        compiler.__dict__.update(self.state)
        sql, params, converters = self.sql, self.params, self.state["converters"]
        compiler.as_sql = lambda *args, **kwargs: (sql, params)
        compiler.get_converters = lambda expressions: converters
        # Whether a column is a composite key's, worked out over every column on every run.
        compiler.has_composite_fields = lambda expressions: False
        return compiler


def _rows(compiler: Any, db: str) -> tuple[Any, ...]:
    """What ``ModelIterable`` works out from a compiled query before reading its rows (for
    :func:`_read`, which reads them as it does), each model's ``from_db`` :func:`_from_db`'s."""
    select, klass_info = compiler.select, compiler.klass_info
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    populators = get_related_populators(klass_info, select, db, FETCH_ONE)
    around = list(populators)
    while around:  # the related rows' populators, at every depth
        populator = around.pop()
        populator.from_db = _from_db(populator.model_cls)  # type: ignore[attr-defined]
        around += populator.related_populators
    return (
        _from_db(klass_info["model"]),
        [column[0].target.attname for column in select[start:end]],
        start,
        end,
        populators,
        tuple((compiler.annotation_col_map or {}).items()),
    )


def _from_db(model: type[Model]) -> Callable[[str, list[str], Any], Model]:
    """``model.from_db`` in the default fetch mode, making a full row's instance as unpickling
    makes one — its attributes set in one update of its dict — instead of through
    ``Model.__init__``, which sets each field through ``setattr`` (each foreign key's id through
    its descriptor) and sends ``pre_init`` and ``post_init``: about half of what reading a
    model's row cost (docs/performance.md). Only for a model :func:`attnames_if_plain` accepts,
    and only while nothing listens to those signals for it; otherwise, and for a row with
    deferred fields, Django's own."""
    django = _get_from_db(model, FETCH_ONE)
    attnames = attnames_if_plain(model)
    if attnames is None:
        return django
    width = len(attnames)

    def from_db(db: str, field_names: list[str], values: Any) -> Model:
        # As Django's from_db: a full row's values are in the concrete fields' order.
        new = (
            made_plainly(model, zip(attnames, values, strict=True))
            if len(values) == width
            else None
        )
        if new is None:
            return django(db, field_names, values)
        new._state.adding, new._state.db, new._state.fetch_mode = False, db, FETCH_ONE
        return new

    return from_db


@cache
def attnames_if_plain(model: type[Model]) -> tuple[str, ...] | None:
    """The attribute names of ``model``'s concrete fields, if an instance can be made by setting
    them in its dict: the model makes instances Django's way (no ``__init__`` or ``from_db`` of
    its own) and each field's descriptor on the model only stores the value (a foreign key's id
    descriptor also drops a cached related object that no longer matches: a new instance has
    none). None otherwise."""
    if model.__init__ is not Model.__init__ or model.from_db.__func__ is not _MODEL_FROM_DB:  # type: ignore[attr-defined]
        return None
    fields = model._meta.concrete_fields
    if any(type(model.__dict__.get(f.attname)) not in _STORING for f in fields):
        return None
    return tuple(f.attname for f in fields)


def made_plainly[M: Model](model: type[M], attributes: Iterable[tuple[str, Any]]) -> M | None:
    """An instance of ``model`` (one :func:`attnames_if_plain` accepts) with ``attributes``
    (attribute name, value) set in its dict, made as unpickling makes one: no ``Model.__init__``.
    None while anything listens to ``pre_init``/``post_init`` for the model (listeners come and
    go, so this is asked on every call): the caller then makes it Django's way."""
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return None
    new = model.__new__(model)
    new.__dict__.update(attributes)
    new._state = ModelState()
    return new


_STORING = (DeferredAttribute, ForeignKeyDeferredAttribute)
_MODEL_FROM_DB = Model.from_db.__func__  # type: ignore[attr-defined]


def _read(query: _PreparedQuery, params: tuple[Any, ...], using: str) -> list[Any]:
    """The instances of a prepared model query's rows, as Django's ``ModelIterable`` makes them
    (its columns' converters applied, ``from_db``, the related objects' populators, the
    annotations), read without a queryset, a compiler and their generators: a queryset run
    clones itself, makes a compiler and works through ``execute_sql`` and ``results_iter`` —
    tens of microseconds a run for nothing that changes between runs. Only for what
    ``ModelIterable`` does with these alone (:meth:`Prepared._compile` checks)."""
    with connections[using].cursor() as cursor:
        cursor.execute(query.sql, params)
        return _instances(query.state, cursor.fetchall(), using)


def _instances(state: dict[str, Any], rows: Iterable[Any], using: str) -> list[Any]:
    """:func:`_read`'s instances of ``rows``, read by a prepared query of this ``state``."""
    connection = connections[using]
    from_db, init_list, start, end, populators, annotations = state["rows"]
    converters = state["converter_items"]
    width = state["col_count"] if state["has_extra_select"] else None
    found = []
    for row in rows:
        if width is not None:
            row = row[:width]
        if converters:
            row = list(row)
            for position, (functions, expression) in converters:
                value = row[position]
                for convert in functions:
                    value = convert(value, expression, connection)
                row[position] = value
        obj = from_db(using, init_list, row[start:end])
        for populator in populators:
            populator.populate(row, obj)
        for name, position in annotations:
            setattr(obj, name, row[position])
        found.append(obj)
    return found


class Prepared[M: Model]:
    """``build(**values)`` → a queryset, compiled once per database; :meth:`fetch` runs it.
    ``kinds`` names the values and their types (``int`` or ``str``)."""

    def __init__(self, build: Callable[..., QuerySet[M]], **kinds: type) -> None:
        if not set(kinds.values()) <= {int, str}:
            raise TypeError("A prepared value is an int or a str.")
        self.build = build
        self.kinds = kinds
        self._compiled: dict[str, _Compiled[M]] = {}

    def _compile(self, using: str) -> _Compiled[M]:
        sentinels = {name: _sentinel(kind) for name, kind in self.kinds.items()}
        queryset = self.build(**sentinels)
        compiler = queryset.query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        by_value = {value: name for name, value in sentinels.items()}
        slots = [by_value.get(param) if isinstance(param, int | str) else None for param in params]
        missing = set(self.kinds) - set(slots)
        if missing:
            raise ValueError(f"{', '.join(sorted(missing))}: not a parameter of the SQL")
        query = queryset.query
        query.__class__ = _PreparedQuery
        query.sql = sql  # type: ignore[attr-defined]
        query.state = {name: getattr(compiler, name) for name in _COMPILER_STATE}  # type: ignore[attr-defined]
        columns = [column[0] for column in compiler.select[: compiler.col_count]]
        query.state["converters"] = compiler.get_converters(columns)  # type: ignore[attr-defined]
        if compiler.has_composite_fields(columns):
            raise ValueError("A prepared query selects no composite key.")
        if queryset._iterable_class is ModelIterable:
            known, mode = queryset._known_related_objects, queryset._fetch_mode  # type: ignore[attr-defined]
            if known or mode is not FETCH_ONE:
                raise ValueError("A prepared query is a manager's, in the default fetch mode.")
            query.state["rows"] = _rows(compiler, using)  # type: ignore[attr-defined]
            query.state["converter_items"] = list(query.state["converters"].items())  # type: ignore[attr-defined]
        compiled: _Compiled[M] = (queryset, tuple(params), slots)
        self._compiled[using] = compiled
        return compiled

    def compiled(self, using: str) -> _Compiled[M]:
        """The queryset compiled for ``using``, its parameters and which value each one is."""
        return self._compiled.get(using) or self._compile(using)

    def check(self, values: dict[str, Any], but: str = "") -> None:
        """Refuse a missing value (``but`` may be), or one of another type than its name's."""
        for name, kind in self.kinds.items():
            if name != but and type(values[name]) is not kind:
                raise TypeError(f"{name}: expected {kind.__name__}, got {values[name]!r}")

    def fetch(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[M]:
        """The rows for ``values`` (one per name given at construction)."""
        self.check(values)
        queryset, params, slots = self.compiled(using)
        run_params = tuple(
            values[slot] if slot else param for param, slot in zip(params, slots, strict=True)
        )
        query: Any = queryset.query
        if "rows" in query.state:  # model instances: read directly
            found = _read(query, run_params, using)
            return _prefetched(queryset, found)
        run = queryset.all()  # a copy (shallow: _PreparedQuery.clone) for this run's values
        run.query.params = run_params  # type: ignore[attr-defined]
        return list(run)


def _prefetched[M: Model](queryset: QuerySet[M], found: list[M]) -> list[M]:
    if queryset._prefetch_related_lookups:  # type: ignore[attr-defined]
        prefetch_related_objects(found, *queryset._prefetch_related_lookups)  # type: ignore[attr-defined]
    return found


# A parameter's placeholder in Django's SQL, and a percent sign written out.
_PLACEHOLDERS = re.compile(r"(%%|%s)")


class Along[O: Model, M: Model]:
    """Two prepared model queries run as one statement, one round trip: ``first``, which reads
    at most one row (by a unique key), and ``then``, whose value named ``link[0]`` is the
    column ``link[1]`` of ``first``'s row — the roll's row read with the session, whose user it
    is for (config/sessions.py). Each query's rows are the instances its own :meth:`fetch`
    returns. ``then`` reads nothing when ``first`` finds no row, and ``NULL`` where ``first``'s
    column is ``NULL``.

    The statement is ``first`` in a ``WITH`` and ``then`` left-joined to it, the linked
    placeholders replaced by a subquery of the ``WITH``: both in one snapshot, so what ``then``
    read is for the very row ``first`` returned. Standard SQL, the same on PostgreSQL and
    SQLite."""

    def __init__(self, first: Prepared[O], then: Prepared[M], link: tuple[str, str]) -> None:
        if link[0] not in then.kinds:
            raise ValueError(f"{link[0]}: not a value of the second query")
        if set(first.kinds) & set(then.kinds):
            raise ValueError("The two queries' values need names of their own.")
        self.first, self.then, self.link = first, then, link
        self._compiled: dict[str, tuple[str, tuple[Any, ...], list[str | None], int, int]] = {}

    def _compile(self, using: str) -> tuple[str, tuple[Any, ...], list[str | None], int, int]:
        first, first_params, first_slots = self.first.compiled(using)
        then, then_params, then_slots = self.then.compiled(using)
        state, then_state = first.query.state, then.query.state  # type: ignore[attr-defined]
        if "rows" not in state or "rows" not in then_state or state["has_extra_select"]:
            raise ValueError("Only queries of model instances, the first without extra columns.")
        width = state["col_count"]
        _, attnames, start, _, _, _ = state["rows"]
        if self.link[1] not in attnames:
            raise ValueError(f"{self.link[1]}: not a column of the first query's model")
        column = start + attnames.index(self.link[1])
        names = ", ".join(f"c{n}" for n in range(width))
        linked = f"(SELECT c{column} FROM first_row LIMIT 1)"
        pieces, params, slots, position = [], [], [], 0
        for piece in _PLACEHOLDERS.split(then.query.sql):  # type: ignore[attr-defined]
            if piece == "%s":
                if then_slots[position] == self.link[0]:
                    piece = linked
                else:
                    params.append(then_params[position])
                    slots.append(then_slots[position])
                position += 1
            pieces.append(piece)
        sql = (
            f"WITH first_row ({names}) AS ({first.query.sql}) "  # type: ignore[attr-defined]
            f"SELECT * FROM first_row LEFT JOIN ({''.join(pieces)}) AS then_rows ON 1 = 1"
        )
        _, then_attnames, then_start, _, _, _ = then_state["rows"]
        pk = width + then_start + then_attnames.index(then.model._meta.pk.attname)
        compiled = (sql, (*first_params, *params), [*first_slots, *slots], width, pk)
        self._compiled[using] = compiled
        return compiled

    def fetch(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> tuple[list[O], list[M]]:
        """``first``'s rows and ``then``'s, for ``values`` (both queries' but the linked one)."""
        self.first.check(values)
        self.then.check(values, but=self.link[0])
        sql, params, slots, width, pk = self._compiled.get(using) or self._compile(using)
        run_params = tuple(
            values[slot] if slot else param for param, slot in zip(params, slots, strict=True)
        )
        with connections[using].cursor() as cursor:
            cursor.execute(sql, run_params)
            rows = cursor.fetchall()
        if any(row[:width] != rows[0][:width] for row in rows):
            raise ValueError("The first query read more than one row.")
        first = self.first.compiled(using)[0]
        then = self.then.compiled(using)[0]
        return (
            _instances(first.query.state, [row[:width] for row in rows[:1]], using),  # type: ignore[attr-defined]
            _prefetched(
                then,
                _instances(
                    then.query.state,  # type: ignore[attr-defined]
                    [row[width:] for row in rows if row[pk] is not None],
                    using,
                ),
            ),
        )
