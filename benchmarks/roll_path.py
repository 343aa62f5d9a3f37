"""What one roll costs, in-process: statements, the Django process's CPU, PostgreSQL's CPU.

The click benchmark (click.py) says what a Roll click costs the whole table; this one says where
the roll request's own time goes, per system, so that a change to the roll path can be measured
step by step. For each system, one player rolls ROLLS plain rolls (nothing spent) through Django's
test client against the benchmark database (DEBUG off), after WARMUP rolls, each sent as the
panel's Roll button sends it: an htmx POST (HTMX_HEADERS, the headers click.py records from
Chromium; the form's own fields and its ``action``), answered with the result partial; and as many
bare-view requests for scale.
Per request it prints the wall time, the CPU time of this process (the server's Python work:
middleware, view, ORM, driver), the CPU time of the PostgreSQL backends serving this database
(``/proc/<pid>/stat`` of the pids ``pg_stat_activity`` lists for it) and the statements run.

Target: a roll runs at most 7 statements besides its transaction's BEGIN and COMMIT.
Run with ``make bench-roll-path``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__file__)))

from benchmarks import common
from sheets.systems import rule_system_of

WARMUP = 30
ROLLS = 400
TARGET_STATEMENTS = 7  # counted by an execute wrapper, which BEGIN and COMMIT don't pass


# Each system's plain roll (nothing spent): the URL kind of the row rolled and the form's data.
PLAIN_ROLLS: dict[str, tuple[str, dict[str, object]]] = {
    "cogent": ("cogent-skill", {"challenge_level": 3, "extra_penalty": 0}),
    "dad6": (
        "dad6-skill",
        {"difficulty": 1, "task": "mundane", "tools": 1, "helpers": 0, "advantages": 0}
        | {"time": 0, "traded_boons": 0},
    ),
    "cold_stars": ("cold-stars-skill", {"ability": "agility", "risk": 1, "modification": "none"}),
}


def htmx_headers(hero) -> dict[str, str]:
    """What htmx adds to the panel's Roll POST (besides the CSRF header, which the test client's
    default of no CSRF checks makes moot): the request, its target, its form and its page."""
    return {
        "HX-Request": "true",
        "HX-Target": "roll-panel",
        "HX-Trigger": "roll-form",
        "HX-Current-URL": f"http://127.0.0.1{hero.get_absolute_url()}",
    }


def roller(name: str, system: str):
    """A fresh campaign of ``system`` called ``name``, its player's character and the first row
    of its sheet (DAD6 sheets start without skills: one is added)."""
    campaign = common.campaign(name, system=system)
    hero = common.character(campaign, name, "Runner")
    sheet = rule_system_of(campaign).sheet_of(hero)
    if system == "dad6":
        sheet.skills.get_or_create(name="Cooking", defaults={"competence": "trained"})
    return hero, sheet.skills.order_by("pk").first()


def postgres_cpu(monitor, dbname: str) -> float:
    """Seconds of CPU used so far by the backends connected to ``dbname``."""
    pids = monitor.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = %s", [dbname]
    ).fetchall()
    ticks = 0
    for (pid,) in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a backend that ended meanwhile, or one on another host
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime + stime
    return ticks / os.sysconf("SC_CLK_TCK")


def measure(
    client, path: str, data: dict[str, object], expect: int, monitor, dbname: str, headers=None
):
    headers = headers or {}
    for _ in range(WARMUP):
        assert client.post(path, data, headers=headers).status_code == expect
    with common.QueryCounter() as statements:
        assert client.post(path, data, headers=headers).status_code == expect
    pg, cpu, wall = postgres_cpu(monitor, dbname), time.process_time(), time.perf_counter()
    for _ in range(ROLLS):
        client.post(path, data, headers=headers)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    pg = postgres_cpu(monitor, dbname) - pg
    per = 1000 / ROLLS
    return wall * per, cpu * per, pg * per, statements.count


def main() -> int:
    if not common.setup("Roll path benchmark"):
        return common.SKIPPED
    import psycopg
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    print(f"Poolside roll path — {ROLLS} htmx rolls per system in-process, after {WARMUP}")
    print(common.machine())
    dbname = connection.settings_dict["NAME"]
    monitor = psycopg.connect(common.database_url(), autocommit=True)
    rows, worst = [], 0
    for system, (kind, data) in PLAIN_ROLLS.items():
        hero, row = roller(f"bench-roll-path-{system}", system)
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(hero.owner)
        path = reverse("roll_create", args=[hero.pk, kind, row.pk])
        form = {**data, "visibility": "public", "action": "roll"}
        wall, cpu, pg, statements = measure(
            client, path, form, 200, monitor, dbname, htmx_headers(hero)
        )
        worst = max(worst, statements)
        rows.append((f"roll ({system})", f"{wall:.2f}", f"{cpu:.2f}", f"{pg:.2f}", statements))
    wall, cpu, pg, statements = measure(client, "/bench/bare/", {}, 200, monitor, dbname)
    rows.append(("bare view", f"{wall:.2f}", f"{cpu:.2f}", f"{pg:.2f}", statements))
    monitor.close()
    common.table(
        ("request", "wall ms", "Django CPU ms", "PostgreSQL CPU ms", "statements"),
        rows,
    )
    met = worst <= TARGET_STATEMENTS
    print(
        f"a roll: {worst} statements at most — target at most {TARGET_STATEMENTS}: "
        f"{common.verdict(met)}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
