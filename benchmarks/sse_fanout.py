"""SSE fan-out: SUBSCRIBERS idle streams on one uvicorn process, then ROLLS rolls, then a restart.

One server process (``uvicorn benchmarks.asgi:application``, PostgreSQL, so events travel by
LISTEN/NOTIFY as in production). The load client is a process of its own
(``benchmarks/sse_client.py``: no Django, a lean ``asyncio.Protocol`` per stream, its collector
off), holding SUBSCRIBERS ``GET /campaigns/<pk>/events/`` streams spread over MEMBERS accounts
(the GM and players), OPENING of them being set up at any time. Then this process, as a player,
makes ROLLS plain Cogent rolls, SPACING seconds apart; for each, the figure is the time from
sending the POST to the *last* stream receiving the ``entry`` event with that entry's id (its
token, as the stream names it), both read on the system's monotonic clock.

Then the **reconnect storm**: the server is stopped and started again on the same port, as a
deploy restarts it, while every stream is open; it comes back as production runs it, a worker
process per core (STORM_WORKERS; README, "Production"). Each stream does what a browser's
EventSource does: it waits the reconnect time its stream sent (``retry:``, jittered per stream by
the server, docs/live.md), reconnects with ``Last-Event-ID``, and tries again after the same time
while the server is down. The figure is the time from the new server listening to the last stream caught up
again, with how many connection attempts it took.

Memory: the server's RSS (``/proc/<pid>/status``) after a warm-up with one stream open, and with
every stream open and idle, the difference divided by SUBSCRIBERS. Also counted: the server's
PostgreSQL connections with every stream open (streams hold none while idle), and its CPU time
(``/proc/<pid>/stat``) per stream set up while they open.

Targets: p95 under 300 ms, nothing lost; at most 64 KiB per idle stream; every stream back within
10 s of the restarted server listening. Run with ``make bench-sse``; ``BENCH_STREAMS`` /
``BENCH_ROLLS`` shrink a run for a quick check (``BENCH_STREAMS=200 BENCH_ROLLS=5 make bench-sse``).
"""

from __future__ import annotations

import http.client
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
TARGET_STORM_S = 10.0  # every stream back after a restart
# The restarted server's worker processes: one per core, as production serves (README's
# --workers); BENCH_STORM_WORKERS=1 gives one process's figure.
STORM_WORKERS = int(os.environ.get("BENCH_STORM_WORKERS") or os.cpu_count() or 1)
STORM_TIMEOUT = 60.0
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


def post_roll(port: int, path: str, cookie: str, body: bytes) -> tuple[float, str]:
    """Send one plain roll POST; (perf_counter at sending, the new entry's token from Location)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        sent = time.perf_counter()
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
    finally:
        conn.close()
    if response.status != 302:
        raise RuntimeError(f"roll refused: HTTP {response.status}")
    return sent, common.entry_token_of(response.getheader("Location", ""))


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, all threads, user and system."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class LoadClient:
    """``benchmarks/sse_client.py`` in a process of its own, one JSON line each way."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("sse_client.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def send(self, **command: Any) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the load client exited")
        return json.loads(line)

    def ask(self, **command: Any) -> dict[str, Any]:
        self.send(**command)
        return self.answer()

    def __enter__(self) -> LoadClient:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            try:
                self.ask(close=True)
                self.process.wait(10)
            except (OSError, RuntimeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def open_streams(client: LoadClient, port: int, events: str, cookies: list[str], count: int):
    opened = client.ask(
        open={"port": port, "path": events, "cookies": cookies, "count": count, "at_once": OPENING}
    )
    if opened["failed"]:
        raise RuntimeError(f"{opened['failed']} streams failed, e.g. {opened['errors'][0]}")
    return opened["seconds"]


def rolls_to_everyone(client: LoadClient, port: int, roll: tuple, rolls: int) -> tuple:
    """(latencies in ms, rolls lost) for ``rolls`` rolls SPACING apart."""
    latencies, lost = [], 0
    for _ in range(rolls):
        sent, token = post_roll(port, *roll)
        last = client.ask(**{"await": token, "timeout": TIMEOUT})["last"]
        if last is None:
            lost += 1
        else:
            latencies.append((last - sent) * 1000)
        time.sleep(SPACING)
    return latencies, lost


def run(events: str, streams: list[str], roll: tuple) -> dict[str, Any]:
    """The whole run against one server, restarted once on its port for the storm."""
    env = {"PGAPPNAME": APPLICATION_NAME}
    result: dict[str, Any] = {}
    with LoadClient() as client:
        with common.uvicorn(workers=1, env=env) as (port, process):
            # Warm up: one stream and one roll, so imports and the first connections don't count.
            open_streams(client, port, events, streams, 1)
            rolls_to_everyone(client, port, roll, 1)
            result["idle"] = common.rss_kib(process.pid)
            cpu = cpu_seconds(process.pid)
            result["opening"] = open_streams(client, port, events, streams, SUBSCRIBERS - 1)
            result["setup_ms"] = (cpu_seconds(process.pid) - cpu) * 1000 / (SUBSCRIBERS - 1)
            time.sleep(2.0)  # let the server settle: idle streams only
            result["full"] = common.rss_kib(process.pid)
            result["connections"] = server_connections()
            result["latencies"], result["lost"] = rolls_to_everyone(client, port, roll, ROLLS)
            client.send(storm={"timeout": STORM_TIMEOUT})  # streams reconnect as pages do
        with common.uvicorn(workers=STORM_WORKERS, env=env, port=port):
            listening = time.perf_counter()
            storm = client.answer()
        result["storm"] = storm | {"listening": listening}
    return result


def storm_seconds(storm: dict[str, Any]) -> float:
    """From the restarted server listening to the last stream caught up (inf: not all were)."""
    if storm["back_count"] < SUBSCRIBERS or storm["back"] is None:
        return float("inf")
    return max(0.0, storm["back"] - storm["listening"])


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
    connection.close()  # the benchmark's own connection is no concern of the figures
    result = run(events, streams, roll)
    return report(result)


def report(result: dict[str, Any]) -> int:
    latencies = result["latencies"]
    per_stream = per_stream_kib(result["idle"], result["full"], SUBSCRIBERS)
    p95 = common.percentile(latencies, 95) if latencies else float("inf")
    storm = result["storm"]
    back = storm_seconds(storm)
    down = storm["listening"] - storm["dropped"] if storm["dropped"] else float("nan")
    common.table(
        ("figure", "value"),
        [
            (f"{SUBSCRIBERS} streams open and caught up in", f"{result['opening']:.1f} s"),
            ("server CPU per stream set up", f"{result['setup_ms']:.1f} ms"),
            ("server's PostgreSQL connections, streams open", result["connections"]),
            ("rolls delivered to every stream", f"{len(latencies)} of {ROLLS}"),
            ("POST → last subscriber, p50", f"{statistics.median(latencies):.0f} ms"),
            ("POST → last subscriber, p95", f"{p95:.0f} ms"),
            ("POST → last subscriber, max", f"{max(latencies):.0f} ms"),
            ("server RSS, one stream open", f"{result['idle'] / 1024:.1f} MiB"),
            (f"server RSS, {SUBSCRIBERS} idle streams", f"{result['full'] / 1024:.1f} MiB"),
            ("memory per idle stream", f"{per_stream:.0f} KiB"),
            ("restart: connections lost → new server listening", f"{down:.1f} s"),
            (
                f"restart into {STORM_WORKERS} worker(s): listening → streams back",
                f"{storm['back_count']} of {SUBSCRIBERS} in {back:.1f} s",
            ),
            ("restart: connection attempts", storm["attempts"]),
        ],
    )
    fast = not result["lost"] and p95 < TARGET_P95_MS
    small = per_stream <= TARGET_KIB_PER_STREAM
    storm_met = back < TARGET_STORM_S
    print(
        f"target: p95 POST → last subscriber under {TARGET_P95_MS:.0f} ms, nothing lost — "
        f"{common.verdict(fast)}"
    )
    print(
        f"target: at most {TARGET_KIB_PER_STREAM:.0f} KiB per idle stream — {common.verdict(small)}"
    )
    print(
        f"target: after a restart into {STORM_WORKERS} worker(s), all "
        f"{SUBSCRIBERS} streams back within {TARGET_STORM_S:.0f} s of the server listening — "
        f"{common.verdict(storm_met)}"
    )
    return 0 if fast and small and storm_met else 1


if __name__ == "__main__":
    sys.exit(main())
