"""SSE fan-out: SUBSCRIBERS open streams on one uvicorn process, then ROLLS rolls.

One server process (``uvicorn benchmarks.asgi:application``, PostgreSQL, so events travel by
LISTEN/NOTIFY as in production). One asyncio client process holds SUBSCRIBERS
``GET /campaigns/<pk>/events/`` streams over raw sockets, spread over MEMBERS player accounts and
the GM, and parses the event stream. Then a player makes ROLLS plain Cogent rolls, SPACING seconds
apart; for each, the figure is the time from sending the POST to the *last* subscriber receiving
the ``entry`` event with that entry's id. Memory: the server's RSS (``/proc/<pid>/status``) with
no stream and with every stream open and idle, the difference divided by SUBSCRIBERS.
Targets: p95 under 300 ms. Run with ``make bench-sse``.
"""

from __future__ import annotations

import asyncio
import resource
import statistics
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__file__)))

from benchmarks import common

SUBSCRIBERS = 500
MEMBERS = 25
ROLLS = 20
SPACING = 0.5
TIMEOUT = 10.0  # seconds a roll may take to reach everyone before it counts as lost
TARGET_P95_MS = 300.0


class Subscriber:
    def __init__(self) -> None:
        self.caught_up = asyncio.Event()
        self.received: dict[int, float] = {}
        self.waiters: dict[int, asyncio.Event] = {}
        self.error: str | None = None

    async def run(self, port: int, path: str, cookie: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        try:
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                self.error = status.decode().strip()
                self.caught_up.set()
                return
            chunked = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                chunked |= line.lower().startswith(b"transfer-encoding: chunked")
            event, entry_id = None, None
            while True:
                line = await reader.readline()
                if not line:
                    return
                line = line.rstrip(b"\r\n")
                if chunked and line and all(c in b"0123456789abcdefABCDEF" for c in line):
                    continue  # a chunk size line (SSE lines never are bare hex: they have a colon)
                if line.startswith(b"retry:"):
                    self.caught_up.set()
                elif line.startswith(b"event:"):
                    event = line[6:].strip()
                elif line.startswith(b"id:"):
                    entry_id = int(line[3:])
                elif not line and event == b"entry" and entry_id is not None:
                    self.received[entry_id] = time.perf_counter()
                    waiter = self.waiters.pop(entry_id, None)
                    if waiter is not None:
                        waiter.set()
                    event, entry_id = None, None
                elif not line:
                    event, entry_id = None, None
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.error = repr(exc)
            self.caught_up.set()
        finally:
            writer.close()

    async def wait_for(self, entry_id: int) -> float:
        if entry_id not in self.received:
            waiter = self.waiters.setdefault(entry_id, asyncio.Event())
            await waiter.wait()
        return self.received[entry_id]


async def post_roll(port: int, path: str, cookie: str, body: bytes) -> tuple[float, int]:
    """Send one plain roll POST; (perf_counter at sending, the new entry's id from Location)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        request = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode() + body
        sent = time.perf_counter()
        writer.write(request)
        await writer.drain()
        head = (await reader.read()).split(b"\r\n\r\n", 1)[0].decode()
    finally:
        writer.close()
    if " 302 " not in head.splitlines()[0]:
        raise RuntimeError(f"roll refused: {head.splitlines()[0]}")
    location = next(h for h in head.splitlines() if h.lower().startswith("location:"))
    return sent, int(location.rstrip("/").rsplit("/", 1)[1])


async def drive(port: int, pid: int, events: str, streams: list[str], roll: tuple) -> dict:
    idle_rss = common.rss_kib(pid)
    subscribers = [Subscriber() for _ in streams]
    tasks = []
    for subscriber, cookie in zip(subscribers, streams, strict=True):
        tasks.append(asyncio.create_task(subscriber.run(port, events, cookie)))
        if len(tasks) % 50 == 0:
            await asyncio.sleep(0.05)  # a gentle ramp, as real tabs open over time
    try:
        await asyncio.wait_for(
            asyncio.gather(*(s.caught_up.wait() for s in subscribers)), timeout=60
        )
        errors = [s.error for s in subscribers if s.error]
        if errors:
            raise RuntimeError(f"{len(errors)} streams failed, e.g. {errors[0]}")
        await asyncio.sleep(2.0)  # let the server settle: idle streams only
        full_rss = common.rss_kib(pid)
        latencies, lost = [], 0
        path, cookie, body = roll
        for _ in range(ROLLS):
            sent, entry_id = await post_roll(port, path, cookie, body)
            try:
                arrivals = await asyncio.wait_for(
                    asyncio.gather(*(s.wait_for(entry_id) for s in subscribers)), TIMEOUT
                )
                latencies.append((max(arrivals) - sent) * 1000)
            except TimeoutError:
                lost += 1
            await asyncio.sleep(SPACING)
        return {"idle": idle_rss, "full": full_rss, "latencies": latencies, "lost": lost}
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def main() -> int:
    if not common.setup("SSE fan-out benchmark"):
        return common.SKIPPED
    from urllib.parse import urlencode

    from django.urls import reverse

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = SUBSCRIBERS * 2 + 200  # our sockets, and the server's (it inherits the limit)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    print(
        f"Poolside SSE fan-out — {SUBSCRIBERS} streams on one uvicorn process, {ROLLS} rolls "
        f"{SPACING} s apart"
    )
    print(common.machine())
    campaign = common.campaign("bench-sse")
    gm = campaign.memberships.get().user
    hero = common.character(campaign, "bench-sse-roller", "Herald")
    members = [gm] + [
        common.character(campaign, f"bench-sse-player{n}", f"Listener {n}").owner
        for n in range(1, MEMBERS)
    ]
    sessions = [common.cookies(common.session_cookie(m)) for m in members]
    streams = [sessions[n % len(sessions)] for n in range(SUBSCRIBERS)]
    skill = hero.cogent.skills.first()
    roll = (
        reverse("roll_create", args=[hero.pk, "cogent-skill", skill.pk]),
        common.cookies(common.session_cookie(hero.owner)),
        urlencode(
            {"challenge_level": 3, "extra_penalty": 0, "csrfmiddlewaretoken": common.CSRF_SECRET}
        ).encode(),
    )
    events = reverse("campaign_events", args=[campaign.pk])
    with common.uvicorn(workers=1) as (port, process):
        # Warm up: one stream and one roll, so imports and the first connections are not counted.
        result = asyncio.run(drive(port, process.pid, events, streams[:1], roll))
        result = asyncio.run(drive(port, process.pid, events, streams, roll))
    latencies = result["latencies"]
    per_stream = (result["full"] - result["idle"]) / SUBSCRIBERS
    p95 = common.percentile(latencies, 95) if latencies else float("inf")
    common.table(
        ("figure", "value"),
        [
            ("rolls delivered to every stream", f"{len(latencies)} of {ROLLS}"),
            ("POST → last subscriber, p50", f"{statistics.median(latencies):.0f} ms"),
            ("POST → last subscriber, p95", f"{p95:.0f} ms"),
            ("POST → last subscriber, max", f"{max(latencies):.0f} ms"),
            ("server RSS, no stream open", f"{result['idle'] / 1024:.1f} MiB"),
            (f"server RSS, {SUBSCRIBERS} idle streams", f"{result['full'] / 1024:.1f} MiB"),
            ("memory per idle stream", f"{per_stream:.0f} KiB"),
        ],
    )
    met = not result["lost"] and p95 < TARGET_P95_MS
    print(f"target: p95 under {TARGET_P95_MS:.0f} ms, nothing lost — {common.verdict(met)}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
