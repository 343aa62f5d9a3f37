"""The middleware stack under ASGI (web/stack.py): sync-only ``sync_stack`` last makes Django run
every middleware above it in the request's thread, entered once, instead of hopping between the
event loop and that thread for each step of each middleware (docs/performance.md)."""

import asyncio
import threading

import pytest
from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.http import HttpResponse
from django.test import AsyncClient, override_settings
from django.urls import path
from django.utils.decorators import sync_and_async_middleware
from django.utils.module_loading import import_string

from web.stack import sync_stack

THREADS: dict[str, int] = {}


@sync_and_async_middleware
def record_thread(get_response):
    """Runs either way, as Django's middleware and ours do: it notes the thread it ran in."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request):
            THREADS["middleware"] = threading.get_ident()
            return await get_response(request)

        return async_middleware

    def middleware(request):
        THREADS["middleware"] = threading.get_ident()
        return get_response(request)

    return middleware


def sync_view(request):
    THREADS["view"] = threading.get_ident()
    return HttpResponse("ok")


urlpatterns = [path("sync/", sync_view)]


def test_sync_stack_is_last_and_every_middleware_can_run_sync():
    factories = [import_string(name) for name in settings.MIDDLEWARE]
    assert factories[-1] is sync_stack
    assert (sync_stack.sync_capable, sync_stack.async_capable) == (True, False)
    # An async-only middleware would split the stack into hops again.
    assert all(getattr(factory, "sync_capable", True) for factory in factories)


@pytest.mark.parametrize("last", [True, False], ids=["with sync_stack", "without"])
def test_under_asgi_the_middleware_runs_in_the_views_thread_only_with_sync_stack(db, last):
    stack = [*settings.MIDDLEWARE[:-1], "tests.test_stack.record_thread"]
    middleware = [*stack, "web.stack.sync_stack"] if last else stack
    with override_settings(ROOT_URLCONF="tests.test_stack", MIDDLEWARE=middleware):
        response = asyncio.run(AsyncClient().get("/sync/"))
    assert response.status_code == 200
    # Without it the stack runs async, on the event loop's thread, and hops to the view's.
    assert (THREADS["middleware"] == THREADS["view"]) is last
