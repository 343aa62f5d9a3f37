"""What every PostgreSQL benchmark shares: the database, the machine, a uvicorn server, tables.

Benchmarks run against their own PostgreSQL database, ``BENCH_DATABASE_URL`` (default
``postgres://postgres@127.0.0.1:5432/poolside_bench``), which they create and migrate themselves.
When PostgreSQL is not reachable they print why and exit 0 (skipped). Everything talks to
127.0.0.1 only, and every process a benchmark starts is stopped in a ``finally``.
"""

from __future__ import annotations

import asyncio
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/poolside_bench"
# Fixed, benchmark-only: the sessions a benchmark creates in-process must be valid in its server.
SECRET_KEY = "benchmark-only-secret-key-never-used-in-production-0123456789"
SKIPPED = 0  # exit status of a skipped benchmark: `make bench` goes on with the next one
# A benchmark process loads data (a million entries in one statement), as manage.py does, so it runs
# without the server's statement timeout (config/settings.py); the servers it starts keep the
# caller's setting, production's default when unset (server_environment).
TIMEOUT_VARIABLE = "DATABASE_STATEMENT_TIMEOUT_MS"
CALLERS_TIMEOUT = os.environ.get(TIMEOUT_VARIABLE)


def database_url() -> str:
    return os.environ.get("BENCH_DATABASE_URL") or DEFAULT_URL


def _maintenance_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/postgres"))


def setup(name: str, *, migrate: bool = True) -> bool:
    """Create and migrate the benchmark database and set Django up on it. False (after printing
    why) when PostgreSQL is not reachable: the caller skips. ``migrate=False``: a child process
    of a benchmark that migrated already."""
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
    os.environ[TIMEOUT_VARIABLE] = "0"
    os.environ["DJANGO_SETTINGS_MODULE"] = "benchmarks.settings"
    os.environ["SECRET_KEY"] = SECRET_KEY
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(BASE_DIR))
    import django

    django.setup()
    from django.core.management import call_command

    if migrate:
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


def server_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """A benchmark server's environment: this process's, the benchmark settings, DEBUG off, the
    statement timeout as the caller had it (not this process's 0), then ``extra``."""
    server_env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "benchmarks.settings",
        "SECRET_KEY": SECRET_KEY,
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    server_env.pop(TIMEOUT_VARIABLE, None)
    if CALLERS_TIMEOUT is not None:
        server_env[TIMEOUT_VARIABLE] = CALLERS_TIMEOUT
    return {**server_env, **extra}


@contextmanager
def uvicorn(
    workers: int = 1, env: Mapping[str, str] | None = None, port: int | None = None
) -> Iterator[tuple[int, subprocess.Popen]]:
    """``uvicorn benchmarks.asgi:application`` on 127.0.0.1 with DEBUG off; yields (port, process).
    ``env`` goes on top of the server's environment (e.g. ``LIVE_BACKEND``: one transport per
    server run); ``port``: a given one (a restart), else a free one. Always stopped."""
    port = port or free_port()
    server_env = server_environment(env or {})
    from tests.live_servers import serve

    args = ["--log-level", "warning"] + (["--workers", str(workers)] if workers > 1 else [])
    with tempfile.TemporaryFile() as log:
        try:
            with contextmanager(serve)(
                port, server_env, log, "benchmarks.asgi:application", *args
            ) as p:
                yield port, p
        except BaseException:
            log.seek(0)
            tail = log.read().decode(errors="replace")[-4000:]
            if tail:
                print(f"--- the server's log (last lines) ---\n{tail}\n---", file=sys.stderr)
            raise


# ---------------------------------------------------------------------------------------------
# Event streams, as a browser holds them
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SSEMessage:
    event: str | None  # None: a comment (keep-alive) or the retry hint
    id: str | None  # an entry's token, as the stream names entries (never the pk)
    retry: int | None  # the "retry:" hint (ms): the stream is subscribed and caught up


def split_sse(buffer: str) -> tuple[list[SSEMessage], str]:
    """The complete messages at the start of ``buffer`` (blank-line separated) and the rest."""
    *blocks, rest = buffer.split("\n\n")
    messages = []
    for block in blocks:
        event = id = None
        retry = None
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "id":
                id = value
            elif name == "retry" and value.isdigit():
                retry = int(value)
        messages.append(SSEMessage(event, id, retry))
    return messages, rest


def entry_token_of(location: str) -> str:
    """The entry's token from a roll's redirect, ``/rolls/<token>/`` (its permalink)."""
    return location.rstrip("/").rsplit("/", 1)[1]


def stream_problems(expected: Sequence[str], received: Sequence[str]) -> dict[str, list[str]]:
    """How one stream's entry ids differ from ``expected`` (each exactly once, in that order):
    missing ones, ones received more than once, ones that were not expected, and ones that came
    after an entry that follows them in ``expected``. Empty lists: the stream is right."""
    seen: dict[str, int] = {}
    for token in received:
        seen[token] = seen.get(token, 0) + 1
    wanted = set(expected)
    place = {token: n for n, token in enumerate(expected)}
    late, furthest = [], -1
    for token in dict.fromkeys(received):  # first arrivals, in arrival order
        if token in place:
            if place[token] < furthest:
                late.append(token)
            furthest = max(furthest, place[token])
    return {
        "missing": sorted(wanted - seen.keys()),
        "repeated": sorted(t for t, n in seen.items() if n > 1),
        "unexpected": sorted(seen.keys() - wanted),
        "out of order": late,
    }


class Subscriber:
    """One ``GET /campaigns/<pk>/events/`` stream over a raw asyncio socket (thousands of them fit
    in one client process). Records every ``entry`` event's id and arrival time."""

    def __init__(self) -> None:
        self.caught_up = asyncio.Event()
        self.entries: list[str] = []  # entry tokens in arrival order, repeats kept
        self.received: dict[str, float] = {}  # token → first arrival (perf_counter)
        self.waiters: dict[str, asyncio.Event] = {}
        self.error: str | None = None

    async def run(self, port: int, path: str, cookie: str) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        except OSError as exc:
            self._fail(repr(exc))
            return
        try:
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                self._fail(status.decode(errors="replace").strip() or "connection closed")
                return
            chunked = False
            while (line := await reader.readline()) not in (b"\r\n", b""):
                chunked |= line.lower().startswith(b"transfer-encoding: chunked")
            buffer = ""
            while True:
                if chunked:  # HTTP/1.1 framing: a hex size line, that many bytes, CRLF
                    size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        self._fail("the stream ended")  # a live stream never ends by itself
                        return
                    data = (await reader.readexactly(size + 2))[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        self._fail("the stream ended")
                        return
                messages, buffer = split_sse(buffer + data.decode())
                for message in messages:
                    self._receive(message)
        except (OSError, ValueError, asyncio.IncompleteReadError) as exc:
            self._fail(repr(exc))
        finally:
            writer.close()

    def _receive(self, message: SSEMessage) -> None:
        if message.retry is not None:
            self.caught_up.set()
        elif message.event == "entry" and message.id is not None:
            self.entries.append(message.id)
            self.received.setdefault(message.id, time.perf_counter())
            waiter = self.waiters.pop(message.id, None)
            if waiter is not None:
                waiter.set()

    def _fail(self, error: str) -> None:
        self.error = error
        self.caught_up.set()

    async def wait_for(self, token: str) -> float:
        """When the entry ``token`` arrived (waits for it)."""
        if token not in self.received:
            await self.waiters.setdefault(token, asyncio.Event()).wait()
        return self.received[token]


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (uvicorn's workers under ``--workers``)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # The command name, in parentheses, may hold spaces: the fields after it are plain.
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return sorted(found)


def connections_held(pids: Sequence[int], port: int) -> dict[int, int]:
    """How many established TCP connections to local ``port`` each process holds (Linux /proc):
    which worker process the kernel gave each client connection."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "01":  # ESTABLISHED
                inodes.add(f"socket:[{fields[9]}]")
    held = {}
    for pid in pids:
        count = 0
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with suppress(OSError):
                    count += os.readlink(fd) in inodes
        except OSError:
            pass
        held[pid] = count
    return held


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
