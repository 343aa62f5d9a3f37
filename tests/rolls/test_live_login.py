"""A stream lives no longer than the login that opened it: logging out, a password change and a
deactivation each end the open stream at once — through a real ASGI server (tests/live_servers.py),
on the database's transport (PostgreSQL NOTIFY, or the in-process hub on SQLite) and on Redis.

The logout and the password change are made on the server, as a browser makes them; the
deactivation in this process, as the admin on another process or ``manage.py`` would make it:
the server must hear of it through the transport."""

import http.client
import re
import time
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import pytest
from django.db import connection
from django.test import Client

import live
from tests.factories import CharacterFactory
from tests.live_servers import database_url, uvicorn
from tests.redis_available import require_redis
from tests.rolls.helpers import roll_url

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "an old horse-battery 12"
ENDS_WITHIN = 3.0  # seconds: "at once", with room for a busy machine


@pytest.fixture(params=["database", "redis"])
def transport(request, settings):
    """The server's environment for one transport; this process publishes the same way."""
    if request.param == "redis":
        require_redis(settings.REDIS_URL)
        settings.LIVE_BACKEND = live.REDIS
        return {"LIVE_BACKEND": "redis", "REDIS_URL": settings.REDIS_URL}
    settings.LIVE_BACKEND = ""  # by the database: NOTIFY on PostgreSQL, the hub on SQLite
    return {"LIVE_BACKEND": ""}


def connect(base, timeout=5.0):
    parts = urlsplit(base)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)


def session_of(user):
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Browser:
    """One logged-in session against the server: its stream, and the forms it posts."""

    def __init__(self, base, session):
        self.base, self.session = base, session
        self.stream = self.response = None

    def open_stream(self, campaign_id):
        self.stream = connect(self.base)
        self.stream.request(
            "GET",
            f"/campaigns/{campaign_id}/events/",
            headers={"Cookie": f"sessionid={self.session}", "Accept": "text/event-stream"},
        )
        self.response = self.stream.getresponse()
        assert self.response.status == 200
        self.lines_until(lambda line: line.startswith("retry:"))

    def lines_until(self, predicate, within=5.0):
        deadline, lines = time.monotonic() + within, []
        while time.monotonic() < deadline:
            line = self.response.readline().decode().rstrip("\n")
            lines.append(line)
            if predicate(line):
                return lines
        raise AssertionError(f"not seen in time; got {lines!r}")

    def ended(self, within=ENDS_WITHIN):
        """Did the server end the stream within ``within`` seconds (keep-alives aside)?"""
        self.stream.sock.settimeout(within)
        deadline = time.monotonic() + within
        try:
            while time.monotonic() < deadline:
                line = self.response.readline()
                if line == b"":
                    return True
                assert not line.startswith((b"event:", b"data:")), line
        except TimeoutError:
            return False
        return False

    def post(self, path, form, page="/"):
        """A browser's form POST: the CSRF cookie and token from ``page`` first. Given time: a
        password change hashes twice with the site's own hasher (PBKDF2, about a second each on
        an idle core), and on a loaded machine that outlasted 5 s; what must be quick is the
        stream's end (``ended()``), not the form."""
        conn = connect(self.base, timeout=60)
        try:
            conn.request("GET", page, headers={"Cookie": f"sessionid={self.session}"})
            answer = conn.getresponse()
            body = answer.read().decode()
            assert answer.status == 200, (page, answer.status)
            csrf = SimpleCookie(answer.getheader("Set-Cookie"))["csrftoken"].value
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body)[1]
            conn.request(
                "POST",
                path,
                body=urlencode({**form, "csrfmiddlewaretoken": token}, doseq=True),
                headers={
                    "Cookie": f"sessionid={self.session}; csrftoken={csrf}",
                    "Content-Type": "application/x-www-form-urlencoded",
                },
            )
            answer = conn.getresponse()
            body = answer.read().decode()
            errors = re.findall(r'class="errorlist[^>]*>(.*?)</ul>', body)
            assert answer.status == 302, (path, answer.status, errors)
            for value in answer.headers.get_all("Set-Cookie") or []:
                cookie = SimpleCookie(value)
                if "sessionid" in cookie:
                    self.session = cookie["sessionid"].value
        finally:
            conn.close()

    def roll(self, character):
        skill = character.cogent.skills.get(name="Athletics")
        self.post(
            roll_url(character, "cogent-skill", skill),
            {"challenge_level": 1, "extra_penalty": 0},
            page=character.get_absolute_url(),
        )

    def hears_a_roll(self):
        self.lines_until(lambda line: line == "event: entry")
        return True

    def close(self):
        if self.stream is not None:
            self.stream.close()


def table(transport, settings):
    """Rob's player with two sessions (a phone and a laptop), the GM with one, and a server."""
    # The server checks passwords with the site's hashers, not the tests' fast one.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    character = CharacterFactory(name="Rob")
    player = character.owner
    player.set_password(PASSWORD)
    player.save()
    gm = character.campaign.memberships.get(role="gm").user
    sessions = session_of(player), session_of(player), session_of(gm)
    return character, player, sessions, uvicorn(database_url(), transport)


def test_logging_out_ends_that_sessions_stream_at_once(transport, settings):
    character, _, (phone, laptop, gm), server = table(transport, settings)
    with server as base:
        browsers = [Browser(base, s) for s in (phone, laptop, gm)]
        try:
            for browser in browsers:
                browser.open_stream(character.campaign_id)
            phone_browser, laptop_browser, gm_browser = browsers
            phone_browser.post("/accounts/logout/", {})
            assert phone_browser.ended()
            # The other session of the same player is still logged in: its stream goes on.
            gm_browser.roll(character)
            assert laptop_browser.hears_a_roll() and gm_browser.hears_a_roll()
        finally:
            for browser in browsers:
                browser.close()


def test_a_password_change_ends_every_stream_of_the_user_at_once(transport, settings):
    character, _, (phone, laptop, gm), server = table(transport, settings)
    with server as base:
        browsers = [Browser(base, s) for s in (phone, laptop, gm)]
        try:
            for browser in browsers:
                browser.open_stream(character.campaign_id)
            phone_browser, laptop_browser, gm_browser = browsers
            new = "a new horse-battery 34"
            phone_browser.post(
                "/accounts/password_change/",
                {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
                page="/accounts/password_change/",
            )
            # The laptop's session no longer logs in; the phone's was replaced by a new one
            # (Django cycles it), so its stream goes too, and a reconnect starts a new one.
            assert laptop_browser.ended() and phone_browser.ended()
            phone_browser.open_stream(character.campaign_id)
            gm_browser.roll(character)
            assert phone_browser.hears_a_roll() and gm_browser.hears_a_roll()
        finally:
            for browser in browsers:
                browser.close()


def test_deactivating_the_account_ends_its_streams_at_once(transport, settings):
    if connection.vendor != "postgresql":
        pytest.skip(
            "Deactivates from this process, which on SQLite can't write the server's copy of "
            "the database: run with DATABASE_URL=postgres://…; .ci/run does."
        )
    character, player, (phone, laptop, gm), server = table(transport, settings)
    with server as base:
        browsers = [Browser(base, s) for s in (phone, laptop, gm)]
        try:
            for browser in browsers:
                browser.open_stream(character.campaign_id)
            phone_browser, laptop_browser, gm_browser = browsers
            player.is_active = False
            player.save()  # as the admin does, on whichever process
            assert phone_browser.ended() and laptop_browser.ended()
            gm_browser.roll(character)
            assert gm_browser.hears_a_roll()
        finally:
            for browser in browsers:
                browser.close()
