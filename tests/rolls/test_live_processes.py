"""Fan-out across processes, for real: two uvicorn servers on the PostgreSQL test database; a roll
POSTed to one appears on an SSE stream held on the other (NOTIFY/LISTEN between them)."""

import http.client
import re
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from django.db import connection
from django.test import Client

from log.models import RollEntry
from log.tokens import entry_token
from tests.factories import CharacterFactory
from tests.live_servers import database_url, uvicorn, uvicorn_process
from tests.rolls.helpers import roll_url

pytestmark = pytest.mark.django_db(transaction=True)


def connect(base: str) -> http.client.HTTPConnection:
    parts = urlsplit(base)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)


def read_until(response, predicate, deadline: float) -> list[str]:
    """Lines of an SSE stream up to the first that satisfies ``predicate``."""
    lines = []
    while time.monotonic() < deadline:
        line = response.fp.readline().decode().rstrip("\n")
        lines.append(line)
        if predicate(line):
            return lines
    raise AssertionError(f"not seen in time; got {lines!r}")


def open_stream(base: str, campaign_id: int, session: str):
    """A caught-up event stream: (connection, response), the retry hint read."""
    stream = connect(base)
    stream.request(
        "GET",
        f"/campaigns/{campaign_id}/events/",
        headers={"Cookie": f"sessionid={session}", "Accept": "text/event-stream"},
    )
    response = stream.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type") == "text/event-stream"
    # The retry hint comes once the stream is subscribed and caught up.
    read_until(response, lambda line: line.startswith("retry:"), time.monotonic() + 5)
    return stream, response


def test_a_roll_posted_to_one_process_reaches_a_stream_on_another():
    if connection.vendor != "postgresql":
        pytest.skip(
            "Needs PostgreSQL (NOTIFY/LISTEN between processes): run with "
            "DATABASE_URL=postgres://…; .ci/run does."
        )
    character = CharacterFactory(name="Rob")
    skill = character.cogent.skills.get(name="Athletics")
    client = Client()
    client.force_login(character.owner)
    session = client.cookies["sessionid"].value
    url = database_url()

    with uvicorn(url) as server_a, uvicorn(url) as server_b:
        stream, response = open_stream(server_b, character.campaign_id, session)

        # A plain browser POST to the other process, CSRF and all.
        page = connect(server_a)
        page.request(
            "GET", character.get_absolute_url(), headers={"Cookie": f"sessionid={session}"}
        )
        sheet = page.getresponse()
        body = sheet.read().decode()
        assert sheet.status == 200
        cookie = SimpleCookie(sheet.getheader("Set-Cookie"))["csrftoken"].value
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)[1]
        page.request(
            "POST",
            roll_url(character, "cogent-skill", skill),
            body=urlencode(
                {"challenge_level": 1, "extra_penalty": 0, "csrfmiddlewaretoken": token}
            ),
            headers={
                "Cookie": f"sessionid={session}; csrftoken={cookie}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        )
        posted = page.getresponse()
        posted.read()
        sent = time.monotonic()
        assert posted.status == 302, posted.status
        entry = RollEntry.objects.get(character=character)
        assert posted.getheader("Location") == entry.get_absolute_url()

        token = entry_token(entry.pk)  # streams name entries by token, never by pk
        lines = read_until(response, lambda line: line == f"id: {token}", sent + 2)
        assert "event: entry" in lines
        data = read_until(response, lambda line: line.startswith("data: "), sent + 2)
        assert data[-1].startswith(
            "data: <li"
        )  # the log item (after its day heading), as the log takes it
        stream.close()
        page.close()


def _server_connections(dbname: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [dbname],
        )
        return cursor.fetchone()[0]


def test_open_streams_hold_no_database_connection():
    """Dozens of idle streams on one process use no more connections than one stream does (the
    request thread's connection from the login check is given back before streaming)."""
    if connection.vendor != "postgresql":
        pytest.skip("Counts PostgreSQL connections: run with DATABASE_URL=postgres://…")
    character = CharacterFactory(name="Rob")
    client = Client()
    client.force_login(character.owner)
    session = client.cookies["sessionid"].value
    dbname = connection.settings_dict["NAME"]
    streams = []
    with uvicorn(database_url()) as server:
        try:
            streams.append(open_stream(server, character.campaign_id, session)[0])
            time.sleep(0.5)
            with_one = _server_connections(dbname)
            for _ in range(30):
                streams.append(open_stream(server, character.campaign_id, session)[0])
            time.sleep(0.5)
            assert _server_connections(dbname) <= with_one
        finally:
            for stream in streams:
                stream.close()


def _threads(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("Threads:")).split()[1])


def test_open_streams_hold_no_thread():
    """Dozens of idle streams on one process run on no more threads than one stream does: the
    thread asgiref starts for each request's thread-sensitive work (sync middleware, the login
    check) is let go once the stream streams, instead of idling for the stream's lifetime."""
    if not Path("/proc/self/status").exists():
        pytest.skip("Counts the server's threads in /proc (Linux).")
    character = CharacterFactory(name="Rob")
    client = Client()
    client.force_login(character.owner)
    session = client.cookies["sessionid"].value
    streams = []
    with uvicorn_process(database_url()) as (server, process):
        try:
            streams.append(open_stream(server, character.campaign_id, session)[0])
            time.sleep(0.5)
            with_one = _threads(process.pid)
            for _ in range(30):
                streams.append(open_stream(server, character.campaign_id, session)[0])
            time.sleep(0.5)  # a released thread ends as soon as it wakes
            # The loop's shared pool (at most a handful) may grow while the streams open.
            assert _threads(process.pid) <= with_one + 8
        finally:
            for stream in streams:
                stream.close()
