"""Heavy reads stop when their client goes (issue 32 item 4; docs/log-tools.md).

Under ASGI Django notices a client's disconnect while a request is handled and cancels the
request's task — but a synchronous view runs in a thread, which goes on to the end of its query
(at worst the statement timeout): nobody reads the answer, and a worker and a database connection
stay busy. ``stops_when_abandoned`` runs a view so that the cancellation reaches the database:

* the view runs in its thread (``sync_to_async``, as Django would run it) under a
  ``connection.execute_wrapper`` that knows which statement is running on which connection;
* when the request's task is cancelled (the client went), the running statement is cancelled on
  the server (PostgreSQL: psycopg's cancel request; SQLite: ``interrupt()``) and every later
  statement of the view fails before it is sent, so the thread ends within moments;
* the cancellation is sent while the statement is known to be running (under a lock the
  statement's end also takes), so it never lands on a connection already back in the pool.

Streaming responses (the exports) need nothing more: their body is an async iterator that reads
one chunk at a time, and Django stops iterating when the client goes.

Under WSGI, or Django's test client, the view simply runs: nothing cancels it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, HttpResponseBase

logger = logging.getLogger(__name__)


class Abandoned(OperationalError):
    """A statement refused because the request's client has gone."""


class StatementGuard:
    """An execute wrapper (Django's ``connection.execute_wrapper``) that can cancel the statement
    it runs from another thread, and refuses every statement after that."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # The database wrapper whose statement is running, or None.
        self._running: BaseDatabaseWrapper | None = None
        self.cancelled = False

    def __call__(
        self, execute: Callable[..., object], sql: str, params: Any, many: bool, context: Any
    ) -> object:
        with self._lock:
            if self.cancelled:
                raise Abandoned("The client has gone; the request's statements are cancelled.")
            self._running = context["connection"]
        try:
            return execute(sql, params, many, context)
        finally:
            with self._lock:
                self._running = None

    def cancel(self) -> None:
        """Cancel the running statement (if any) and refuse the next ones."""
        with self._lock:
            self.cancelled = True
            running = self._running
            if running is None or running.connection is None:
                return
            try:
                if running.vendor == "postgresql":
                    raw = running.connection
                    (getattr(raw, "cancel_safe", None) or raw.cancel)()
                elif running.vendor == "sqlite":
                    running.connection.interrupt()
            except Exception:  # a cancel that fails leaves the statement to its timeout
                logger.warning("Could not cancel an abandoned request's statement", exc_info=True)


def _retrieve(task: asyncio.Future[object]) -> None:
    # The thread of an abandoned view ends with the cancelled statement's error: expected, and
    # nobody is left to answer.
    if not task.cancelled():
        task.exception()


def stops_when_abandoned(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., Any]:
    """An async view running the synchronous ``view`` so that its statements are cancelled
    when the client disconnects (the module's docstring)."""

    def guarded(guard: StatementGuard, request: HttpRequest, *args: object, **kwargs: Any) -> Any:
        with connection.execute_wrapper(guard):
            return view(request, *args, **kwargs)

    @wraps(view)
    async def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        guard = StatementGuard()
        task = asyncio.ensure_future(sync_to_async(guarded)(guard, request, *args, **kwargs))
        try:
            # Shielded: a cancellation (the client went) reaches this await at once instead of
            # waiting for the thread to finish; the thread is then stopped through its statements.
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            guard.cancel()
            task.add_done_callback(_retrieve)
            raise

    return wrapped
