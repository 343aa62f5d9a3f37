"""Exactly once and in order across processes, for real (docs/live.md "Exactly once, in order"):
two uvicorn servers on the PostgreSQL test database, streams held on both, and players of one
table rolling at once on both. Every stream must receive every entry of its campaign once, in log
order. It runs on the transport the suite runs with: NOTIFY in .ci/run's PostgreSQL pass, Redis
in its Redis pass (`-m live` with LIVE_BACKEND=redis). `make bench-delivery` is the same at the
issue's scale (50 streams, 600 rolls, uvicorn --workers 2)."""

import http.client
import threading
from urllib.parse import urlencode, urlsplit

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from benchmarks import common
from benchmarks.delivery import Streams, made_since
from tests.factories import CampaignFactory, CharacterFactory
from tests.live_servers import database_url, uvicorn
from tests.rolls.helpers import athletics, roll_url

pytestmark = pytest.mark.django_db(transaction=True)

ROLLERS = 4  # per campaign, half of them on each server
ROLLS = 8  # each


def session(user) -> str:
    client = Client()
    client.force_login(user)
    return common.cookies(client.cookies["sessionid"].value)


def roll_all(jobs: list[tuple[str, str, str]]) -> list[int]:
    """Each job (base URL, roll path, cookie) on a thread of its own, all at once: the statuses."""
    statuses: list[int] = []
    gate = threading.Barrier(len(jobs))
    body = urlencode(
        {"challenge_level": 1, "extra_penalty": 0, "csrfmiddlewaretoken": common.CSRF_SECRET}
    )

    def roller(base: str, path: str, cookie: str) -> None:
        parts = urlsplit(base)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        gate.wait()
        try:
            for _ in range(ROLLS):
                conn.request("POST", path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                statuses.append(response.status)
        finally:
            conn.close()

    threads = [threading.Thread(target=roller, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return statuses


def test_every_stream_gets_every_entry_once_in_order_across_two_processes():
    if connection.vendor != "postgresql":
        pytest.skip(
            "Needs PostgreSQL (two server processes on one database): run with "
            "DATABASE_URL=postgres://…; .ci/run does."
        )
    campaigns = [CampaignFactory(), CampaignFactory()]
    rollers = {
        c.pk: [CharacterFactory(campaign=c, name=f"Roller {n}") for n in range(ROLLERS)]
        for c in campaigns
    }
    url = database_url()
    with uvicorn(url) as server_a, uvicorn(url) as server_b:
        servers = (server_a, server_b)
        # On each server, a stream per roller (each player sees every public roll).
        keys = {
            (c, n): session(hero.owner)
            for c, heroes in rollers.items()
            for n, hero in enumerate(heroes)
        }
        paths = {key: reverse("campaign_events", args=[key[0]]) for key in keys}
        ports = [urlsplit(base).port for base in servers]
        before = {c.pk: 0 for c in campaigns}
        with Streams(ports[0], keys, paths) as on_a, Streams(ports[1], keys, paths) as on_b:
            jobs = [
                (servers[n % 2], roll_url(hero, "cogent-skill", athletics(hero)), keys[(c, n)])
                for c, heroes in rollers.items()
                for n, hero in enumerate(heroes)
            ]
            statuses = roll_all(jobs)
            assert statuses == [302] * (len(jobs) * ROLLS)
            made = made_since(before)
            expected = {key: made[key[0]] for key in keys}
            for streams in (on_a, on_b):
                streams.wait_for(expected, 20)
                for key, tokens in expected.items():
                    subscriber = streams.subscribers[key]
                    assert subscriber.error is None
                    problems = common.stream_problems(tokens, subscriber.entries)
                    assert problems == {
                        "missing": [],
                        "repeated": [],
                        "unexpected": [],
                        "out of order": [],
                    }, key
    assert all(len(tokens) == ROLLERS * ROLLS for tokens in made.values())
