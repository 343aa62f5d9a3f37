"""Live events: one small wake-up per committed change, fanned out to every open stream.

The database stays the source of truth. An event only says "campaign C has something new of kind K
with id N"; a stream answers it by reading what it may see from the database. A stream that might
have missed events (a dropped connection, a full queue, a listener that had to reconnect) gets a
``RESYNC`` marker and re-reads everything after its last event id, so no entry is ever lost —
events only make delivery fast.

Transport, chosen by the ``LIVE_BACKEND`` setting (empty: by the database in use):

* ``postgres``: ``NOTIFY`` inside the writing transaction and one ``LISTEN`` connection per event
  loop (one per server process in production), so every process hears every event. NOTIFY is
  transactional — delivered on commit, dropped on rollback — and needs no second service, but
  PostgreSQL queues notifications in commit order under one database-wide lock, which every
  committing roll passes through.
* ``redis``: ``PUBLISH`` to Redis after the transaction commits (``on_commit``, so a rolled-back
  change is never announced) and one ``SUBSCRIBE`` connection per event loop. No lock in the
  database's commit path; the price is a second service. A message lost between commit and
  publish (Redis restarting) costs nothing but speed: a stream whose Redis connection dropped
  re-reads from the database, and a reconnecting browser replays from ``Last-Event-ID``.
* ``memory``: an in-memory hub fed by ``on_commit``, for one process (SQLite, ``make run``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.utils import load_backend

logger = logging.getLogger(__name__)

# Channel names carry the deployment's prefix (LIVE_CHANNEL_PREFIX, by default one made from the
# database's identity), so two deployments on one Redis — which ignores database numbers for
# pub/sub — or one PostgreSQL server never hear each other's events. On Redis each campaign has a
# channel of its own (``<prefix>:<campaign>``, heard through one pattern subscription); NOTIFY,
# scoped to its database already, uses the prefix as its one channel.
PREFIX_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")
QUEUE_SIZE = 256  # a stream further behind than this resyncs from the database instead
RECONNECT_DELAY = 1.0  # seconds between attempts when the LISTEN connection is lost


def channel_prefix() -> str:
    """The deployment's channel prefix: LIVE_CHANNEL_PREFIX, or ``poolside_`` and a digest of
    the default database's engine, host, port and name (a test database has its own)."""
    db = settings.DATABASES[DEFAULT_DB_ALIAS]
    return prefix_for(
        settings.LIVE_CHANNEL_PREFIX,
        f"{db['ENGINE']}|{db.get('HOST', '')}|{db.get('PORT', '')}|{db['NAME']}",
    )


@lru_cache(maxsize=8)
def prefix_for(configured: str, identity: str) -> str:
    """The prefix ``configured`` (checked), or one made from a database's ``identity``."""
    if configured:
        if not PREFIX_PATTERN.fullmatch(configured):
            raise ValueError(
                f"LIVE_CHANNEL_PREFIX={configured!r}: use 1–40 lowercase letters, digits and "
                "underscores, starting with a letter (it names a PostgreSQL channel)."
            )
        return configured
    return "poolside_" + hashlib.sha256(identity.encode()).hexdigest()[:12]


def redis_channel(campaign: int) -> str:
    """A campaign's Redis channel (campaign 0: events about a user's login)."""
    return f"{channel_prefix()}:{campaign}"


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
# "Something about user N's login changed" (a session of theirs ended, their password or their
# active flag changed): campaign 0, heard only by that user's own streams, which re-check their
# session (rolls/live/signals.py, docs/live.md#a-stream-ends-with-its-login).
USER = "user"


class Subscription:
    """One open stream's inbox for one campaign, read by that stream alone.

    A server holds thousands of these, nearly all idle, so an idle one is a few references: the
    backlog and the waiting future exist only while there is something to hold (an
    ``asyncio.Queue`` would keep its three deques and its bookkeeping for the stream's life).

    A stream waits for its next event *until* its next keep-alive is due, a time that moves only
    when a keep-alive is sent. So the inbox keeps one alarm for that time, set once per keep-alive
    rather than once per event: ``asyncio.timeout`` around each wait made, and then cancelled, a
    timer for every stream on every event — a tenth of a fan-out's time at 2,000 streams
    (docs/performance.md)."""

    __slots__ = (
        "_alarm",
        "_pending",
        "_rung",
        "_waiter",
        "campaign",
        "loop",
        "user",
    )

    def __init__(
        self, campaign: int, loop: asyncio.AbstractEventLoop, user: int | None = None
    ) -> None:
        self.campaign = campaign
        self.loop = loop
        self.user = user  # whose stream it is: USER events about them reach it
        self._pending: deque[Event] | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._alarm: asyncio.TimerHandle | None = None  # its when() is the time it is set for
        self._rung: float | None = None  # the time of the last alarm that went off

    def deliver(self, event: Event) -> None:
        """Runs on the subscription's loop."""
        pending = self._pending
        if pending is None:
            pending = self._pending = deque()
        if len(pending) >= QUEUE_SIZE:
            # Too far behind: drop the backlog and let the stream re-read from the database.
            pending.clear()
            event = RESYNC
        pending.append(event)
        self._wake()

    async def get(
        self, timeout: float | None = None, *, until: float | None = None
    ) -> Event | None:
        """The next event; or None once ``timeout`` seconds have passed, or the loop's clock
        (``loop.time()``) has reached ``until``, with no event (streams use it for keep-alives).
        An event already waiting comes first, even after that time."""
        if not self._pending:
            if timeout is not None:
                until = self.loop.time() + timeout
            if until is not None:
                if self._rung == until or self.loop.time() >= until:
                    return None
                self._set_alarm(until)
            waiter = self._waiter = self.loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
            if not self._pending:
                return None  # woken by the alarm
        pending = self._pending
        assert pending
        event = pending.popleft()
        if not pending:
            self._pending = None
        return event

    def close(self) -> None:
        """The stream is done with it: its alarm, if set, goes (it holds the inbox until then)."""
        if self._alarm is not None:
            self._alarm.cancel()
        self._alarm = None

    def _set_alarm(self, when: float) -> None:
        alarm = self._alarm
        if alarm is not None:
            if alarm.when() == when:
                return
            alarm.cancel()
        self._alarm = self.loop.call_at(when, self._ring, when)

    def _ring(self, when: float) -> None:
        # The loop may run a timer a hair before its time (its clock resolution): ``_rung``
        # remembers that this time has come, whatever loop.time() says.
        self._alarm = None
        self._rung = when
        self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class Hub:
    def __init__(self) -> None:
        self._subscriptions: set[Subscription] = set()
        self._listeners: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}

    @property
    def subscriber_count(self) -> int:
        return len(self._subscriptions)

    @asynccontextmanager
    async def subscribe(
        self, campaign: int, *, user: int | None = None
    ) -> AsyncIterator[Subscription]:
        loop = asyncio.get_running_loop()
        subscription = Subscription(campaign, loop, user)
        self._subscriptions.add(subscription)
        try:
            if backend() != MEMORY:
                await self._ensure_listener(loop)
            yield subscription
        finally:
            self._subscriptions.discard(subscription)
            subscription.close()
            if not any(s.loop is loop for s in self._subscriptions):
                task = self._listeners.pop(loop, None)
                if task is not None:
                    task.cancel()
                    with suppress(asyncio.CancelledError, Exception):
                        await task

    def dispatch(self, event: Event) -> None:
        """Hand an event to every subscription of its campaign (a USER event: of its user), on
        each one's own loop."""
        for subscription in list(self._subscriptions):
            if event.kind == USER:
                if subscription.user == event.id:
                    _call_on_loop(subscription.loop, subscription.deliver, event)
            elif event is RESYNC or subscription.campaign == event.campaign:
                _call_on_loop(subscription.loop, subscription.deliver, event)

    def _dispatch_local(self, loop: asyncio.AbstractEventLoop, event: Event) -> None:
        if event.kind == USER:  # rare (a logout, a password change): its user's streams only
            for subscription in list(self._subscriptions):
                if subscription.loop is loop and subscription.user == event.id:
                    subscription.deliver(event)
            return
        for subscription in list(self._subscriptions):
            if subscription.loop is loop and (
                event is RESYNC or subscription.campaign == event.campaign
            ):
                subscription.deliver(event)

    async def _ensure_listener(self, loop: asyncio.AbstractEventLoop) -> None:
        task = self._listeners.get(loop)
        if task is None or task.done():
            ready = loop.create_future()
            source = _postgres_payloads if backend() == POSTGRES else _redis_payloads
            self._listeners[loop] = loop.create_task(self._listen(loop, ready, source))
            # Wait until the listener is in place, so an event committed right after subscribe()
            # is heard.
            await ready

    async def _listen(
        self, loop: asyncio.AbstractEventLoop, ready: asyncio.Future[None], source: PayloadSource
    ) -> None:
        first = True
        while True:
            try:
                async with source() as payloads:
                    if first:
                        first = False
                        if not ready.done():
                            ready.set_result(None)
                    else:
                        # Events may have been sent while we were away: every stream re-reads.
                        self._dispatch_local(loop, RESYNC)
                    async for payload in payloads:
                        try:
                            event = Event.from_json(payload)
                        except (ValueError, KeyError, TypeError):
                            logger.warning("Ignoring malformed live event %r", payload)
                            continue
                        self._dispatch_local(loop, event)
                raise ConnectionError("the event source closed")
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the source went away: keep trying, streams resync
                if not ready.done():
                    ready.set_exception(error)
                    return
                logger.warning("Live events: listener lost (%s); reconnecting", error)
                await asyncio.sleep(RECONNECT_DELAY)


# A listener's source: entered, it is subscribed (an event committed from then on is heard) and
# yields each event's JSON payload; it ends or raises when its connection is lost.
type PayloadSource = Callable[[], AbstractAsyncContextManager[AsyncIterator[str]]]


@asynccontextmanager
async def _postgres_payloads() -> AsyncIterator[AsyncIterator[str]]:
    import psycopg  # only needed with PostgreSQL

    async with await psycopg.AsyncConnection.connect(_conninfo(), autocommit=True) as conn:
        await conn.execute(f"LISTEN {channel_prefix()}")  # an identifier PREFIX_PATTERN checked

        async def payloads() -> AsyncIterator[str]:
            async for notify in conn.notifies():
                yield notify.payload

        yield payloads()


@asynccontextmanager
async def _redis_payloads() -> AsyncIterator[AsyncIterator[str]]:
    import redis.asyncio as aioredis

    client = aioredis.from_url(settings.REDIS_URL)
    try:
        async with client.pubsub() as pubsub:
            # Every campaign's channel of this deployment (the prefix holds no glob character).
            await pubsub.psubscribe(f"{channel_prefix()}:*")
            # Redis confirms the PSUBSCRIBE with a message of its own: until then a PUBLISH from
            # another connection may not reach us, so "ready" waits for it.
            while True:
                message = await pubsub.get_message(timeout=RECONNECT_DELAY * 5)
                if message is None:
                    raise ConnectionError("Redis did not confirm the subscription")
                if message["type"] == "psubscribe":
                    break

            async def payloads() -> AsyncIterator[str]:
                async for message in pubsub.listen():
                    if message["type"] == "pmessage":
                        data = message["data"]
                        yield data.decode() if isinstance(data, bytes) else str(data)

            yield payloads()
    finally:
        await client.aclose()


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


POSTGRES, REDIS, MEMORY = "postgres", "redis", "memory"
BACKENDS = (POSTGRES, REDIS, MEMORY)


def backend() -> str:
    """The live transport in use: the LIVE_BACKEND setting, or by the database when it is empty
    (web/checks.py refuses an unknown name, and "postgres" without PostgreSQL)."""
    return settings.LIVE_BACKEND or (POSTGRES if _vendor() == "postgresql" else MEMORY)


def _vendor() -> str:
    """The default database's vendor, read from its backend class. Not ``connection.vendor``:
    streams ask from async code, where touching ``connection`` makes a database wrapper for the
    request's context, and an open stream would keep that (some kilobytes) for its lifetime."""
    return _vendor_of(connections.settings[DEFAULT_DB_ALIAS]["ENGINE"])


@lru_cache(maxsize=8)
def _vendor_of(engine: str) -> str:
    # Each roll asks (the append writes the announcement into its statement, or not): importing
    # the backend's module again is a few microseconds a roll for the same answer.
    return str(load_backend(engine).DatabaseWrapper.vendor)


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


@lru_cache(maxsize=4096)
def announcement_with_id(campaign: int, kind: str, id_sql: str) -> tuple[str, tuple[str, ...]]:
    """For a writer that announces inside a statement of its own, which also makes the change's
    id (the roll log's append on PostgreSQL): the ``pg_notify`` that :func:`publish` would run,
    as an SQL expression and its parameters, with ``id_sql`` (``added.id``) spliced into the
    same JSON :meth:`Event.to_json` writes. The ``postgres`` transport only. Remembered per
    campaign (each roll of a campaign writes the same one), its parameters a tuple no caller
    can change."""
    start, end = Event(campaign, kind, 0).to_json().rsplit("0", 1)
    return f"pg_notify(%s, %s || ({id_sql})::text || %s)", (channel_prefix(), start, end)


def publish(campaign: int, kind: str, id: int, *, cause: int | None = None) -> None:
    """Announce a change. Call it inside the transaction that writes the change: listeners hear of
    it only if and when that transaction commits. ``cause``: the roll entry behind the change
    (only members who may know of it hear of the change)."""
    _send(Event(campaign=campaign, kind=kind, id=id, cause=cause))


def publish_user(user: int) -> None:
    """Announce that something about ``user``'s login changed — one of their sessions ended,
    their password or their active flag changed — so each of their open streams re-checks its
    own session and ends if it no longer logs them in. Like :func:`publish`: heard on commit."""
    _send(Event(campaign=0, kind=USER, id=user))


def _send(event: Event) -> None:
    chosen = backend()
    if chosen == POSTGRES:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [channel_prefix(), event.to_json()])
    elif chosen == REDIS:
        transaction.on_commit(lambda: _redis_publish(event))
    else:
        transaction.on_commit(lambda: hub.dispatch(event))


def _redis_publish(event: Event) -> None:
    """After commit. A failure must not fail the request that already committed its change: the
    change is in the database, and streams catch up from it (they resync when their own Redis
    connection drops, and browsers replay from Last-Event-ID when they reconnect)."""
    import redis

    try:
        _publisher.publish(settings.REDIS_URL, redis_channel(event.campaign), event.to_json())
    except (redis.RedisError, OSError) as error:
        logger.warning("Live events: could not publish to Redis (%s)", error)


class _Publisher:
    """The ``redis`` transport's sending side: one connection per process, its replies switched
    off (``CLIENT REPLY OFF``), shared by the request threads in turn.

    A ``PUBLISH`` answers with how many subscribers heard it, which nothing here reads. Waiting
    for that answer made a publish cost about 100 µs of the server's CPU in redis-py (its pool,
    its reply parser, a second system call and a thread switch), a roll's tenth beyond the bare
    view's; written without it, about 15 µs (docs/performance.md). The price is that nothing
    comes back to tell a dropped connection from a live one, so before each message the
    connection is checked for anything to read: Redis sends nothing on it, so anything — its
    end, after a restart or an idle timeout — means a new connection. A message written to a
    connection that dies while it travels is lost; so are the events of a Redis that is down,
    and both cost only speed (the module's docstring). After a failure to connect, the next
    attempt waits RECONNECT_DELAY, so that a Redis that is down doesn't slow every roll."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connection: Any = None
        self._made_for: tuple[str, int] | None = None  # (URL, process id)
        self._retry_at = 0.0

    def publish(self, url: str, channel: str, payload: str) -> None:
        import redis

        with self._lock:
            if self._made_for != (url, os.getpid()):  # another URL (tests) or a forked child
                # Closed, not left open: redis-py shuts a socket down only in its own process.
                self._drop()
                self._retry_at = 0.0
            elif self._connection is not None and self._ended():
                self._drop()
            if self._connection is None:
                self._connect(url)
            try:
                self._connection.send_command("PUBLISH", channel, payload)
            except (redis.RedisError, OSError):
                self._drop()
                raise

    def _ended(self) -> bool:
        """Has Redis written anything on the connection, its end included? It sends nothing
        else on a connection without replies."""
        import redis

        try:
            return bool(self._connection.can_read(timeout=0))
        except redis.ConnectionError:  # what redis-py makes of the end it read
            return True

    def _connect(self, url: str) -> None:
        import redis

        if time.monotonic() < self._retry_at:
            raise redis.ConnectionError("not retried yet after a failure to connect")
        self._made_for = (url, os.getpid())
        pool = redis.ConnectionPool.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        connection = pool.make_connection()
        try:
            connection.connect()  # AUTH, SELECT… with their replies read
            connection.send_command("CLIENT", "REPLY", "OFF")  # answered by nothing
        except (redis.RedisError, OSError):
            connection.disconnect()
            self._retry_at = time.monotonic() + RECONNECT_DELAY
            raise
        self._connection = connection

    def _drop(self) -> None:
        if self._connection is not None:
            with suppress(Exception):
                self._connection.disconnect()
        self._connection = None


_publisher = _Publisher()
