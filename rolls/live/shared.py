"""Reads shared by every event stream of a process (docs/live.md, "the per-process cache").

When one event wakes many streams of a campaign in a process, the entry is read from the database
once and each audience's card rendered once: the first stream that needs a read starts it, every
other stream awaits the same read, and results expire after SHARED_TTL.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Coroutine
from typing import Any

SHARED_TTL = 30.0  # seconds a shared read stays cached for streams that wake late


class SharedRead:
    """One read and the streams waiting for it. Each waiter awaits a future of its own, set by
    one callback when the read is over: a waiter that is cancelled (its stream closed) cancels
    only its own future, never the read the others wait for. (asyncio.shield does the same with
    two futures and two callbacks per waiter; with thousands of streams waking for each roll
    that was most of the fan-out's own time, docs/performance.md.)"""

    __slots__ = ("expires", "task", "waiters")

    def __init__(self, expires: float, task: asyncio.Task[object]) -> None:
        self.expires, self.task = expires, task
        self.waiters: list[asyncio.Future[object]] = []
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[object]) -> None:
        waiters, self.waiters = self.waiters, []
        for waiter in waiters:
            if waiter.done():
                continue
            if task.cancelled():
                waiter.cancel()
            elif task.exception() is not None:
                waiter.set_exception(task.exception())  # type: ignore[arg-type]
            else:
                waiter.set_result(task.result())

    async def result(self) -> object:
        if self.task.done():
            # Most streams wake after the read is over: they take the result as it is.
            return self.task.result()
        waiter = self.task.get_loop().create_future()
        self.waiters.append(waiter)
        return await waiter


class SharedReads:
    """One per event loop (one per server process): the first stream that needs a read starts it,
    every other stream awaits the same read. Results expire after SHARED_TTL."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.tasks: dict[tuple[object, ...], SharedRead] = {}
        self.reads = 0  # how many reads really ran (tests pin it)

    async def get(
        self, key: tuple[object, ...], read: Callable[[], Coroutine[Any, Any, Any]]
    ) -> Any:
        now = self.loop.time()
        if len(self.tasks) > 64:
            self.tasks = {k: v for k, v in self.tasks.items() if v.expires > now}
        shared = self.tasks.get(key)
        if shared is None or shared.expires <= now:
            self.reads += 1
            task = self.loop.create_task(read())
            task.add_done_callback(lambda t: self._forget_failure(key, t))
            shared = self.tasks[key] = SharedRead(now + SHARED_TTL, task)
        return await shared.result()

    def _forget_failure(self, key: tuple[object, ...], task: asyncio.Task[object]) -> None:
        if not (task.cancelled() or task.exception() is not None):
            return
        shared = self.tasks.get(key)
        if shared is not None and shared.task is task:
            del self.tasks[key]


_shared: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, SharedReads] = (
    weakref.WeakKeyDictionary()
)


def shared_reads() -> SharedReads:
    loop = asyncio.get_running_loop()
    reads = _shared.get(loop)
    if reads is None:
        reads = _shared[loop] = SharedReads(loop)
    return reads
