"""Playwright driving Debian's Chromium (never a downloaded browser) against pytest-django's live
server. Without Chromium these tests skip with a message, except under CI=true where they fail."""

import os
import shutil
import threading
from pathlib import Path

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client

from tests.live_servers import database_url, uvicorn

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# pytest-django's live server answers each request on its own thread, and on SQLite every thread
# shares the test's one in-memory connection (Django's connections_override), which is not safe to
# use from two threads at once. A page fires requests side by side (after a roll the sheet and its
# prompts both refresh), so on SQLite the live server answers them one at a time. PostgreSQL gives
# each thread its own connection and keeps the real concurrency (tests/rolls/test_concurrency.py).
_one_request_at_a_time = threading.Lock()
_wsgi_call = WSGIHandler.__call__


def _serialized_on_sqlite(self, environ, start_response):
    if connection.vendor != "sqlite":
        return _wsgi_call(self, environ, start_response)
    with _one_request_at_a_time:
        return _wsgi_call(self, environ, start_response)


WSGIHandler.__call__ = _serialized_on_sqlite


def chromium_path() -> str | None:
    found = shutil.which("chromium")
    if found:
        return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


# Module scope: Playwright's sync API keeps an event loop running in the main thread while it is
# open, which would break later tests that run their own loop (asyncio.run in tests/rolls).
@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    if path is None:
        message = "No Chromium found (Debian: apt-get install -y chromium); browser tests need it."
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message} It is mandatory under CI=true.")
        pytest.skip(f"{message} Skipped.")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in the main thread; the tests still create their
    # data through the ORM there, which Django would otherwise refuse as "async-unsafe".
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            yield launched
            launched.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(10_000)
    # pytest-django's live server is WSGI: the event stream answers 501 there, and the browser
    # retries it every few seconds. On SQLite every server thread shares the test's one in-memory
    # connection, so a retry landing beside a page's own request could interleave their queries
    # (a panel's odds request once read a 404). The stream is answered here instead, the same
    # way; live updates are tested against uvicorn (test_live.py).
    context.route(
        "**/campaigns/*/events/**",
        lambda route: route.fulfill(status=501, body="Live updates need the ASGI server."),
    )
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def no_js(browser, live_server):
    """A page of its own with JavaScript off: what a browser without it sees and sends."""
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def violations(page):
    """Content-Security-Policy violations Chromium reports on the page's console, as they happen:
    a test asserts the list is empty after using the page."""
    found = []
    page.on(
        "console",
        lambda message: (
            found.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return found


@pytest.fixture
def log_in(page):
    def log_in(user, password="pw"):
        page.goto("/accounts/login/")
        page.fill("#id_username", user.username)
        page.fill("#id_password", password)
        page.click("main button[type=submit]")
        page.wait_for_url(lambda url: "/accounts/login/" not in url)

    return log_in


@pytest.fixture
def pages(browser, party):
    """The GM's and ana's browsers, each in its own context, on a uvicorn serving the party's
    campaign (tests/worlds.py); Ada's Athletics is rated 2."""
    party.pc.cogent.skills.filter(name="Athletics").update(rating=2)
    # Logged in by session cookie (the server can't check the tests' fast password hashes).
    sessions = {}
    for name in ("gm", "player"):
        client = Client()
        client.force_login(getattr(party, name))
        sessions[name] = client.cookies["sessionid"].value
    # The server process reads the data committed so far (on SQLite: a file copy of it).
    with uvicorn(database_url()) as base:
        contexts = []

        def person(name):
            context = browser.new_context(base_url=base)
            context.set_default_timeout(10_000)
            context.add_cookies([{"name": "sessionid", "value": sessions[name], "url": base}])
            contexts.append(context)
            return context.new_page()

        try:
            yield {"gm": person("gm"), "player": person("player")}
        finally:
            for context in contexts:
                context.close()
