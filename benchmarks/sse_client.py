"""The SSE fan-out benchmark's load client: thousands of event streams, in a process of its own.

``benchmarks/sse_fanout.py`` starts it (``python benchmarks/sse_client.py``) and talks to it in
JSON lines — a command on its standard input, the answer on its standard output:

* ``{"open": {"port", "path", "cookies", "count", "at_once"}}``: open ``count`` streams (cookie
  ``n % len(cookies)`` each), at most ``at_once`` being set up at any time; answers
  ``{"seconds", "errors"}`` once every one is caught up (its ``retry:`` hint read).
* ``{"await": token, "timeout": s}``: answers ``{"last": t}``, the ``time.perf_counter()`` at which
  the last stream received the entry ``token`` (``null``: not every stream within ``timeout``).
* ``{"storm": {"timeout": s}}``: the server is about to restart. Every stream does what a
  browser's EventSource does when its connection ends: it waits the reconnect time the stream
  last sent (``retry:``, jittered per stream by the server), reconnects with ``Last-Event-ID``,
  and if that fails waits the same time again. Answers ``{"dropped", "back", "attempts",
  "errors"}`` once every stream is caught up again: the times (perf_counter) the first stream
  lost its connection and the last one was caught up, and how many connections were tried.
* ``{"close": true}``: closes every stream and exits.

It stands in for 2,000 browsers on other machines, so it does as little as it can per message
(an ``asyncio.Protocol`` that looks for ``id:`` and ``retry:`` lines in the bytes as they come):
whatever it spends here is CPU the server on the same machine doesn't get. No Django here, and
its garbage collector stays off while it holds the streams (its heap is its streams alone).
Its clock is ``time.perf_counter()``, the system's monotonic clock on Linux, which the benchmark
process reads too.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sys
import time
from typing import Any

RETRY_MS = 2000  # until the stream names its own (the EventSource default is about this)


class Stream(asyncio.Protocol):
    """One ``GET <path>`` event stream; reconnects (as EventSource does) while ``storming``."""

    def __init__(self, client: Client, cookie: str) -> None:
        self.client, self.cookie = client, cookie
        self.transport: asyncio.Transport | None = None
        self.head = True  # before the end of the response's head
        self.carry = b""
        self.last_id: str | None = None
        self.retry_ms = RETRY_MS
        self.caught_up = asyncio.Event()
        self.error: str | None = None

    # -- the connection ------------------------------------------------------------------------

    async def connect(self) -> bool:
        loop = asyncio.get_running_loop()
        self.head, self.carry = True, b""
        self.caught_up.clear()
        self.client.attempts += 1
        try:
            await loop.create_connection(lambda: self, "127.0.0.1", self.client.port)
        except OSError as exc:
            self.error = repr(exc)
            return False
        return True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id else ""
        transport.write(
            f"GET {self.client.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.client.port}\r\n"
            f"Cookie: {self.cookie}\r\nAccept: text/event-stream\r\n{resume}\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        data = self.carry + data
        if self.head:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self.carry = data
                return
            if b" 200 " not in data[: data.find(b"\r\n")]:
                self.error = data[: data.find(b"\r\n")].decode(errors="replace")
                self.carry = b""
                assert self.transport is not None
                self.transport.close()
                return
            self.head, data = False, data[end + 4 :]
        # Messages end with a blank line; the stream's chunk framing lies between messages only
        # (each is sent whole), so it never splits an id: or a retry: line.
        end = data.rfind(b"\n\n")
        if end < 0:
            self.carry = data
            return
        self.carry = data[end + 2 :]
        complete = data[: end + 2]
        at = complete.find(b"\nid: ")
        while at >= 0:
            stop = complete.index(b"\n", at + 5)
            self.client.arrived(self, complete[at + 5 : stop].decode())
            at = complete.find(b"\nid: ", stop)
        at = complete.find(b"retry: ")
        if at >= 0 and (at == 0 or complete[at - 1] == 10):  # a line of its own
            stop = complete.index(b"\n", at)
            self.retry_ms = int(complete[at + 7 : stop])
            self.error = None
            self.caught_up.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self.client.lost(self)

    # -- a browser's reconnects ------------------------------------------------------------------

    async def reconnect(self) -> None:
        """Wait the stream's reconnect time, connect, again until caught up (as EventSource)."""
        while True:
            await asyncio.sleep(self.retry_ms / 1000)
            # Caught up, or the connection ends (a 5xx, the server stopping): try again.
            if await self.connect() and await self.client.caught_up_or_lost(self):
                self.client.last_back = time.perf_counter()
                return


class Client:
    def __init__(self) -> None:
        self.port = 0
        self.path = ""
        self.streams: list[Stream] = []
        self.attempts = 0
        self.waiting: dict[str, tuple[set[Stream], asyncio.Future[float]]] = {}
        self.storming = False
        self.dropped: float | None = None
        self.reconnects: set[asyncio.Task[None]] = set()
        self.gone: dict[Stream, asyncio.Event] = {}
        self.last_back: float | None = None  # the last stream caught up again after the drop

    def arrived(self, stream: Stream, token: str) -> None:
        stream.last_id = token
        wait = self.waiting.get(token)
        if wait is not None:
            pending, done = wait
            pending.discard(stream)
            if not pending and not done.done():
                done.set_result(time.perf_counter())

    def lost(self, stream: Stream) -> None:
        gone = self.gone.get(stream)
        if gone is not None:
            gone.set()
        if self.storming and stream.caught_up.is_set():
            # A live stream's connection ended: the server went away. EventSource reconnects.
            if self.dropped is None:
                self.dropped = time.perf_counter()
            stream.caught_up.clear()
            task = asyncio.get_running_loop().create_task(stream.reconnect())
            self.reconnects.add(task)
            task.add_done_callback(self.reconnects.discard)

    async def caught_up_or_lost(self, stream: Stream) -> bool:
        gone = self.gone[stream] = asyncio.Event()
        caught = asyncio.ensure_future(stream.caught_up.wait())
        ended = asyncio.ensure_future(gone.wait())
        try:
            await asyncio.wait((caught, ended), return_when=asyncio.FIRST_COMPLETED)
        finally:
            caught.cancel()
            ended.cancel()
            del self.gone[stream]
        return stream.caught_up.is_set()

    async def open(self, port: int, path: str, cookies: list[str], count: int, at_once: int):
        self.port, self.path = port, path
        opening = asyncio.Semaphore(at_once)
        began = time.perf_counter()

        async def one(n: int) -> None:
            stream = Stream(self, cookies[n % len(cookies)])
            self.streams.append(stream)
            async with opening:
                if await self.connect_once(stream):
                    await self.caught_up_or_lost(stream)

        await asyncio.gather(*(one(n) for n in range(count)))
        errors = [s.error or "closed" for s in self.streams if not s.caught_up.is_set()]
        return {"seconds": time.perf_counter() - began, "errors": errors[:3], "failed": len(errors)}

    async def connect_once(self, stream: Stream) -> bool:
        return await stream.connect()

    async def await_token(self, token: str, timeout: float) -> dict[str, Any]:
        done: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        pending = {s for s in self.streams if s.last_id != token}
        self.waiting[token] = (pending, done)
        if not pending:
            done.set_result(time.perf_counter())
        try:
            return {"last": await asyncio.wait_for(done, timeout)}
        except TimeoutError:
            return {"last": None, "missing": len(pending)}
        finally:
            del self.waiting[token]

    async def storm(self, timeout: float) -> dict[str, Any]:
        self.storming, self.dropped, self.attempts, self.last_back = True, None, 0, None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._everyone_dropped_and_back(), timeout)
        back = [s for s in self.streams if s.caught_up.is_set()]
        self.storming = False
        return {
            "dropped": self.dropped,
            "back_count": len(back) if self.dropped is not None else 0,
            "back": self.last_back,
            "attempts": self.attempts,
        }

    async def _everyone_dropped_and_back(self) -> None:
        while self.dropped is None or self.reconnects:
            await asyncio.sleep(0.05)

    def close(self) -> None:
        for stream in self.streams:
            if stream.transport is not None:
                stream.transport.close()


async def serve() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)  # a command carries every stream's cookie
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    client = Client()

    def answer(data: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(data) + "\n")
        sys.stdout.flush()

    while line := await reader.readline():
        command = json.loads(line)
        if "open" in command:
            o = command["open"]
            answer(await client.open(o["port"], o["path"], o["cookies"], o["count"], o["at_once"]))
            gc.collect()
            gc.freeze()  # what it holds now is its streams: nothing for the collector to walk
        elif "await" in command:
            answer(await client.await_token(command["await"], command["timeout"]))
        elif "storm" in command:
            answer(await client.storm(command["storm"]["timeout"]))
        elif "close" in command:
            client.close()
            answer({"closed": True})
            return


if __name__ == "__main__":
    gc.disable()
    asyncio.run(serve())
