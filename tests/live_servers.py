"""Real ASGI servers for tests: `uvicorn config.asgi:application` in a subprocess on a free port,
against the test database (pytest-django's live_server is WSGI, which can't stream SSE).

On PostgreSQL the servers use the test database itself (tests must commit: transactional_db). On
SQLite the test database lives in memory, which no other process can open, so ``database_url()``
copies it into a file first (the sqlite3 backup API) — call it after creating the test's data."""

from __future__ import annotations

import http.client
import os
import re
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, urlencode

from django.conf import settings
from django.db import connection

START_TIMEOUT = 20.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """A DATABASE_URL a server process can use to reach the data the test just committed."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        auth = quote(db["USER"] or "", safe="")
        if db.get("PASSWORD"):
            auth += ":" + quote(db["PASSWORD"], safe="")
        host = db.get("HOST") or "127.0.0.1"
        port = db.get("PORT") or 5432
        return f"postgres://{auth}@{host}:{port}/{db['NAME']}"
    if connection.vendor == "sqlite":
        path = Path(tempfile.mkdtemp(prefix="poolside-live-")) / "db.sqlite3"
        import sqlite3

        connection.ensure_connection()
        target = sqlite3.connect(path)
        try:
            connection.connection.backup(target)
        finally:
            target.close()
        return f"sqlite:///{path}"
    raise RuntimeError(f"No live-server support for {connection.vendor}")


def server_args() -> list[str]:
    """The uvicorn options of the Makefile's `run` target, less --host and --port: live servers
    serve the app exactly as `make run` does (--no-proxy-headers above all, see test_security)."""
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()
    line = next(line for line in makefile.splitlines() if "uvicorn config.asgi:application" in line)
    words = shlex.split(line.split("config.asgi:application", 1)[1])
    args, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("--host", "--port"):
            skip = True
        else:
            args.append(word)
    return args


@contextmanager
def uvicorn(url: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """Serve the app over ASGI on ``url``'s database, with ``env`` on top of the test's
    environment; yields the base URL. Always stopped."""
    with uvicorn_process(url, env) as (base, _process):
        yield base


@contextmanager
def uvicorn_process(
    url: str, env: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen]]:
    """``uvicorn()``, yielding the server's process too (tests that look at it in /proc)."""
    port = free_port()
    extra = env or {}
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": settings.SECRET_KEY,  # sessions made by the test stay valid
        # DEBUG: static files come from the sources (no collectstatic in tests).
        "DEBUG": "1",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }
    with tempfile.TemporaryFile() as log, contextmanager(serve)(port, env, log) as process:
        yield f"http://127.0.0.1:{port}", process


def serve(
    port: int, env: dict[str, str], log, app: str = "config.asgi:application", *args: str
) -> Iterator[subprocess.Popen]:
    """Start uvicorn serving ``app`` on 127.0.0.1:``port`` with `make run`'s options
    (``server_args()``) and ``args``, wait until it listens, yield its process, and stop it
    afterwards whatever happened (the benchmarks use it too)."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            app,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-access-log",
            "--timeout-graceful-shutdown",
            "1",
            *server_args(),
            *args,
        ],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"uvicorn exited early:\n{log.read().decode()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("uvicorn did not start in time") from None
                time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class LiveLogin:
    """Log-in attempts over HTTP against a uvicorn started by tests.live_servers, with the CSRF
    cookie and token a browser would send."""

    def __init__(self, base: str) -> None:
        self.host, self.port = base.removeprefix("http://").split(":")
        status, headers, body = self.request("GET", "/accounts/login/")
        assert status == 200, status
        self.cookie = next(
            value.split(";")[0] for name, value in headers if name.lower() == "set-cookie"
        )
        self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection(self.host, int(self.port), timeout=20)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.getheaders(), response.read().decode()
        finally:
            conn.close()

    def login(self, username, password, forwarded_for=None) -> int:
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": self.cookie,
        }
        if forwarded_for is not None:
            headers["X-Forwarded-For"] = forwarded_for
        form = urlencode(
            {"username": username, "password": password, "csrfmiddlewaretoken": self.token}
        )
        return self.request("POST", "/accounts/login/", form, headers)[0]
