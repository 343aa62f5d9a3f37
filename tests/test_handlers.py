"""config/handlers.py: under ASGI the middleware runs as under WSGI, entered once per request.

Django would run every middleware that can be sync or async as async under ASGI, hopping to a
thread for each of its sync steps (about 30% of the server's CPU for a bare view,
docs/performance.md). These tests drive the ASGI application as uvicorn does."""

import asyncio
import gc
import threading
from typing import ClassVar

import pytest
from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from asgiref.testing import ApplicationCommunicator

from config.handlers import SyncStackASGIHandler

pytestmark = pytest.mark.django_db(transaction=True)


class Either:
    """A middleware that can be sync or async, as Django's own are: it notes which it was."""

    sync_capable = True
    async_capable = True
    seen: ClassVar[list[tuple[str, int]]] = []

    def __init__(self, get_response):
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request):
        if iscoroutinefunction(self):
            return self.__acall__(request)
        Either.seen.append(("sync", threading.get_ident()))
        return self.get_response(request)

    async def __acall__(self, request):
        Either.seen.append(("async", threading.get_ident()))
        return await self.get_response(request)


def get_scope(path):
    """The ASGI scope uvicorn gives the application for a GET of ``path``."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }


def get(application, path):
    async def run():
        scope = get_scope(path)
        communicator = ApplicationCommunicator(application, scope)
        await communicator.send_input({"type": "http.request", "body": b""})
        start = await communicator.receive_output(timeout=10)
        body = b""
        while True:
            message = await communicator.receive_output(timeout=10)
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        return start["status"], body, threading.get_ident()

    return asyncio.run(run())


@pytest.fixture
def either(settings):
    Either.seen = []
    settings.MIDDLEWARE = [
        "tests.test_handlers.Either",
        *settings.MIDDLEWARE,
        "tests.test_handlers.Either",
    ]
    return Either.seen


def test_every_middleware_runs_sync_on_the_requests_thread(either):
    status, body, loop_thread = get(SyncStackASGIHandler(), "/accounts/login/")
    assert status == 200 and b"<form" in body
    # Outermost and innermost: both sync, on one thread, and not the event loop's.
    assert [mode for mode, _ in either] == ["sync", "sync"]
    assert len({thread for _, thread in either}) == 1
    assert either[0][1] != loop_thread


def test_djangos_own_handler_would_have_run_them_async(either):
    """What the handler changes: with Django's, a middleware inside WhiteNoise (sync only) runs
    async, on the event loop, each of its sync steps a hop to a thread and back."""
    from django.core.handlers.asgi import ASGIHandler

    status, _, loop_thread = get(ASGIHandler(), "/accounts/login/")
    assert status == 200
    assert either[0][0] == "sync"
    assert either[1] == ("async", loop_thread)


def test_the_served_application_is_this_handler():
    from config.asgi import application

    assert isinstance(application, SyncStackASGIHandler)


def served(application, path, times):
    """``times`` GETs of ``path`` on one event loop, as uvicorn calls the application; the
    statuses, and how many unreachable objects the garbage collector then found."""

    async def one():
        scope = get_scope(path)
        received = [{"type": "http.request", "body": b""}]
        never = asyncio.Event()
        sent = []

        async def receive():
            if received:
                return received.pop()
            await never.wait()

        async def send(message):
            sent.append(message)

        await application(scope, receive, send)
        return sent[0]["status"]

    async def run():
        await one()  # first requests load what stays loaded
        gc.collect()
        gc.disable()
        try:
            statuses = [await one() for _ in range(times)]
        finally:
            found = gc.collect()
            gc.enable()
        return statuses, found

    return asyncio.run(run())


def test_a_request_leaves_no_garbage_cycles():
    """Django's handler leaves each request in reference cycles (its per-request exception class
    and task group's traceback, the request's own closures), for the collector to find; this one
    leaves none, so the collector runs rarely and never finds much (docs/performance.md)."""
    from django.core.handlers.asgi import ASGIHandler

    statuses, found = served(SyncStackASGIHandler(), "/account/", 10)
    assert statuses == [302] * 10  # to the login page: a view, no template
    assert found == 0
    _, djangos = served(ASGIHandler(), "/account/", 10)
    assert djangos >= 10 * 20


def test_a_client_gone_before_the_response_ends_the_request_quietly():
    """The response races the client's disconnect, as in Django's handler: a disconnect cancels
    it, and nothing is sent or raised."""

    async def run():
        scope = get_scope("/accounts/login/")
        messages = [{"type": "http.disconnect"}, {"type": "http.request", "body": b""}]
        sent = []

        async def receive():
            return messages.pop()

        async def send(message):
            sent.append(message)

        await asyncio.wait_for(SyncStackASGIHandler()(scope, receive, send), 10)
        return sent

    sent = asyncio.run(run())
    # The login page may or may not have been sent before the disconnect was heard; what was
    # sent is whole or nothing, and the request ended without an error.
    assert sent == [] or sent[0]["status"] == 200
