"""A heavy read stops when its client goes (web/abandon.py): through the ASGI application, a
statistics request whose statement is still running when the client disconnects has that
statement cancelled on the database (PostgreSQL: a cancel request; SQLite: an interrupt), and the
request's thread ends instead of running on to the statement's end."""

import asyncio
import threading

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse

from config.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)

# Runs far longer than any test may wait: finishing it at all means it was not cancelled.
ENDLESS = {
    "postgresql": "SELECT pg_sleep(600)",
    "sqlite": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
    " SELECT count(*) FROM n",
}


class Endless:
    """Stands in for the statistics' aggregate: says when its statement is running, then runs
    one that never ends by itself, and records how it ended."""

    def __init__(self):
        self.started = threading.Event()
        self.ended = threading.Event()
        self.error = None

    def __call__(self, *args, **kwargs):
        try:
            with connection.cursor() as cursor:
                if connection.vendor == "postgresql":
                    cursor.execute("SET LOCAL statement_timeout = 0")
                self.started.set()
                cursor.execute(ENDLESS[connection.vendor])
        except OperationalError as error:
            self.error = error
            raise
        finally:
            self.ended.set()


def scope_for(path, cookie):
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"cookie", cookie.encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }


async def request_then_leave(scope, endless):
    """One request to ``application`` whose client disconnects once the statement runs."""
    sent = []
    asked = False

    async def receive():
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        while not endless.started.is_set():
            await asyncio.sleep(0.01)
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    await asyncio.wait_for(application(scope, receive, send), timeout=60)
    return sent


def test_a_disconnect_cancels_the_running_statement(party, monkeypatch):
    endless = Endless()
    monkeypatch.setattr("rolls.log.views.campaign_figures", endless)
    client = Client()
    client.force_login(party.player)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    path = reverse("campaign_stats", args=[party.campaign.pk])
    sent = asyncio.run(request_then_leave(scope_for(path, cookie), endless))
    # The thread ended because its statement was cancelled, not because it ran to the end.
    assert endless.ended.wait(timeout=60)
    assert endless.error is not None
    assert not any(m["type"] == "http.response.start" for m in sent)  # nobody to answer
