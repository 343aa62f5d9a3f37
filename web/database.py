"""Writing SQL from the models (:func:`table`, :func:`column`), and PostgreSQL's prepared
statements (``DATABASE_PREPARED_STATEMENTS``, config/settings.py): a statement prepared before a
migration changed a column it returns heals itself.

A prepared statement keeps its result's row type. After ``ALTER COLUMN … TYPE`` (a ``max_length``
changed, say) PostgreSQL refuses to run it — "cached plan must not change result type" — and
psycopg keeps using it: a server process that outlived a migration (between ``migrate`` and its
restart) would fail every run of that statement on that pooled connection. In a transaction the
rollback that follows makes psycopg forget its statements (it deallocates them on any
``ROLLBACK``); in autocommit nothing would, so there this wrapper does: ``DEALLOCATE ALL``, which
psycopg notices too, and the statement once more. Nothing ran — PostgreSQL refuses before
executing — so running it again is safe.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import NotSupportedError, models
from django.db.backends.base.base import BaseDatabaseWrapper

STALE_PLAN = "cached plan must not change result type"


def heal_stale_plans(sender: object, connection: BaseDatabaseWrapper, **kwargs: object) -> None:
    """``connection_created`` receiver: wraps the connection's statements (sheets/apps.py)."""
    if connection.vendor != "postgresql":
        return
    if not connection.settings_dict["OPTIONS"].get("prepare_threshold"):
        return
    if _run_again_if_stale not in connection.execute_wrappers:
        connection.execute_wrappers.append(_run_again_if_stale)


def _run_again_if_stale(
    execute: Callable[..., object], sql: str, params: object, many: bool, context: dict[str, Any]
) -> object:
    try:
        return execute(sql, params, many, context)
    except NotSupportedError as error:
        connection = context["connection"]
        if STALE_PLAN not in str(error) or connection.in_atomic_block:
            raise
        with connection.cursor() as cursor:
            cursor.execute("DEALLOCATE ALL")
        return execute(sql, params, many, context)


def table(connection: BaseDatabaseWrapper, model: type[models.Model]) -> str:
    """The quoted table of ``model``."""
    return str(connection.ops.quote_name(model._meta.db_table))


def column(connection: Any, model: type[models.Model], name: str) -> str:
    """The quoted column of ``model``'s field ``name`` (its name or its attname)."""
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise ValueError(f"{model.__name__}.{name} is a relation's other side, not a column")
    return str(connection.ops.quote_name(field.column))
