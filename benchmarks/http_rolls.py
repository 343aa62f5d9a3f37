"""Roll requests against a bare Django view, side by side, on the same uvicorn server.

The server is ``uvicorn benchmarks.asgi:application`` with WORKERS worker process(es), DEBUG off,
PostgreSQL, and the production middleware (sessions, CSRF, CSP, django-axes) and live NOTIFY. The
load is CLIENTS threads, each with its own keep-alive ``http.client`` connection, sending requests
back to back for DURATION seconds after WARMUP seconds of the same load:

* the bare view, ``POST /bench/bare/``: one INSERT, one small template (benchmarks/views.py);
* a roll, ``POST /characters/<pk>/roll/cogent-skill/<skill>/roll/`` as a logged-in player, a
  plain (non-HTMX) Cogent roll answered with 302 to the new entry.

Both send the same session and CSRF cookies. The client runs on the same machine as the server
and the database. Target: roll throughput at least 60% of the bare view's.
Run with ``make bench-http``.
"""

from __future__ import annotations

import http.client
import statistics
import sys
import threading
import time
from urllib.parse import urlencode

if __package__ in (None, ""):
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__file__)))

from benchmarks import common

CLIENTS = 20
WORKERS = 1
WARMUP = 3.0
DURATION = 12.0
TARGET_RATIO = 0.60


def load(port: int, path: str, body: bytes, cookie: str, expect: int, seconds: float):
    """CLIENTS threads POSTing ``body`` to ``path`` for ``seconds``; returns (latencies ms,
    errors, wall seconds)."""
    headers = {
        "Cookie": cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "Host": f"127.0.0.1:{port}",
    }
    latencies: list[list[float]] = [[] for _ in range(CLIENTS)]
    errors = [0] * CLIENTS
    kinds: dict[str, int] = {}
    start_gate = threading.Barrier(CLIENTS + 1)
    stop_at = [0.0]

    def client(n: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        start_gate.wait()
        try:
            while time.perf_counter() < stop_at[0]:
                started = time.perf_counter()
                try:
                    conn.request("POST", path, body=body, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    if response.status != expect:
                        errors[n] += 1
                        kinds[f"HTTP {response.status}"] = (
                            kinds.get(f"HTTP {response.status}", 0) + 1
                        )
                        continue
                except (OSError, http.client.HTTPException) as exc:
                    errors[n] += 1
                    kinds[type(exc).__name__] = kinds.get(type(exc).__name__, 0) + 1
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    continue
                latencies[n].append((time.perf_counter() - started) * 1000)
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    began = time.perf_counter()
    stop_at[0] = began + seconds
    start_gate.wait()
    for thread in threads:
        thread.join(seconds + 60)
    wall = time.perf_counter() - began
    if kinds:
        print(f"  errors on {path}: {kinds}")
    return [x for per in latencies for x in per], sum(errors), wall


def main() -> int:
    if not common.setup("Roll request benchmark"):
        return common.SKIPPED
    from django.urls import reverse

    print(
        f"Poolside roll requests vs a bare view — {CLIENTS} keep-alive clients, "
        f"{DURATION:.0f} s each after {WARMUP:.0f} s warm-up, uvicorn with {WORKERS} worker"
    )
    print(common.machine())
    campaign = common.campaign("bench-http")
    hero = common.character(campaign, "bench-http-player", "Runner")
    skill = hero.cogent.skills.first()
    cookie = common.cookies(common.session_cookie(hero.owner))
    token = {"csrfmiddlewaretoken": common.CSRF_SECRET}
    targets = [
        ("bare view", "/bench/bare/", urlencode(token).encode(), 200),
        (
            "roll (Cogent)",
            reverse("roll_create", args=[hero.pk, "cogent-skill", skill.pk]),
            urlencode({"challenge_level": 3, "extra_penalty": 0, **token}).encode(),
            302,
        ),
    ]
    rows, throughput = [], {}
    with common.uvicorn(workers=WORKERS) as (port, _process):
        for name, path, body, expect in targets:
            load(port, path, body, cookie, expect, WARMUP)
            latencies, errors, wall = load(port, path, body, cookie, expect, DURATION)
            if not latencies:
                print(f"{name}: no request succeeded ({errors} errors)")
                return 1
            rps = len(latencies) / wall
            throughput[name] = rps
            rows.append(
                (
                    name,
                    len(latencies),
                    errors,
                    f"{rps:.0f}",
                    f"{statistics.median(latencies):.1f}",
                    f"{common.percentile(latencies, 99):.1f}",
                )
            )
    common.table(("target", "requests", "errors", "req/s", "p50 ms", "p99 ms"), rows)
    ratio = throughput["roll (Cogent)"] / throughput["bare view"]
    met = ratio >= TARGET_RATIO and all(row[2] == 0 for row in rows)
    print(
        f"roll/bare throughput: {ratio:.0%} — target at least {TARGET_RATIO:.0%}, no errors: "
        f"{common.verdict(met)}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
