"""With the database out of reach, every answer is a 503 with Retry-After and a sentence — a page
that needs no database for browsers, the API's JSON for scripts — never a 500 that reads like a
bug (docs/rolling.md, "When a roll's answer is lost"). The database is made unreachable here by a
wrapper around every statement (Django's execute_wrapper); tests/rolls/test_faults.py stops a
real PostgreSQL server."""

from __future__ import annotations

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import athletics, roll_url

pytestmark = pytest.mark.django_db


def refused(execute, sql, params, many, context):
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: refused')


def lost(execute, sql, params, many, context):
    raise InterfaceError("connection already closed")


@pytest.mark.parametrize("down", [refused, lost])
def test_a_roll_from_the_page_answers_503_and_writes_nothing(party, down):
    client = Client(raise_request_exception=False)
    client.force_login(party.player)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    with connection.execute_wrapper(down):
        response = client.post(url, {"challenge_level": 2, "extra_penalty": 0})
        htmx = client.post(
            url, {"challenge_level": 2, "extra_penalty": 0}, headers={"HX-Request": "true"}
        )
    for answer in (response, htmx):
        assert answer.status_code == 503
        assert answer["Retry-After"] == "5"
        page = answer.content.decode()
        assert "nothing was saved and no dice were rolled" in page
        assert "Error 503" in page and "Error 500" not in page
    assert not RollEntry.objects.exists()


def test_a_page_read_answers_503_too(party):
    client = Client(raise_request_exception=False)
    client.force_login(party.player)
    with connection.execute_wrapper(refused):
        response = client.get(reverse("home"))
    assert response.status_code == 503 and response["Retry-After"] == "5"


@pytest.mark.parametrize("down", [refused, lost])
def test_the_api_answers_503_in_json(party, down):
    _, raw = ApiToken.issue(party.player, name="test", scope=Scope.ROLL)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}", raise_request_exception=False)
    url = reverse("api:roll", args=[party.pc.pk, "cogent-skill", athletics(party.pc).pk])
    with connection.execute_wrapper(down):
        response = client.post(url, {"challenge_level": 2}, content_type="application/json")
        listed = client.get(reverse("api:campaigns"))
    for answer in (response, listed):
        assert answer.status_code == 503 and answer["Retry-After"] == "5"
        assert "can't reach its database" in answer.json()["detail"]
    assert not RollEntry.objects.exists()


def test_a_bug_is_still_a_500(party, monkeypatch):
    """Only the database being away is a 503: any other error stays the 500 it is."""
    client = Client(raise_request_exception=False)
    client.force_login(party.player)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("rolls.rolling.views.make_roll", broken)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    response = client.post(url, {"challenge_level": 2, "extra_penalty": 0})
    assert response.status_code == 500 and "Retry-After" not in response
