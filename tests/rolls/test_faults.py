"""Rolls under faults, against a real server on a PostgreSQL instance this test owns (it starts,
stops and removes it): a roll sent while the database is down is answered 503 with Retry-After
and written nowhere; a server killed mid-roll loses or doubles nothing, because a client that
sends the roll again with its nonce (the idempotency key, docs/api.md "Retrying a roll") gets
the entry the first request made, or the roll made now — exactly one either way.

Runs in the PostgreSQL pass (it needs PostgreSQL's programs, not the test database); under
CI=true it may not skip."""

from __future__ import annotations

import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.live_servers import free_port, serve

pytestmark = pytest.mark.django_db


def _skip_or_fail(message: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} It is mandatory under CI=true.")
    pytest.skip(message)


def _bin(program: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"))
    if not found:
        _skip_or_fail(
            f"No PostgreSQL {program} (apt-get install postgresql); the fault tests skip."
        )
    return found[-1]


class Instance:
    """A throwaway PostgreSQL server: its own data directory, port and life."""

    def __init__(self, root: Path) -> None:
        self.data, self.port = root / "data", free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/poolside"
        # PostgreSQL refuses to run as root: as root, its files and process are postgres's.
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(root, "postgres")
        self._run(_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-N")

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l",
                  str(self.data / "server.log"), "start")  # fmt: skip

    def stop(self) -> None:
        self._run(_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")


@contextmanager
def own_postgres() -> Iterator[Instance]:
    root = Path(tempfile.mkdtemp(prefix="poolside-faults-"))
    instance = Instance(root)
    instance.start()
    try:
        import psycopg

        with psycopg.connect(
            f"postgres://postgres@127.0.0.1:{instance.port}/postgres", autocommit=True
        ) as admin:
            admin.execute("CREATE DATABASE poolside")
        yield instance
    finally:
        with suppress(subprocess.CalledProcessError):  # already stopped by the test
            instance.stop()
        shutil.rmtree(root, ignore_errors=True)


def manage(url: str, *args: str) -> str:
    env = os.environ | {"DATABASE_URL": url, "SECRET_KEY": settings.SECRET_KEY, "DEBUG": "1"}
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 20):
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, dict(answer.headers), json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read() or b"{}")

    def roll_path(self) -> str:
        _, _, campaigns = self.call("GET", "/api/v1/campaigns")
        cogent = next(c for c in campaigns if c["system"] == "cogent")
        _, _, campaign = self.call("GET", f"/api/v1/campaigns/{cogent['id']}")
        mine = next(c for c in campaign["characters"] if c["can_roll"])
        _, _, targets = self.call("GET", f"/api/v1/characters/{mine['id']}/targets")
        skill = next(t for t in targets if t["kind"] == "cogent-skill")
        return f"/api/v1/characters/{mine['id']}/targets/{skill['kind']}/{skill['id']}/rolls"


def entries_with(url: str, nonce: str) -> int:
    import psycopg

    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT count(*) FROM rolls_rollentry WHERE proof -> 'alpha' ->> 'nonce' = %s",
            [nonce],
        ).fetchone()
    return row[0]


@pytest.fixture(scope="module")
def stack():
    if connection.vendor != "postgresql":
        pytest.skip("Runs in the PostgreSQL pass: it owns a PostgreSQL server of its own.")
    _bin("initdb")
    with own_postgres() as instance:
        manage(instance.url, "migrate", "--noinput")
        manage(instance.url, "createcachetable")
        manage(instance.url, "demo")
        token = manage(instance.url, "api_token", "alice", "--scope", "roll").strip()
        yield instance, token


@contextmanager
def server(instance: Instance) -> Iterator[tuple[str, subprocess.Popen]]:
    env = os.environ | {
        "DATABASE_URL": instance.url,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "1",
        "LOG_LEVEL": "WARNING",
    }
    port = free_port()
    with tempfile.TemporaryFile() as log, contextmanager(serve)(port, env, log) as process:
        yield f"http://127.0.0.1:{port}", process


def roll_until_answered(api: Api, path: str, nonce: str, deadline: float = 30):
    """A careful client: sends the roll, and while the answer is 503 or missing, sends the same
    roll again (the same nonce) after the Retry-After it was given."""
    end = time.monotonic() + deadline
    while True:
        try:
            status, headers, body = api.call("POST", path, {"challenge_level": 2, "nonce": nonce})
        except OSError:
            status, headers, body = 0, {}, {}
        if status in (200, 201) or time.monotonic() > end:
            return status, headers, body
        assert status in (0, 503), (status, body)
        time.sleep(min(float(headers.get("Retry-After", 0.2)), 0.5))


def test_a_roll_while_the_database_is_down_is_a_503_and_its_retry_rolls_once(stack):
    instance, token = stack
    with server(instance) as (base, _):
        api = Api(base, token)
        path = api.roll_path()
        instance.stop()
        try:
            status, headers, body = api.call(
                "POST", path, {"challenge_level": 2, "nonce": "outage-0001"}
            )
            assert status == 503, body
            assert headers["Retry-After"] == "5"
            assert "can't reach its database" in body["detail"]
        finally:
            instance.start()
        status, _, first = roll_until_answered(api, path, "outage-0001")
        assert status == 201, first  # nothing was written during the outage: rolled now
        status, headers, again = api.call(
            "POST", path, {"challenge_level": 2, "nonce": "outage-0001"}
        )
        assert status == 200 and headers["Idempotent-Replayed"] == "true"
        assert again["id"] == first["id"]
    assert entries_with(instance.url, "outage-0001") == 1


def test_a_server_killed_mid_roll_loses_and_doubles_nothing(stack):
    instance, token = stack
    rng = random.Random(20261207)
    nonces = [f"killed-{n:04d}" for n in range(4)]
    for nonce in nonces:
        with server(instance) as (base, process):
            api = Api(base, token)
            path = api.roll_path()
            body = {"challenge_level": 2, "nonce": nonce}
            sent = threading.Thread(target=api.call, args=("POST", path, body), daemon=True)
            try:
                sent.start()
            finally:
                time.sleep(rng.uniform(0.0, 0.08))  # somewhere in the roll's request
                os.kill(process.pid, signal.SIGKILL)
            sent.join(timeout=20)
        with server(instance) as (base, _):
            status, _, body = roll_until_answered(Api(base, token), path, nonce)
            assert status in (200, 201), body
            assert body["proof"]["alpha"]["nonce"] == nonce
    for nonce in nonces:
        assert entries_with(instance.url, nonce) == 1, nonce
    assert "chain intact and signed" in manage(instance.url, "verify_log")
