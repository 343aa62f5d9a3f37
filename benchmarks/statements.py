"""Every SQL statement a benchmark server runs, counted across its threads (bench only).

A roll's cost is spread over processes' threads: the request's own thread, the event stream's
worker threads that read and render the entry for each open page, the follow-up requests. Django's
``connection.queries`` lives in one thread and needs DEBUG; PostgreSQL's pg_stat_statements needs a
server restart to load. So the benchmark server (``BENCH_STATEMENTS=1``, benchmarks/settings.py)
wraps every database connection it opens with Django's ``connection.execute_wrapper`` and counts
into one process-wide counter, which ``GET /bench/statements/`` reads (benchmarks/views.py).

What it can't see: BEGIN/COMMIT (transaction control doesn't pass execute wrappers) and the live
hub's own LISTEN connection (psycopg, not Django's).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

_total = [0]
_lock = threading.Lock()
# The connection objects already wrapped: Django keeps one per thread and reconnects it after a
# close (the stream's worker threads close theirs after every read), and connection_created fires
# on each reconnect — a second wrapper would count every statement twice.
_wrapped: weakref.WeakKeyDictionary[Any, ExitStack] = weakref.WeakKeyDictionary()


def count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    with _lock:
        _total[0] += 1
    return execute(sql, params, many, context)


def wrap(sender: Any, connection: Any, **kwargs: Any) -> None:
    """connection_created receiver: wrap ``connection`` for the rest of its life (once)."""
    with _lock:
        if connection in _wrapped:
            return
        stack = ExitStack()
        # Entered and never left: the wrapper must outlive the request that opened the connection.
        stack.enter_context(connection.execute_wrapper(count))
        _wrapped[connection] = stack


def total() -> int:
    with _lock:
        return _total[0]
