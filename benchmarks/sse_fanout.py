"""SSE fan-out: SUBSCRIBERS idle streams on one uvicorn process, then ROLLS rolls.

One server process (``uvicorn benchmarks.asgi:application``, PostgreSQL, so events travel by
LISTEN/NOTIFY as in production). One asyncio client process holds SUBSCRIBERS
``GET /campaigns/<pk>/events/`` streams over raw sockets, spread over MEMBERS accounts (the GM and
players), OPENING of them being set up at any time, and parses the event stream. Then a player
makes ROLLS plain Cogent rolls, SPACING seconds apart; for each, the figure is the time from
sending the POST to the *last* subscriber receiving the ``entry`` event with that entry's id (its
token, as the stream names it). The client's own garbage collector is off while it measures (it
stands in for 2,000 browsers, and its pauses are not the server's).

Memory: the server's RSS (``/proc/<pid>/status``) after a warm-up with no stream open, and with
every stream open and idle, the difference divided by SUBSCRIBERS. Also counted: the server's
PostgreSQL connections with every stream open (streams hold none while idle).

Targets: p95 under 300 ms, nothing lost; at most 64 KiB per idle stream. Run with
``make bench-sse``; ``BENCH_STREAMS`` / ``BENCH_ROLLS`` shrink a run for a quick check
(``BENCH_STREAMS=200 BENCH_ROLLS=5 make bench-sse``).
"""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import statistics
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))

from benchmarks import common

SUBSCRIBERS = int(os.environ.get("BENCH_STREAMS", "2000"))
MEMBERS = 25
ROLLS = int(os.environ.get("BENCH_ROLLS", "20"))
SPACING = 0.5
TIMEOUT = 10.0  # seconds a roll may take to reach everyone before it counts as lost
# Streams being set up at once: tabs open over time. Not a fixed rate, which would make the figures
# depend on the server's speed (a slower server gets a burst, and a burst's high-water mark of
# half-set-up requests stays in the RSS: about 80 KiB per stream with 1,000 at once, against
# about 35 KiB with 50 — docs/performance.md).
OPENING = 50
TARGET_P95_MS = 300.0
TARGET_KIB_PER_STREAM = 64.0
# The server's connections carry this name, so they can be told from the client's own.
APPLICATION_NAME = "poolside-bench-sse"


def per_stream_kib(idle_kib: int, full_kib: int, streams: int) -> float:
    """What one idle stream costs the server: the RSS it grew by, shared out."""
    return (full_kib - idle_kib) / streams


def fd_limit_for(streams: int) -> int:
    """File descriptors the client needs (and the server, which inherits the limit): a socket
    per stream on each side, and room for everything else."""
    return streams + 256


def raise_fd_limit(wanted: int) -> int:
    """Raise the soft RLIMIT_NOFILE toward ``wanted`` (never past the hard limit); the new soft
    limit. Raised before the server starts, so uvicorn inherits it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


def server_connections() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            [APPLICATION_NAME],
        )
        return cursor.fetchone()[0]


async def post_roll(port: int, path: str, cookie: str, body: bytes) -> tuple[float, str]:
    """Send one plain roll POST; (perf_counter at sending, the new entry's token from Location)."""
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
    return sent, common.entry_token_of(location.split(":", 1)[1].strip())


async def drive(
    port: int, pid: int, events: str, streams: list[str], roll: tuple, rolls: int
) -> dict:
    idle_rss = common.rss_kib(pid)
    subscribers = [common.Subscriber() for _ in streams]
    tasks: list[asyncio.Task[None]] = []
    opening = asyncio.Semaphore(OPENING)

    async def open_all() -> None:
        for subscriber, cookie in zip(subscribers, streams, strict=True):
            await opening.acquire()
            tasks.append(asyncio.create_task(subscriber.run(port, events, cookie)))
            tasks.append(asyncio.create_task(release_when_caught_up(subscriber)))
        await asyncio.gather(*(s.caught_up.wait() for s in subscribers))

    async def release_when_caught_up(subscriber: common.Subscriber) -> None:
        await subscriber.caught_up.wait()
        opening.release()

    opened = time.perf_counter()
    try:
        await asyncio.wait_for(open_all(), timeout=300)
        errors = [s.error for s in subscribers if s.error]
        if errors:
            raise RuntimeError(f"{len(errors)} streams failed, e.g. {errors[0]}")
        opening = time.perf_counter() - opened
        await asyncio.sleep(2.0)  # let the server settle: idle streams only
        full_rss = common.rss_kib(pid)
        connections = await asyncio.to_thread(server_connections)
        latencies, lost = [], 0
        path, cookie, body = roll
        # This one process stands in for 2,000 browsers: its own garbage collector, walking every
        # stream's objects every few seconds (pauses of 150-230 ms, traced on the server's
        # machine), would delay its reading and be counted as the server's. Nothing it holds is
        # collected while it measures; the server's collector runs as in production.
        gc.collect()
        gc.freeze()
        gc.disable()
        for _ in range(rolls):
            sent, token = await post_roll(port, path, cookie, body)
            try:
                arrivals = await asyncio.wait_for(
                    asyncio.gather(*(s.wait_for(token) for s in subscribers)), TIMEOUT
                )
                latencies.append((max(arrivals) - sent) * 1000)
            except TimeoutError:
                lost += 1
            await asyncio.sleep(SPACING)
        dropped = [s.error for s in subscribers if s.error]
        if dropped:
            raise RuntimeError(f"{len(dropped)} streams dropped, e.g. {dropped[0]}")
        return {
            "idle": idle_rss,
            "full": full_rss,
            "latencies": latencies,
            "lost": lost,
            "opening": opening,
            "connections": connections,
        }
    finally:
        gc.enable()
        gc.unfreeze()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def main() -> int:
    if not common.setup("SSE fan-out benchmark"):
        return common.SKIPPED
    from urllib.parse import urlencode

    from django.db import connection
    from django.urls import reverse

    limit = raise_fd_limit(fd_limit_for(SUBSCRIBERS))
    if limit < fd_limit_for(SUBSCRIBERS):
        print(
            f"SSE fan-out benchmark: file descriptors are limited to {limit} (hard limit), "
            f"{SUBSCRIBERS} streams need {fd_limit_for(SUBSCRIBERS)}: raise `ulimit -Hn`."
        )
        return 1
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
    connection.close()  # the client's own connection is no concern of the figures
    with common.uvicorn(workers=1, env={"PGAPPNAME": APPLICATION_NAME}) as (port, process):
        # Warm up: one stream and one roll, so imports and the first connections are not counted.
        asyncio.run(drive(port, process.pid, events, streams[:1], roll, 1))
        result = asyncio.run(drive(port, process.pid, events, streams, roll, ROLLS))
    latencies = result["latencies"]
    per_stream = per_stream_kib(result["idle"], result["full"], SUBSCRIBERS)
    p95 = common.percentile(latencies, 95) if latencies else float("inf")
    common.table(
        ("figure", "value"),
        [
            (f"{SUBSCRIBERS} streams open and caught up in", f"{result['opening']:.1f} s"),
            ("server's PostgreSQL connections, streams open", result["connections"]),
            ("rolls delivered to every stream", f"{len(latencies)} of {ROLLS}"),
            ("POST → last subscriber, p50", f"{statistics.median(latencies):.0f} ms"),
            ("POST → last subscriber, p95", f"{p95:.0f} ms"),
            ("POST → last subscriber, max", f"{max(latencies):.0f} ms"),
            ("server RSS, no stream open", f"{result['idle'] / 1024:.1f} MiB"),
            (f"server RSS, {SUBSCRIBERS} idle streams", f"{result['full'] / 1024:.1f} MiB"),
            ("memory per idle stream", f"{per_stream:.0f} KiB"),
        ],
    )
    fast = not result["lost"] and p95 < TARGET_P95_MS
    small = per_stream <= TARGET_KIB_PER_STREAM
    print(
        f"target: p95 POST → last subscriber under {TARGET_P95_MS:.0f} ms, nothing lost — "
        f"{common.verdict(fast)}"
    )
    print(
        f"target: at most {TARGET_KIB_PER_STREAM:.0f} KiB per idle stream — {common.verdict(small)}"
    )
    return 0 if fast and small else 1


if __name__ == "__main__":
    sys.exit(main())
