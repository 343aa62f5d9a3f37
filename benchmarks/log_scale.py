"""The log's tools at a million entries: statistics, search and exports (issue 32, items 1–3).

Uses the million-entry campaign of the log page benchmark (benchmarks/log_page.py ``fill``: made
once, reused; the database's triggers give every trial its statistics row as it is loaded). In
process with Django's test client (DEBUG off), as the GM and as a player:

* the statistics page, unfiltered and with filters (a character, any success, a date range, the
  same dates in a server 5 h 30 ahead of UTC) — target: every one under 1 s (median of REPEATS);
* searches that match (a skill a twelfth of the entries have; two words; a two-letter word) and
  ones that match nothing (a long word, a two-letter one) — target: under 300 ms (median);
* the GM's CSV and JSON exports of all 1,000,000 entries, read to the end — targets: at least
  20,000 entries a second, and the process's resident memory grows by less than 50 MB while
  streaming (sampled at every chunk, against the resident size before the request).

Run with ``make bench-log-scale``.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__file__)))

from benchmarks import common

SIZE = 1_000_000
REPEATS = 5
STATS_TARGET_S = 1.0
SEARCH_TARGET_MS = 300.0
EXPORT_RATE_TARGET = 20_000  # entries a second
EXPORT_MEMORY_TARGET_MB = 50.0
EDGES_ZONE = "Asia/Kolkata"
SEARCHES = (
    ("hit", "Stealth"),
    ("miss", "Xylophone"),
    ("hit, 2 words", "rook d6"),
    ("short hit", "ro"),  # words under 3 letters: the pieces index, not the trigram one
    ("short miss", "zq"),
)


def rss_mb() -> float:
    """The process's resident memory now (Linux: /proc/self/statm), in MB."""
    import os

    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def median_ms(client: Any, url: str, params: dict[str, Any]) -> float:
    assert client.get(url, params).status_code == 200  # warm-up
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        response = client.get(url, params)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, params, response.status_code)
    return statistics.median(times)


def export(client: Any, url: str) -> tuple[float, int, float]:
    """(seconds, bytes, MB of resident memory grown at most) of one export read to the end."""
    base = rss_mb()
    grown, size = 0.0, 0
    start = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200
    for part in response.streaming_content:
        size += len(part)
        grown = max(grown, rss_mb() - base)
    return time.perf_counter() - start, size, grown


def exports(client: Any, campaign: Any, row: Any) -> None:
    """The GM's CSV and JSON exports of the whole log, each a rate row and a memory row."""
    from django.urls import reverse

    for fmt in ("csv", "json"):
        url = reverse(f"campaign_log_{fmt}", args=[campaign.pk])
        seconds, size, grown = export(client, url)
        rate = SIZE / seconds
        row(f"{fmt.upper()} export ({size / 1e6:.0f} MB, {seconds:.0f} s)", "gm", f"{rate:,.0f}/s",
            f">= {EXPORT_RATE_TARGET:,}/s", rate >= EXPORT_RATE_TARGET)  # fmt: skip
        row(f"{fmt.upper()} export, memory", "gm", f"+{grown:.1f} MB",
            f"< {EXPORT_MEMORY_TARGET_MB:.0f} MB", grown < EXPORT_MEMORY_TARGET_MB)  # fmt: skip


def statistics_rows(clients: dict[str, Any], url: str, filters: dict[str, Any], row: Any) -> None:
    """The statistics page under each filter, as the GM and as a player."""
    from django.utils import timezone

    for role, client in clients.items():
        for name, params in filters.items():
            ms = median_ms(client, url, params)
            ok = ms < STATS_TARGET_S * 1000
            row(f"statistics, {name}", role, f"{ms:.0f} ms", f"< {STATS_TARGET_S:.0f} s", ok)
        # The same dates in a server 5 h 30 ahead of UTC: the range's edges are partial UTC
        # days, read from the trials (at most 12 hours each), the rest from the day tallies.
        with timezone.override(EDGES_ZONE):
            ms = median_ms(client, url, filters["date range"])
            ok = ms < STATS_TARGET_S * 1000
            row(f"statistics, date range, {EDGES_ZONE}", role, f"{ms:.0f} ms",
                f"< {STATS_TARGET_S:.0f} s", ok)  # fmt: skip


def search_rows(clients: dict[str, Any], url: str, row: Any) -> None:
    """The log's search for each word, as the GM and as a player."""
    for role, client in clients.items():
        for name, word in SEARCHES:
            ms = median_ms(client, url, {"q": word})
            row(
                f"search, {name} ({word})",
                role,
                f"{ms:.0f} ms",
                f"< {SEARCH_TARGET_MS:.0f} ms",
                ms < SEARCH_TARGET_MS,
            )


def main() -> int:
    if not common.setup("Log scale benchmark"):
        return common.SKIPPED
    from django.test import Client
    from django.urls import reverse

    from benchmarks.log_page import fill
    from log.models import RollEntry

    print("Poolside log tools at 1,000,000 entries (in-process, DEBUG off)")
    print(common.machine())
    campaign = fill(SIZE)
    newest = RollEntry.objects.filter(campaign=campaign).order_by("-seq").values("created_at")[0]
    day = newest["created_at"].date()
    character = campaign.characters.order_by("pk").first()
    rows, met = [], True

    def row(what: str, who: str, figure: str, target: str, ok: bool) -> None:
        nonlocal met
        met &= ok
        rows.append((what, who, figure, target, common.verdict(ok)))

    clients = {}
    for role in ("gm", "player"):
        member = campaign.memberships.filter(role=role).order_by("pk").first()
        clients[role] = Client(HTTP_HOST="127.0.0.1")
        clients[role].force_login(member.user)
    filters = {
        "unfiltered": {},
        "character": {"character": character.pk},
        "any success": {"outcome": "any_success"},
        "date range": {"date_from": (day.replace(day=1)).isoformat(), "date_to": day.isoformat()},
    }
    statistics_rows(clients, reverse("campaign_stats", args=[campaign.pk]), filters, row)
    search_rows(clients, reverse("campaign_log", args=[campaign.pk]), row)
    exports(clients["gm"], campaign, row)
    common.table(("what", "as", "measured", "target", ""), rows)
    print(f"targets (statistics, search, exports at 1M): {common.verdict(met)}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
