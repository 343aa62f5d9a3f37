"""A roll target's views read the session and its user Django's way, then the target's row in one
query for that user (rolls/rolling/targets.py ``target_for_roller``): a session Django refuses is
refused, and the session row's user column never decides who rolls."""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.shortcuts import resolve_url
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from log.models import RollEntry
from sheets.models import Session
from tests.rolls.helpers import odds_url, panel_url, roll_url

pytestmark = pytest.mark.django_db

DATA = {"challenge_level": 2, "extra_penalty": 0}


def url(view, party):
    athletics = party.pc.cogent.skills.get(name="Athletics")
    to = {"panel": panel_url, "odds": odds_url, "roll": roll_url}[view]
    return to(party.pc, "cogent-skill", athletics)


def request(client, view, party, to=None):
    to = to or url(view, party)
    return client.post(to, DATA) if view == "roll" else client.get(to)


VIEWS = ["panel", "odds", "roll"]


@pytest.mark.parametrize("view", VIEWS)
def test_the_session_its_user_then_the_row_each_read_once(client, party, view):
    client.force_login(party.player)
    to = url(view, party)
    with CaptureQueriesContext(connection) as ctx:
        response = request(client, view, party, to)
    assert response.status_code == (302 if view == "roll" else 200)
    session, user, row = (q["sql"] for q in ctx.captured_queries[:3])
    assert 'FROM "sheets_session"' in session and 'FROM "auth_user"' in user
    assert '"sheets_cogentskill"' in row and '"sheets_membership"' in row
    assert sum('"sheets_session"' in q["sql"] for q in ctx.captured_queries) == 1
    assert sum('"sheets_cogentskill"' in q["sql"] for q in ctx.captured_queries) == 1


def _expire(client, party):
    Session.objects.filter(pk=client.session.session_key).update(expire_date=timezone.now())


def _tamper(client, party):
    session = Session.objects.get(pk=client.session.session_key)
    data = session.session_data
    session.session_data = data[:-1] + ("A" if data[-1] != "A" else "B")
    session.save()


def _deactivate(client, party):
    get_user_model().objects.filter(pk=party.player.pk).update(is_active=False)


def _change_password(client, party):
    party.player.set_password("changed on another device 42")
    party.player.save()


def _delete_session(client, party):
    Session.objects.filter(pk=client.session.session_key).delete()


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize(
    "refuse", [_expire, _tamper, _deactivate, _change_password, _delete_session]
)
def test_a_session_django_refuses_is_refused(client, party, view, refuse):
    """Expired, its data tampered with, its user deactivated or their password changed since,
    gone: to the login page, nothing rolled."""
    client.force_login(party.player)
    refuse(client, party)
    before = RollEntry.objects.count()
    response = request(client, view, party)
    assert response.status_code == 302
    assert response["Location"].startswith(resolve_url(settings.LOGIN_URL))
    assert RollEntry.objects.count() == before


@pytest.mark.parametrize("view", VIEWS)
def test_a_session_of_nobody_is_sent_to_log_in(client, party, view):
    session = client.session
    session["seen"] = True
    session.save()
    response = request(client, view, party)
    assert response.status_code == 302 and response["Location"].startswith(
        resolve_url(settings.LOGIN_URL)
    )


@pytest.mark.parametrize("view", VIEWS)
def test_the_session_rows_user_column_never_decides_who_rolls(client, party, view):
    """The user is who the session's signed data says, whatever the row's user column holds
    (a row written by hand): the player still rolls as themselves, and an outsider whose session
    row names the player is still a 404."""
    client.force_login(party.player)
    key = client.session.session_key
    Session.objects.filter(pk=key).update(user_id=party.nonmember.pk)
    before = RollEntry.objects.count()
    response = request(client, view, party)
    assert response.status_code == (302 if view == "roll" else 200)
    if view == "roll":
        entry = RollEntry.objects.latest("pk")
        assert entry.roller_id == party.player.pk and RollEntry.objects.count() == before + 1

    client.force_login(party.nonmember)
    Session.objects.filter(pk=client.session.session_key).update(user_id=party.player.pk)
    assert request(client, view, party).status_code == 404
    assert RollEntry.objects.count() == before + (1 if view == "roll" else 0)
