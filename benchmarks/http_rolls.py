"""Roll requests against a bare Django view, side by side: many tables, one busy table, each live
transport, one and two server processes.

Servers are ``uvicorn benchmarks.asgi:application`` (DEBUG off, PostgreSQL, the production
middleware: sessions, CSRF, CSP, django-axes), one per transport and process count, the transport
chosen by the server's ``LIVE_BACKEND``. The load is CLIENTS threads, each with its own keep-alive
``http.client`` connection and its own logged-in player, sending requests back to back for
DURATION seconds after WARMUP seconds of the same load. The rows:

* **bare view**, ``POST /bench/bare/``: one INSERT, one small template (benchmarks/views.py) — the
  baseline, measured on every server in slices that alternate with each roll row's (SLICES of
  each), so each roll row is a share of the bare figure taken beside it, on the same server at the
  same minutes (a virtual machine's speed can swing by half within a minute);
* **20 campaigns**: each client rolls in a campaign of its own (its own player, character, campaign
  and session) — many tables at once, the common case — a plain (non-HTMX) Cogent roll,
  ``POST /characters/<pk>/roll/cogent-skill/<skill>/roll/``, answered with 302 to the new entry;
  once per transport: ``postgres`` (NOTIFY in the transaction), ``redis`` (PUBLISH after commit),
  ``memory`` (the in-process hub: no NOTIFY at all);
* **1 campaign**: the 20 clients are 20 players of one campaign (one busy table: every append takes
  its turn on the campaign's log head), on ``postgres``;
* **2 workers**: the 20-campaign load against ``uvicorn --workers 2``, on ``postgres`` and
  ``redis`` (``memory`` does not cross processes), with one SSE stream per campaign open on the
  server throughout: afterwards each stream must have received every entry of its campaign made
  during the load exactly once. Which process serves which connection is the kernel's choice
  (one listening socket, taken by whichever process accepts first), sampled during the row and
  printed: all 20 clients on one process is common (a quarter to two thirds of the time);
* **with streams, 1 worker**: the same 20-campaign load and streams on one process, on
  ``postgres`` and ``redis`` — what the 2-worker rows compare to. Each stream reads and renders
  every roll of its campaign, work of the same order as the roll itself, so the rows without
  streams are no yardstick for them.

After every roll row, every campaign it rolled in must have an intact, gap-free hash chain
(``RollEntry.objects.verify_chain``). Targets: on the 1-worker server a roll row's throughput at
least 60% of the bare view's (stretch: 80%) and the 1-campaign row's p99 under 300 ms; every row no
errors; the rows with streams report their share and are judged on their streams and chains.
The client runs on the same machine as the server and the database, so the absolute figures are
lower than a separate load machine would see: the share is the figure to read.

Run with ``make bench-http``; ``BENCH_SECONDS`` / ``BENCH_WARMUP`` shorten the loads for a quick
check (``BENCH_SECONDS=2 BENCH_WARMUP=1 make bench-http``).
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import nullcontext, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from urllib.parse import urlencode

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))

from benchmarks import common
from benchmarks.delivery import Streams, chains_intact, heads, made_since, streams_right

CLIENTS = 20
WARMUP = float(os.environ.get("BENCH_WARMUP", "2"))
DURATION = float(os.environ.get("BENCH_SECONDS", "8"))
SLICES = 4  # a roll row and its bare figure alternate in this many slices each
TARGET_SHARE = 0.60
STRETCH_SHARE = 0.80
TARGET_P99_MS = 300.0  # the one-campaign row: a busy table still feels instant
SETTLE = 10.0  # seconds the streams get, after the load, to hear its last rolls


@dataclass(frozen=True)
class Job:
    """What one client thread sends, again and again."""

    path: str
    body: bytes
    cookie: str
    campaign_id: int = 0  # 0: not a roll, or one not answered with a redirect (htmx)
    headers: tuple[tuple[str, str], ...] = ()  # on top of the cookie and the form's type


@dataclass
class Load:
    latencies: list[float]  # ms, successful requests only
    errors: int
    wall: float  # seconds
    # Entry tokens from the rolls' redirects (Location: /rolls/<token>/), by campaign.
    tokens: dict[int, list[str]] = field(default_factory=dict)

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0


@dataclass
class Row:
    name: str
    backend: str
    workers: int
    load: Load | None = None
    share: float | None = None  # of the bare view's throughput on the same server, just before
    skipped: str = ""
    checks: dict[str, bool] = field(default_factory=dict)  # chains, streams: passed?
    p99_target: bool = False
    streams: int = 0  # SSE streams open on the server during the row


def load(port: int, jobs: Sequence[Job], expect: int, seconds: float) -> Load:
    """One thread per job POSTing it back to back for ``seconds``."""
    latencies: list[list[float]] = [[] for _ in jobs]
    errors = [0] * len(jobs)
    tokens: list[list[str]] = [[] for _ in jobs]
    kinds: dict[str, int] = {}
    start_gate = threading.Barrier(len(jobs) + 1)
    stop_at = [0.0]

    def client(n: int) -> None:
        job = jobs[n]
        headers = {
            "Cookie": job.cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "Host": f"127.0.0.1:{port}",
            **dict(job.headers),
        }
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start_gate.wait()
        try:
            while time.perf_counter() < stop_at[0]:
                started = time.perf_counter()
                try:
                    conn.request("POST", job.path, body=job.body, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    if response.status != expect:
                        errors[n] += 1
                        kind = f"HTTP {response.status}"
                        kinds[kind] = kinds.get(kind, 0) + 1
                        continue
                except (OSError, http.client.HTTPException) as exc:
                    errors[n] += 1
                    kinds[type(exc).__name__] = kinds.get(type(exc).__name__, 0) + 1
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    continue
                latencies[n].append((time.perf_counter() - started) * 1000)
                if job.campaign_id:
                    tokens[n].append(common.entry_token_of(response.getheader("Location", "")))
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(len(jobs))]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    stop_at[0] = began + seconds
    start_gate.wait()
    for thread in threads:
        thread.join(seconds + 60)
    wall = time.perf_counter() - began
    if kinds:
        print(f"  errors: {kinds}")
    by_campaign: dict[int, list[str]] = {}
    for job, made in zip(jobs, tokens, strict=True):
        if job.campaign_id:
            by_campaign.setdefault(job.campaign_id, []).extend(made)
    return Load([x for per in latencies for x in per], sum(errors), wall, by_campaign)


def merged(loads: Sequence[Load]) -> Load:
    """Several loads of the same jobs as one: their requests, errors, time and tokens."""
    tokens: dict[int, list[str]] = {}
    for part in loads:
        for campaign_id, made in part.tokens.items():
            tokens.setdefault(campaign_id, []).extend(made)
    return Load(
        [x for part in loads for x in part.latencies],
        sum(part.errors for part in loads),
        sum(part.wall for part in loads),
        tokens,
    )


def measure_against_bare(
    port: int, jobs: Sequence[Job], bare: Sequence[Job], expect: int = 302
) -> tuple[Load, Load]:
    """The roll load and the bare view's, measured in alternating slices on one server: warm-up,
    then SLICES slices of each, bare first, DURATION seconds of each in all. A machine whose speed
    drifts within a minute (another tenant of a virtual machine's host) then slows both alike,
    where one bare figure taken before 8 s of rolls carried the drift into the share. The warm-up's
    rolls are kept in ``tokens`` too, since streams hear them as well. Returns (bare, rolls)."""
    warm = load(port, jobs, expect, WARMUP)
    bare_parts, roll_parts = [], [Load([], 0, 0.0, warm.tokens)]
    for _ in range(SLICES):
        bare_parts.append(load(port, bare, 200, DURATION / SLICES))
        roll_parts.append(load(port, jobs, expect, DURATION / SLICES))
    return merged(bare_parts), merged(roll_parts)


def failures(row: Row) -> list[str]:
    """Why a roll row misses its targets (empty: met). A bare or skipped row has none."""
    if row.skipped or row.load is None or row.share is None:
        return []
    missed = []
    # The share target is the 1-worker server's rolls alone (the issue's); rows with streams
    # report their figures and are judged on being right: errors, chains, streams.
    if row.workers == 1 and not row.streams and row.share < TARGET_SHARE:
        missed.append(f"share {row.share:.0%} < {TARGET_SHARE:.0%}")
    if row.load.errors:
        missed.append(f"{row.load.errors} errors")
    if row.p99_target and common.percentile(row.load.latencies, 99) >= TARGET_P99_MS:
        missed.append(f"p99 ≥ {TARGET_P99_MS:.0f} ms")
    missed += [f"{name} not right" for name, passed in row.checks.items() if not passed]
    return missed


# ---------------------------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------------------------


class Spread:
    """How the kernel spread the clients' connections over the worker processes during a row,
    sampled twice a second: the streams held when it starts are taken off, the rest are the
    load's clients (roll and bare slices alike)."""

    def __init__(self, pid: int, port: int) -> None:
        self.pids = worker_processes(pid)
        self.port = port
        self.samples: dict[tuple[int, ...], int] = {}
        self.streams: list[int] = []  # connections held per process when the row starts
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _held(self) -> list[int]:
        held = common.connections_held(self.pids, self.port)
        return [held[pid] for pid in self.pids]

    def __enter__(self) -> Spread:
        self.streams = self._held()
        self.thread.start()
        return self

    def _sample(self) -> None:
        while not self.stop.wait(0.5):
            clients = tuple(
                sorted(
                    (n - s for n, s in zip(self._held(), self.streams, strict=True)), reverse=True
                )
            )
            if sum(clients) == CLIENTS:  # not between two slices
                self.samples[clients] = self.samples.get(clients, 0) + 1

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)

    def report(self) -> None:
        total = sum(self.samples.values()) or 1
        spread = ", ".join(
            f"{'/'.join(map(str, k))} {n / total:.0%}"
            for k, n in sorted(self.samples.items(), key=lambda item: -item[1])
        )
        print(f"  streams per worker process: {sorted(self.streams)}; clients: {spread}")


def worker_processes(pid: int) -> list[int]:
    """uvicorn's worker processes under ``--workers`` (multiprocessing children started by
    ``spawn_main``; not its resource tracker)."""
    found = []
    for child in common.children(pid):
        with suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
    return found


def redis_problem() -> str | None:
    """None if the Redis the servers would use answers, else why not."""
    import redis

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
    except redis.RedisError as error:
        return f"Redis at {url} doesn't answer ({error})"
    return None


def roll_job(character, token: dict[str, str]) -> Job:
    from django.urls import reverse

    skill = character.cogent.skills.first()
    return Job(
        reverse("roll_create", args=[character.pk, "cogent-skill", skill.pk]),
        urlencode({"challenge_level": 3, "extra_penalty": 0, **token}).encode(),
        common.cookies(common.session_cookie(character.owner)),
        character.campaign_id,
    )


def roll_row(
    port: int,
    server: subprocess.Popen,
    name: str,
    backend: str,
    workers: int,
    jobs: list[Job],
    *,
    bare: list[Job],
    stream_cookies: dict[int, str],
    streamed: bool = False,
) -> tuple[Row, Load]:
    """The row and the bare view's load measured alongside it (its share is of that)."""
    row = Row(name, backend, workers)
    ids = sorted({job.campaign_id for job in jobs})
    if streamed:
        row.streams = len(ids)
        before = heads(ids)
        with Streams(port, {c: stream_cookies[c] for c in ids}) as streams:
            spreading = Spread(server.pid, port) if workers > 1 else None
            with spreading or nullcontext():
                beside, row.load = measure_against_bare(port, jobs, bare)
            if spreading:
                spreading.report()
            expected = made_since(before)
            streams.wait_for(expected, SETTLE)
            row.checks["streams"] = streams_right(streams, expected, row.load.tokens)
    else:
        beside, row.load = measure_against_bare(port, jobs, bare)
    row.checks["chains"] = chains_intact(ids)
    row.share = row.load.rps / beside.rps if beside.rps else 0.0
    row.p99_target = len(ids) == 1
    print(
        f"  {name}, {backend}, {workers} worker(s): {row.load.rps:.0f} req/s, "
        f"bare view {beside.rps:.0f} req/s beside it"
    )
    return row, beside


def main() -> int:
    if not common.setup("Roll request benchmark"):
        return common.SKIPPED

    print(
        f"Poolside roll requests vs a bare view — {CLIENTS} keep-alive clients, "
        f"{DURATION:g} s measured after {WARMUP:g} s warm-up per row"
    )
    print(common.machine())
    token = {"csrfmiddlewaretoken": common.CSRF_SECRET}
    # Many tables: every client is the one player of a campaign of its own.
    spread = [
        roll_job(
            common.character(common.campaign(f"bench-http-{n}"), f"bench-http-p{n}", f"Runner {n}"),
            token,
        )
        for n in range(CLIENTS)
    ]
    # One busy table: every client is one of its players.
    table = common.campaign("bench-http-table")
    together = [
        roll_job(common.character(table, f"bench-http-t{n}", f"Regular {n}"), token)
        for n in range(CLIENTS)
    ]
    bare = [Job("/bench/bare/", urlencode(token).encode(), job.cookie) for job in spread]
    # The 2-worker run's streams: one per campaign, as its player (who sees every plain roll).
    stream_cookies = {job.campaign_id: job.cookie for job in spread}
    return report(run_plan(spread, together, bare, stream_cookies))


def run_plan(
    spread: list[Job], together: list[Job], bare: list[Job], stream_cookies: dict[int, str]
) -> list[Row]:
    """Every row: each live backend on one server process, then on two."""
    no_redis = redis_problem()
    rows: list[Row] = []
    plan: list[tuple[str, int]] = [
        ("postgres", 1),
        ("redis", 1),
        ("memory", 1),
        ("postgres", 2),
        ("redis", 2),
    ]
    for backend, workers in plan:
        if backend == "redis" and no_redis:
            rows.append(Row("20 campaigns", backend, workers, skipped=no_redis))
            continue
        with common.uvicorn(workers=workers, env={"LIVE_BACKEND": backend}) as (port, server):
            load(port, bare, 200, WARMUP)
            measure = partial(
                roll_row,
                port,
                server,
                backend=backend,
                workers=workers,
                bare=bare,
                stream_cookies=stream_cookies,
            )
            measured = [measure("20 campaigns", jobs=spread, streamed=workers > 1)]
            if backend == "postgres" and workers == 1:
                measured.append(measure("1 campaign", jobs=together))
            # Across processes the streams are the point; on one, the 2-worker rows' yardstick.
            if backend != "memory" and workers == 1:
                measured.append(measure("20 campaigns", jobs=spread, streamed=True))
            # The server's bare figure: every slice of it, beside each of its roll rows.
            rows.append(Row("bare view", backend, workers, merged([b for _, b in measured])))
            rows.extend(row for row, _ in measured)
    return rows


def report_line(row: Row) -> tuple:
    """One row of the results table: its load, figures, share of the bare view and verdict."""
    if row.skipped:
        return (row.name, row.backend, row.workers, "—", *["—"] * 7, "SKIPPED (below)")
    assert row.load is not None
    latencies = row.load.latencies
    missed = failures(row)
    share = "—" if row.share is None else f"{row.share:.0%}"
    checks = ", ".join(f"{k} {'ok' if v else 'WRONG'}" for k, v in row.checks.items()) or "—"
    if row.share is None:
        outcome = "baseline"
    elif missed:
        outcome = "MISSED (" + "; ".join(missed) + ")"
    else:
        outcome = "met" + (" (stretch 80% met)" if row.share >= STRETCH_SHARE else "")
    return (
        row.name,
        row.backend,
        row.workers,
        row.streams or "—",
        len(latencies),
        row.load.errors,
        f"{row.load.rps:.0f}",
        f"{statistics.median(latencies):.1f}" if latencies else "—",
        f"{common.percentile(latencies, 99):.1f}" if latencies else "—",
        share,
        checks,
        outcome,
    )


def print_stream_costs(rows: list[Row]) -> None:
    """What the streams cost on one worker, and what a second worker gains with them."""
    for backend in ("postgres", "redis"):
        by_workers = {
            (r.workers, bool(r.streams)): r.load.rps
            for r in rows
            if r.name == "20 campaigns" and r.backend == backend and r.load
        }
        one, alone, two = (by_workers.get(k) for k in ((1, True), (1, False), (2, True)))
        if one and alone:
            print(
                f"{backend}, 20 campaigns, 1 worker: {one:.0f} req/s with their streams, "
                f"{alone:.0f} without ({one / alone:.2f}×)"
            )
        if one and two:
            print(
                f"{backend}, 20 campaigns with their streams: 1 worker {one:.0f} req/s, "
                f"2 workers {two:.0f} req/s ({two / one:.2f}×)"
            )


def report(rows: list[Row]) -> int:
    print()
    lines = [report_line(row) for row in rows]
    common.table(
        (
            "load",
            "live",
            "workers",
            "streams",
            "requests",
            "errors",
            "req/s",
            "p50 ms",
            "p99 ms",
            "of bare",
            "checks",
            "target",
        ),
        lines,
    )
    print(
        f"Targets: 1 worker, roll throughput ≥ {TARGET_SHARE:.0%} of the bare view's, measured on "
        f"the same server in slices alternating with the row's (stretch {STRETCH_SHARE:.0%}); "
        f"1 campaign: p99 < "
        f"{TARGET_P99_MS:.0f} ms; rows with streams: every stream heard every roll of its "
        "campaign once (their share is reported); every row: no errors, chains intact."
    )
    for row in rows:
        if row.skipped:
            print(f"SKIPPED: {row.name}, {row.backend}, {row.workers} worker(s) — {row.skipped}")
    print_stream_costs(rows)
    missing = [row for row in rows if failures(row)]
    errors = [row for row in rows if row.share is None and row.load and row.load.errors]
    met = not missing and not errors
    print(f"Overall: {common.verdict(met)}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
