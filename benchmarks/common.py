"""What every PostgreSQL benchmark shares: the database, the machine, a uvicorn server, tables.

Benchmarks run against their own PostgreSQL database, ``BENCH_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/poolside_bench``), which they create and migrate themselves.
When PostgreSQL is not reachable they print why and exit 0 (skipped). Everything talks to
127.0.0.1 only, and every process a benchmark starts is stopped in a ``finally``.
"""

from __future__ import annotations

import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/poolside_bench"
# Fixed, benchmark-only: the sessions a benchmark creates in-process must be valid in its server.
SECRET_KEY = "benchmark-only-secret-key-never-used-in-production-0123456789"
SKIPPED = 0  # exit status of a skipped benchmark: `make bench` goes on with the next one


def database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL


def _maintenance_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/postgres"))


def setup(name: str) -> bool:
    """Create and migrate the benchmark database and set Django up on it. False (after printing
    why) when PostgreSQL is not reachable: the caller skips."""
    import psycopg

    url = database_url()
    host = urlsplit(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"{name}: SKIPPED — benchmarks only run against 127.0.0.1, not {host}.")
        return False
    dbname = urlsplit(url).path.lstrip("/")
    try:
        with psycopg.connect(_maintenance_url(url), autocommit=True, connect_timeout=5) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [dbname]
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{dbname}"')
    except psycopg.OperationalError as exc:
        print(f"{name}: SKIPPED — PostgreSQL is not reachable at {url}: {str(exc).strip()}")
        print(
            "  Start PostgreSQL or set BENCH_DATABASE_URL; benchmarks need the scale-out database."
        )
        return False
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.settings"
    os.environ["SECRET_KEY"] = SECRET_KEY
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(BASE_DIR))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    return True


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        ram_kb = int(Path("/proc/meminfo").read_text().split()[1])
    except OSError:
        ram_kb = 0
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg = cursor.fetchone()[0]
    return (
        f"{time.strftime('%Y-%m-%d %H:%M %Z')}; {os.cpu_count()} cores, {cpu}; "
        f"{ram_kb / 1024 / 1024:.1f} GiB RAM; Python {platform.python_version()}; PostgreSQL {pg}"
    )


# ---------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------


def user(username: str):
    from django.contrib.auth import get_user_model

    found, created = get_user_model().objects.get_or_create(username=username)
    if created:
        found.set_unusable_password()  # logins go through force_login: no password hashing cost
        found.save()
    return found


def campaign(name: str, system: str = "cogent", gm_name: str = "bench-gm"):
    """A fresh campaign (any earlier one of that name is left alone, renamed away)."""
    from sheets.models import Campaign, Membership, Role

    Campaign.objects.filter(name=name).update(name=f"{name} (old {time.time_ns()})")
    made = Campaign.objects.create(name=name, system=system)
    Membership.objects.create(campaign=made, user=user(gm_name), role=Role.GM)
    return made


def character(campaign, owner_name: str, name: str):
    from sheets.models import Character, Membership, Role

    owner = user(owner_name)
    Membership.objects.get_or_create(campaign=campaign, user=owner, defaults={"role": Role.PLAYER})
    made = Character.objects.create(campaign=campaign, owner=owner, name=name)
    made.create_sheet()
    return made


def session_cookie(user) -> str:
    """A logged-in session for ``user`` stored in the database, as a server would make it."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


# A CSRF secret is accepted unmasked as the token too (Django's CsrfViewMiddleware).
CSRF_SECRET = "b" * 32


def cookies(session: str) -> str:
    return f"sessionid={session}; csrftoken={CSRF_SECRET}"


class QueryCounter:
    """Counts the queries run on the default connection inside ``with``. An execute wrapper, not
    CaptureQueriesContext: the test client's request_started signal empties the query log."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __enter__(self) -> QueryCounter:
        from django.db import connection

        self._cm = connection.execute_wrapper(self)
        self._cm.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._cm.__exit__(*exc)


# ---------------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def uvicorn(workers: int = 1) -> Iterator[tuple[int, subprocess.Popen]]:
    """``uvicorn benchmarks.asgi:application`` on 127.0.0.1 with DEBUG off; yields (port, process).
    Always stopped."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "benchmarks.settings",
        "SECRET_KEY": SECRET_KEY,
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    from tests.live_servers import serve

    args = ["--log-level", "warning"] + (["--workers", str(workers)] if workers > 1 else [])
    with tempfile.TemporaryFile() as log:
        try:
            with contextmanager(serve)(port, env, log, "benchmarks.asgi:application", *args) as p:
                yield port, p
        except BaseException:
            log.seek(0)
            tail = log.read().decode(errors="replace")[-4000:]
            if tail:
                print(f"--- the server's log (last lines) ---\n{tail}\n---", file=sys.stderr)
            raise


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for n, row in enumerate(cells):
        print(
            "  ".join(
                c.rjust(w) if i else c.ljust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
        if n == 0:
            print("  ".join("-" * w for w in widths))


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"
