"""The GM dashboard with 1, 10 and 60 characters: query count and render time.

Target: the query count does not grow with the number of characters. Each character has rolled
twice (through the real roll view), so the dashboard's "last rolls" column has rows to show.
Runs in-process (Django's test client against the benchmark database, DEBUG off, every query
counted). Run with ``make bench-dashboard``.
"""

from __future__ import annotations

import statistics
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__file__)))

from benchmarks import common

SIZES = (1, 10, 60)
RENDERS = 20


def main() -> int:
    if not common.setup("GM dashboard benchmark"):
        return common.SKIPPED
    from django.test import Client
    from django.urls import reverse

    print("Poolside GM dashboard benchmark")
    print(common.machine())
    campaign = common.campaign("bench-dashboard")
    gm = campaign.memberships.get().user
    gm_client = Client(HTTP_HOST="127.0.0.1")
    gm_client.force_login(gm)
    url = reverse("campaign_dashboard", args=[campaign.pk])
    rows, counts = [], []
    made = 0
    for size in SIZES:
        while made < size:
            made += 1
            hero = common.character(campaign, f"bench-dash-player{made}", f"Hero {made}")
            player = Client(HTTP_HOST="127.0.0.1")
            player.force_login(hero.owner)
            skill = hero.cogent.skills.first()
            roll = reverse("roll_create", args=[hero.pk, "cogent-skill", skill.pk])
            for _ in range(2):
                response = player.post(roll, {"challenge_level": 3, "extra_penalty": 0})
                assert response.status_code == 302, response.status_code
        gm_client.get(url)  # warm-up: template loading, first connection
        with common.QueryCounter() as ctx:
            response = gm_client.get(url)
        assert response.status_code == 200, response.status_code
        assert response.content.count(b"Hero ") >= size
        times = []
        for _ in range(RENDERS):
            start = time.perf_counter()
            gm_client.get(url)
            times.append((time.perf_counter() - start) * 1000)
        counts.append(ctx.count)
        rows.append(
            (
                size,
                ctx.count,
                f"{statistics.median(times):.1f}",
                f"{common.percentile(times, 95):.1f}",
                f"{statistics.median(times) / size:.2f}",
            )
        )
    common.table(("characters", "queries", "median ms", "p95 ms", "ms per character"), rows)
    met = len(set(counts)) == 1
    print(f"target: query count does not grow with characters — {common.verdict(met)}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
