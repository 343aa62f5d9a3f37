"""Live events: one small wake-up per committed change, fanned out to every open stream.

The database stays the source of truth. An event only says "campaign C has something new of kind K
with id N"; a stream answers it by reading what it may see from the database. A stream that might
have missed events (a dropped connection, a full queue, a listener that had to reconnect) gets a
``RESYNC`` marker and re-reads everything after its last event id, so no entry is ever lost —
events only make delivery fast.

Transport, chosen by the database in use:

* **PostgreSQL**: ``NOTIFY`` inside the writing transaction and one ``LISTEN`` connection per event
  loop (one per server process in production), so every process hears every event. We use this
  rather than Redis pub/sub because NOTIFY is transactional — delivered on commit, dropped on
  rollback, so a stream never hears of an entry it cannot read yet — and because it needs no second
  service to run, secure and monitor next to the database we already have.
* **SQLite** (the embedded, single-process setup): an in-memory hub fed by ``on_commit``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass

from django.db import connection, transaction

logger = logging.getLogger(__name__)

CHANNEL = "poolside_events"
QUEUE_SIZE = 256  # a stream further behind than this resyncs from the database instead
RECONNECT_DELAY = 1.0  # seconds between attempts when the LISTEN connection is lost


@dataclass(frozen=True, slots=True)
class Event:
    campaign: int
    kind: str
    id: int
    # The roll entry that caused the change, if one did: a stream passes the event on only to a
    # member who may know that entry exists (a hidden roll answering a call tells nobody else).
    cause: int | None = None

    def to_json(self) -> str:
        data = {"campaign": self.campaign, "kind": self.kind, "id": self.id}
        if self.cause is not None:
            data["cause"] = self.cause
        return json.dumps(data)

    @classmethod
    def from_json(cls, payload: str) -> Event:
        data = json.loads(payload)
        cause = data.get("cause")
        return cls(
            campaign=int(data["campaign"]),
            kind=str(data["kind"]),
            id=int(data["id"]),
            cause=None if cause is None else int(cause),
        )


RESYNC = Event(campaign=0, kind="resync", id=0)


class Subscription:
    """One open stream's inbox for one campaign."""

    def __init__(self, campaign: int, loop: asyncio.AbstractEventLoop) -> None:
        self.campaign = campaign
        self.loop = loop
        self.queue: asyncio.Queue[Event] = asyncio.Queue(maxsize=QUEUE_SIZE)

    def deliver(self, event: Event) -> None:
        """Runs on the subscription's loop."""
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            # Too far behind: drop the backlog and let the stream re-read from the database.
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(RESYNC)

    async def get(self, timeout: float | None = None) -> Event | None:
        """The next event, or None after ``timeout`` seconds (streams use it for keep-alives)."""
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


class Hub:
    def __init__(self) -> None:
        self._subscriptions: set[Subscription] = set()
        self._listeners: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}

    @property
    def subscriber_count(self) -> int:
        return len(self._subscriptions)

    @asynccontextmanager
    async def subscribe(self, campaign: int) -> AsyncIterator[Subscription]:
        loop = asyncio.get_running_loop()
        subscription = Subscription(campaign, loop)
        self._subscriptions.add(subscription)
        try:
            if _uses_postgresql():
                await self._ensure_listener(loop)
            yield subscription
        finally:
            self._subscriptions.discard(subscription)
            if not any(s.loop is loop for s in self._subscriptions):
                task = self._listeners.pop(loop, None)
                if task is not None:
                    task.cancel()
                    with suppress(asyncio.CancelledError, Exception):
                        await task

    def dispatch(self, event: Event) -> None:
        """Hand an event to every subscription of its campaign, on each one's own loop."""
        for subscription in list(self._subscriptions):
            if event is RESYNC or subscription.campaign == event.campaign:
                _call_on_loop(subscription.loop, subscription.deliver, event)

    def _dispatch_local(self, loop: asyncio.AbstractEventLoop, event: Event) -> None:
        for subscription in list(self._subscriptions):
            if subscription.loop is loop and (
                event is RESYNC or subscription.campaign == event.campaign
            ):
                subscription.deliver(event)

    async def _ensure_listener(self, loop: asyncio.AbstractEventLoop) -> None:
        task = self._listeners.get(loop)
        if task is None or task.done():
            ready = loop.create_future()
            self._listeners[loop] = loop.create_task(self._listen(loop, ready))
            # Wait until LISTEN is in place, so an event committed right after subscribe() is heard.
            await ready

    async def _listen(self, loop: asyncio.AbstractEventLoop, ready: asyncio.Future[None]) -> None:
        import psycopg  # only needed with PostgreSQL

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    _conninfo(), autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if first:
                        first = False
                        if not ready.done():
                            ready.set_result(None)
                    else:
                        # Events may have been sent while we were away: every stream re-reads.
                        self._dispatch_local(loop, RESYNC)
                    async for notify in conn.notifies():
                        try:
                            event = Event.from_json(notify.payload)
                        except (ValueError, KeyError, TypeError):
                            logger.warning("Ignoring malformed live event %r", notify.payload)
                            continue
                        self._dispatch_local(loop, event)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: keep trying, streams resync
                if not ready.done():
                    ready.set_exception(error)
                    return
                logger.warning("Live events: LISTEN connection lost (%s); reconnecting", error)
                await asyncio.sleep(RECONNECT_DELAY)


def _call_on_loop(
    loop: asyncio.AbstractEventLoop, callback: Callable[[Event], object], event: Event
) -> None:
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        callback(event)
    elif not loop.is_closed():
        loop.call_soon_threadsafe(callback, event)


def _uses_postgresql() -> bool:
    return connection.vendor == "postgresql"


def _conninfo() -> str:
    from psycopg.conninfo import make_conninfo

    s = connection.settings_dict
    params = {
        "dbname": s["NAME"],
        "user": s.get("USER") or None,
        "password": s.get("PASSWORD") or None,
        "host": s.get("HOST") or None,
        "port": str(s["PORT"]) if s.get("PORT") else None,
    }
    return make_conninfo(**{k: v for k, v in params.items() if v is not None})


hub = Hub()


def publish(campaign: int, kind: str, id: int, *, cause: int | None = None) -> None:
    """Announce a change. Call it inside the transaction that writes the change: listeners hear of
    it only if and when that transaction commits. ``cause``: the roll entry behind the change
    (only members who may know of it hear of the change)."""
    event = Event(campaign=campaign, kind=kind, id=id, cause=cause)
    if _uses_postgresql():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, event.to_json()])
    else:
        transaction.on_commit(lambda: hub.dispatch(event))
