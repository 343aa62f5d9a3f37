"""The middleware stack in one thread under ASGI: :func:`sync_stack`, last in ``MIDDLEWARE``.

Django runs each middleware that can go both ways (``sync_capable`` and ``async_capable``, as
Django's own and ours are) in the mode of the handler beneath it, so under ASGI the whole stack
ran async. Django's own middleware are sync code behind ``MiddlewareMixin``, which then steps into
the request's thread and back for each ``process_request``, ``process_view`` and
``process_response``: about twenty hops between the event loop and that thread per request, each a
wake-up of another thread. A bare view cost the server 4.3 ms of CPU that way, against 1.4 ms in
process (docs/performance.md).

A sync-only middleware last makes every middleware above it sync (Django's documented rule for
``sync_capable`` / ``async_capable``): the stack runs in the request's thread, entered once, and
only the view's call hops (Django's handler under ASGI is async). The event stream, the one async
view, is called from that thread by ``async_to_sync`` and runs on the event loop as before.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase


def sync_stack(
    get_response: Callable[[HttpRequest], HttpResponseBase],
) -> Callable[[HttpRequest], HttpResponseBase]:
    """A middleware that does nothing but run sync: see the module's docstring."""
    return get_response


sync_stack.sync_capable = True  # type: ignore[attr-defined]
sync_stack.async_capable = False  # type: ignore[attr-defined]
