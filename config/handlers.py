"""The ASGI handler the server runs (config/asgi.py): Django's, with its middleware run as under
WSGI, and a request that leaves no garbage cycles behind.

**One hop per request.** Under ASGI Django runs every middleware that can be either sync or async
as async — Django's own (``MiddlewareMixin``), django-htmx's, django-axes', ours — and each sync
step of each one (``process_request``, ``process_response``, ``process_view``…) then hops from the
event loop to the request's thread and back; WhiteNoise, sync only, hops the other way. A request
made about twenty such hops, each a future, a thread wake-up and a context copy: about 30% of the
server's CPU for a bare view (docs/performance.md). Our views are sync but the live stream, so
nothing gains from async middleware. This handler builds the stack as WSGI does — every
middleware sync, views called as WSGI calls them (an async view through ``async_to_sync``, on the
event loop) — and enters it once, on the request's thread. Behaviour is WSGI's, which every
middleware supports.

**No cycles.** Django's ``handle`` ends every request by raising an exception of a class it
defines for that request, through an ``asyncio.TaskGroup``: the class, the exception group, its
traceback and the frames it holds (with the request and the response) are reference cycles, left
for the garbage collector; so is the request itself (``request.user`` is a closure over it). The
collector walks everything it finds, and every few hundred requests it stopped the server for
about 150 ms (docs/performance.md). :meth:`handle` here does what Django's does — the response
raced against the client's disconnect, which cancels it — with ``asyncio.wait`` instead, and once
a response is made and sent empties the request, so that all of it goes at once.
"""

from __future__ import annotations

import asyncio
from contextlib import closing, suppress
from typing import Any

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import HttpResponseBase
from django.urls import set_script_prefix


class SyncStackASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Any = self._middleware_chain  # type: ignore[has-type]
        # One hop onto the request's thread (thread-sensitive, as Django's own adaptation does).
        self._middleware_chain = self.adapt_method_mode(True, chain, False)

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        """Django's ``ASGIHandler.handle`` (6.1), its task group replaced by ``asyncio.wait``."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            set_script_prefix(get_script_prefix(scope))
            await signals.request_started.asend(sender=self.__class__, scope=scope)
            request, error_response = self.create_request(scope, body_file)
            if request is None:
                assert error_response is not None  # Django's create_request gives one or the other
                body_file.close()
                await self.send_response(error_response, send)
                await sync_to_async(error_response.close)()
                return
            made: list[HttpResponseBase] = []
            serving = asyncio.ensure_future(self._serve(request, send, made))
            listening = asyncio.ensure_future(self._disconnect(receive))
            try:
                await asyncio.wait((serving, listening), return_when=asyncio.FIRST_COMPLETED)
            finally:
                # A disconnect (or this task's own cancellation) cancels the response; a response
                # sent ends the listening. Either way both are done before the request ends.
                for task in (listening, serving):
                    if not task.done():
                        task.cancel()
                    with suppress(asyncio.CancelledError):
                        await task
            for task in (serving, listening):
                error = None if task.cancelled() else task.exception()
                # As Django's: a client gone (RequestAborted) ends the request quietly.
                if error is not None and not isinstance(error, RequestAborted):
                    raise error
            if not made:
                await signals.request_finished.asend(sender=self.__class__)
                return
            await sync_to_async(made[0].close)()
            if not serving.cancelled():  # both tasks are done by now
                # The view and every middleware are done with it (a request whose response was
                # cancelled may still be in its thread: that one is left to the collector).
                request.__dict__.clear()

    async def _disconnect(self, receive: Any) -> None:
        """Return once the client is gone: Django's ``listen_for_disconnect``, which raises
        ``RequestAborted`` instead (an exception and its traceback for every request, since a
        server says "disconnect" once it has sent the response)."""
        message = await receive()
        if message["type"] != "http.disconnect":  # as Django's: never happens
            raise AssertionError(f"Invalid ASGI message after request body: {message['type']}")

    async def _serve(self, request: Any, send: Any, made: list[HttpResponseBase]) -> None:
        response = await self.run_get_response(request)
        made.append(response)
        await self.send_response(response, send)
