"""Abandoned heavy requests give their worker back (issue 32, item 4).

One ``uvicorn benchmarks.asgi:application`` process (DEBUG off, PostgreSQL, the production
middleware) and the million-entry campaign of the log page benchmark (benchmarks/log_page.py
``fill``). CLIENTS threads post to the bare view (``POST /bench/bare/``: one INSERT, one small
template) back to back the whole time, each on its own keep-alive connection; its throughput is
counted per WINDOW seconds.

1. **Baseline**: the bare view's throughput over BASELINE seconds (after WARMUP).
2. **Heavy**: the GM starts four exports of the whole log (CSV, JSON, CSV, JSON — each a minute
   or more of work if it ran to the end), reads them as fast as they come for HEAVY seconds,
   then drops the four connections (a reset, as a closed tab or a killed script does).
3. **After**: the time from dropping them until the bare view's throughput is back — the first
   window from which the mean of the next HOLD seconds is at least SHARE of the baseline's median
   window — and whether the server's database connections still run an export's query then.

Target: back within 5 s. (Before item 4 a synchronous view went on to the end of its query with
nobody to answer; exports stop at the next chunk.) Run with ``make bench-abandoned``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import statistics
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))

from benchmarks import common

SIZE = 1_000_000
CLIENTS = 4
WARMUP, BASELINE, HEAVY, AFTER = 2.0, 6.0, 3.0, 12.0
WINDOW = 0.5  # seconds per throughput sample
HOLD = 2.0  # seconds the throughput must stay back
SHARE = 0.75  # of the baseline's median window
TARGET_S = 5.0


def bare_load(port: int, cookie: str, stop: threading.Event, done: list[float]) -> list:
    """CLIENTS threads posting to the bare view until ``stop``; each answer's time in ``done``."""
    body = urlencode({"csrfmiddlewaretoken": common.CSRF_SECRET}).encode()
    headers = {
        "Cookie": cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "Host": f"127.0.0.1:{port}",
    }

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while not stop.is_set():
            try:
                conn.request("POST", "/bench/bare/", body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    done.append(time.perf_counter())
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.close()

    threads = [threading.Thread(target=client, daemon=True) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    return threads


def start_heavy(port: int, cookie: str, path: str, stop: threading.Event) -> socket.socket:
    """A GET of ``path`` read as fast as it comes (a thread) until ``stop``; then left unread."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n"
    sock.sendall(request.encode())
    first = sock.recv(65536)
    assert first.startswith(b"HTTP/1.1 200"), first[:200]

    def drain() -> None:
        with contextlib.suppress(OSError):
            while not stop.is_set() and sock.recv(1 << 20):
                pass

    threading.Thread(target=drain, daemon=True).start()
    return sock


def rate(done: list[float], start: float, end: float) -> float:
    return sum(1 for t in done if start <= t < end) / (end - start)


def windows(done: list[float], start: float, end: float) -> list[float]:
    count = int((end - start) / WINDOW)
    return [rate(done, start + i * WINDOW, start + (i + 1) * WINDOW) for i in range(count)]


def recovered_after(samples: list[float], floor: float) -> float | None:
    """Seconds until the first window from which the next HOLD seconds' mean is >= floor (a mean,
    so that one slow window of a loaded machine doesn't count as not back)."""
    need = int(HOLD / WINDOW)
    for i in range(len(samples) - need + 1):
        if statistics.fmean(samples[i : i + need]) >= floor:
            return i * WINDOW
    return None


def export_queries_running() -> int:
    """The database connections running an export's chunk query now (any process)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND state = 'active' AND pid <> pg_backend_pid()"
            " AND query LIKE '%%rolls_rollentry%%' AND query LIKE '%%ORDER BY%%seq%%'"
        )
        return cursor.fetchone()[0]


@dataclass
class Run:
    """One run's finished requests and the moments between its phases."""

    done: list[float] = field(default_factory=list)
    base_start: float = 0.0
    base_end: float = 0.0
    heavy_start: float = 0.0
    heavy_end: float = 0.0
    dropped: float = 0.0
    end: float = 0.0
    running_before: int = 0
    running_after: int = 0

    def baseline_windows(self) -> list[float]:
        return windows(self.done, self.base_start, self.base_end)


def drop(socks: list[socket.socket]) -> None:
    for sock in socks:
        # Dropped as a browser tab closed mid-download: a reset, no goodbye.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


def measure(paths: list[str], gm_cookie: str, bare_cookie: str) -> Run:
    """The bare view's load throughout: a baseline, the exports streaming, then dropped."""
    run = Run()
    stop = threading.Event()
    with common.uvicorn() as (port, _):
        threads = bare_load(port, bare_cookie, stop, run.done)
        try:
            time.sleep(WARMUP)
            run.base_start = time.perf_counter()
            time.sleep(BASELINE)
            run.base_end = time.perf_counter()
            reading = threading.Event()
            socks = [start_heavy(port, gm_cookie, path, reading) for path in paths]
            run.heavy_start = time.perf_counter()
            time.sleep(HEAVY)
            run.heavy_end = time.perf_counter()
            run.running_before = export_queries_running()
            reading.set()
            drop(socks)
            run.dropped = time.perf_counter()
            time.sleep(TARGET_S)
            run.running_after = export_queries_running()
            time.sleep(AFTER - TARGET_S)
            run.end = time.perf_counter()
        finally:
            stop.set()
            for thread in threads:
                thread.join(35)
    return run


def result_rows(run: Run, back: float | None) -> list[tuple[str, str, str, str]]:
    done, dropped = run.done, run.dropped
    return [
        ("bare view, baseline", f"{rate(done, run.base_start, run.base_end):.0f}/s", "", ""),
        (
            "bare view, 4 exports streaming",
            f"{rate(done, run.heavy_start, run.heavy_end):.0f}/s",
            "",
            "",
        ),
        ("export queries running, before the drop", str(run.running_before), "", ""),
        (
            f"back to >= {SHARE:.0%} of the baseline after the drop",
            "never" if back is None else f"{back:.1f} s",
            f"< {TARGET_S:.0f} s",
            common.verdict(back is not None and back < TARGET_S),
        ),
        ("bare view, the first 5 s after", f"{rate(done, dropped, dropped + 5):.0f}/s", "", ""),
        (
            f"export queries still running {TARGET_S:.0f} s after",
            str(run.running_after),
            "0",
            common.verdict(run.running_after == 0),
        ),
    ]


def main() -> int:
    if not common.setup("Abandoned requests benchmark"):
        return common.SKIPPED
    from django.urls import reverse

    from benchmarks.log_page import fill

    print("Abandoned heavy requests: a bare view's throughput after four dropped exports")
    print(common.machine())
    campaign = fill(SIZE)
    gm = campaign.memberships.get(role="gm").user
    player = campaign.memberships.filter(role="player").order_by("pk").first().user
    gm_cookie = common.cookies(common.session_cookie(gm))
    bare_cookie = common.cookies(common.session_cookie(player))
    paths = [
        reverse(f"campaign_log_{fmt}", args=[campaign.pk]) for fmt in ("csv", "json", "csv", "json")
    ]
    run = measure(paths, gm_cookie, bare_cookie)
    after = windows(run.done, run.dropped, run.end)
    back = recovered_after(after, SHARE * statistics.median(run.baseline_windows()))
    met = back is not None and back < TARGET_S and run.running_after == 0
    rows = result_rows(run, back)
    common.table(("what", "measured", "target", ""), rows)
    print("  windows after the drop (/s): " + " ".join(f"{s:.0f}" for s in after))
    print(f"targets (abandoned requests): {common.verdict(met)}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
