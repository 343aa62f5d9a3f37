"""Live delivery exactly once and in order, on every transport, across two server processes.

For each transport that crosses processes — ``postgres`` (NOTIFY in the transaction) and
``redis`` (PUBLISH after commit) — one ``uvicorn benchmarks.asgi:application --workers 2``
(PostgreSQL, DEBUG off) serves CAMPAIGNS campaigns with STREAMS_PER_CAMPAIGN SSE streams each
(the GM's and the players'), STREAMS in all, held open by one asyncio client. Then ROLLERS
threads, ROLLERS / CAMPAIGNS players per campaign, each on a keep-alive connection of its own,
make ROLLS plain Cogent rolls in all, back to back and all at once: several players of one table
rolling together, on whichever process the kernel gave their connection, so entries of one
campaign commit one right after another from both processes and their events may arrive out of
order or close together.

Afterwards each stream must have received every entry its campaign gained during the load
exactly once and in log (chain) order: the figures are deliveries missing, repeated, unexpected
and out of order, each stream's against the database. Every campaign's chain must be intact. How
the kernel spread the streams and the rollers over the two processes is printed (all on one
process would prove little: then it is said so, and the run counts as not measured).

Targets (docs/live.md "Exactly once, in order"; issue 32): on both transports, 0 missing, 0
repeated, 0 out of order, chains intact. Run with ``make bench-delivery``; it needs PostgreSQL
(``BENCH_DATABASE_URL``) and Redis (``REDIS_URL``; without it the ``redis`` row is skipped and
counts as missed). ``BENCH_ROLLS`` shrinks a run for a quick check.
"""

from __future__ import annotations

import http.client
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))

from benchmarks import common
from benchmarks.delivery import Streams, chains_intact, heads, made_since

CAMPAIGNS = 5
STREAMS_PER_CAMPAIGN = 10
STREAMS = CAMPAIGNS * STREAMS_PER_CAMPAIGN
ROLLERS = 40  # threads, ROLLERS // CAMPAIGNS per campaign
# Each roller makes the same number: ROLLS rounds down to a multiple of ROLLERS.
ROLLS = max(1, int(os.environ.get("BENCH_ROLLS", "600")) // ROLLERS) * ROLLERS
WORKERS = 2
SETTLE = 20.0  # seconds the streams get, after the load, to hear its last rolls
TRANSPORTS = ("postgres", "redis")


@dataclass
class Result:
    transport: str
    skipped: str = ""
    rolls: int = 0
    errors: int = 0
    seconds: float = 0.0
    deliveries: int = 0  # expected: each stream, every entry of its campaign
    problems: dict[str, int] = field(default_factory=dict)  # missing, repeated, … → count
    chains: bool = False
    streams_per_process: list[int] = field(default_factory=list)
    rollers_per_process: list[int] = field(default_factory=list)

    @property
    def both_processes(self) -> bool:
        return min(self.streams_per_process, default=0) > 0 and (
            min(self.rollers_per_process, default=0) > 0
        )

    @property
    def right(self) -> bool:
        return (
            not self.skipped
            and not self.errors
            and self.chains
            and self.rolls == ROLLS
            and not any(self.problems.values())
        )


def roll(port: int, jobs: list[tuple[str, bytes, str]], per_client: int) -> tuple[int, int, float]:
    """Every job's thread POSTs its roll ``per_client`` times, all starting together; (rolls
    made, errors, seconds)."""
    made, errors = [0] * len(jobs), [0] * len(jobs)
    gate = threading.Barrier(len(jobs) + 1)

    def client(n: int) -> None:
        path, body, cookie = jobs[n]
        headers = {
            "Cookie": cookie,
            "Content-Type": "application/x-www-form-urlencoded",
            "Host": f"127.0.0.1:{port}",
        }
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.connect()  # connected before the gate: the kernel picks its process now
        gate.wait()
        try:
            for _ in range(per_client):
                try:
                    conn.request("POST", path, body=body, headers=headers)
                    response = conn.getresponse()
                    response.read()
                except (OSError, http.client.HTTPException):
                    errors[n] += 1
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                    continue
                if response.status == 302:
                    made[n] += 1
                else:
                    errors[n] += 1
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(len(jobs))]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    gate.wait()
    for thread in threads:
        thread.join(300)
    return sum(made), sum(errors), time.perf_counter() - began


def held_per_process(pids: list[int], port: int, minus: list[int] | None = None) -> list[int]:
    held = common.connections_held(pids, port)
    counts = [held[pid] for pid in pids]
    if minus:
        counts = [n - m for n, m in zip(counts, minus, strict=True)]
    return counts


def run_transport(transport: str, tables: list[dict]) -> Result:
    from benchmarks.http_rolls import worker_processes

    result = Result(transport)
    ids = [table["campaign"] for table in tables]
    cookies = {(t["campaign"], n): c for t in tables for n, c in enumerate(t["streams"])}
    paths = {(t["campaign"], n): t["events"] for t in tables for n in range(len(t["streams"]))}
    jobs = [job for table in tables for job in table["rollers"]]
    per_client = ROLLS // len(jobs)
    env = {"LIVE_BACKEND": transport}
    with common.uvicorn(workers=WORKERS, env=env) as (port, server):
        pids = worker_processes(server.pid)
        before = heads(ids)
        with Streams(port, cookies, paths) as streams:
            result.streams_per_process = held_per_process(pids, port)
            sampled: list[int] = []

            def sample() -> None:
                time.sleep(0.3)  # every roller connected, the load under way
                sampled.extend(held_per_process(pids, port, result.streams_per_process))

            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            result.rolls, result.errors, result.seconds = roll(port, jobs, per_client)
            sampler.join(5)
            result.rollers_per_process = sampled
            made = made_since(before)
            expected = {key: made[key[0]] for key in cookies}
            streams.wait_for(expected, SETTLE)
            totals = {"missing": 0, "repeated": 0, "unexpected": 0, "out of order": 0}
            for key, tokens in expected.items():
                subscriber = streams.subscribers[key]
                problems = common.stream_problems(tokens, subscriber.entries)
                if subscriber.error:
                    problems["stream error"] = [subscriber.error]
                for kind, found in problems.items():
                    totals[kind] = totals.get(kind, 0) + len(found)
                wrong = {k: v for k, v in problems.items() if v}
                if wrong:
                    summary = "; ".join(f"{k}: {len(v)} (e.g. {v[0]})" for k, v in wrong.items())
                    print(f"  stream {n_of(key)} ({len(tokens)} entries): {summary}")
            result.problems = totals
            result.deliveries = sum(len(tokens) for tokens in expected.values())
    result.chains = chains_intact(ids)
    return result


def n_of(key: tuple[int, int]) -> str:
    return f"{key[1] + 1} of campaign {key[0]}"


def tables_for_run() -> list[dict]:
    """CAMPAIGNS campaigns, each with its GM, its rollers (one character each) and members
    enough for STREAMS_PER_CAMPAIGN streams: the GM's, each roller's, and listeners'."""
    from django.urls import reverse

    token = {"csrfmiddlewaretoken": common.CSRF_SECRET}
    body = urlencode({"challenge_level": 3, "extra_penalty": 0, **token}).encode()
    tables = []
    per_table = ROLLERS // CAMPAIGNS
    for t in range(CAMPAIGNS):
        campaign = common.campaign(f"bench-delivery-{t}", gm_name=f"bench-delivery-gm{t}")
        gm = campaign.memberships.get().user
        rollers = []
        for r in range(per_table):
            hero = common.character(campaign, f"bench-delivery-{t}-p{r}", f"Roller {r}")
            skill = hero.cogent.skills.first()
            path = reverse("roll_create", args=[hero.pk, "cogent-skill", skill.pk])
            rollers.append((path, body, common.cookies(common.session_cookie(hero.owner))))
        members = [gm] + [
            common.character(campaign, f"bench-delivery-{t}-l{n}", f"Listener {n}").owner
            for n in range(STREAMS_PER_CAMPAIGN - 1 - per_table)
        ]
        listeners = [common.cookies(common.session_cookie(m)) for m in members]
        streams = (listeners + [cookie for _, _, cookie in rollers])[:STREAMS_PER_CAMPAIGN]
        tables.append(
            {
                "campaign": campaign.pk,
                "rollers": rollers,
                "streams": streams,
                "events": reverse("campaign_events", args=[campaign.pk]),
            }
        )
    return tables


def report(results: list[Result]) -> int:
    print()
    rows = []
    for r in results:
        if r.skipped:
            rows.append((r.transport, "—", "—", "—", "—", "—", "—", "—", "—", "SKIPPED"))
            continue
        rows.append(
            (
                r.transport,
                f"{r.rolls} of {ROLLS} in {r.seconds:.1f} s",
                r.errors,
                r.deliveries,
                r.problems.get("missing", 0),
                r.problems.get("repeated", 0) + r.problems.get("unexpected", 0),
                r.problems.get("out of order", 0),
                "intact" if r.chains else "BROKEN",
                f"{'/'.join(map(str, r.streams_per_process))}; "
                f"{'/'.join(map(str, r.rollers_per_process))}",
                common.verdict(r.right),
            )
        )
    common.table(
        (
            "transport",
            "rolls",
            "errors",
            "deliveries",
            "missing",
            "duplicates",
            "out of order",
            "chains",
            "per process: streams; rollers",
            "target",
        ),
        rows,
    )
    for r in results:
        if r.skipped:
            print(f"SKIPPED: {r.transport} — {r.skipped}")
        elif not r.both_processes:
            print(
                f"NOTE: {r.transport}: the kernel gave every stream or every roller to one "
                "process; the run proves less than it should (run it again)."
            )
    met = all(r.right for r in results)
    print(
        f"target: {WORKERS} workers, {STREAMS} streams, {ROLLS} concurrent rolls, on NOTIFY and on "
        f"Redis: 0 missing, 0 duplicates, each stream in log order — {common.verdict(met)}"
    )
    return 0 if met else 1


def main() -> int:
    if not common.setup("Live delivery benchmark"):
        return common.SKIPPED
    from benchmarks.http_rolls import redis_problem

    print(
        f"Poolside live delivery — {WORKERS} workers, {STREAMS} streams over {CAMPAIGNS} "
        f"campaigns, {ROLLS} rolls by {ROLLERS} players at once, per transport"
    )
    print(common.machine())
    tables = tables_for_run()
    from django.db import connection

    connection.close()
    results = []
    for transport in TRANSPORTS:
        problem = redis_problem() if transport == "redis" else None
        if problem:
            results.append(Result(transport, skipped=problem))
            continue
        print(f"== {transport}")
        results.append(run_transport(transport, tables))
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
