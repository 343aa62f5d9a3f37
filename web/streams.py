"""An event stream's request thread ends once its response starts (config/asgi.py).

Under ASGI, Django runs each request in an asgiref ``ThreadSensitiveContext``: its first
thread-sensitive call (the ``request_started`` receivers, sync middleware, the login check) starts
a thread of the request's own, which asgiref stops only when the request ends — for a live stream
(rolls/live/stream.py), never. Every idle stream kept an idle OS thread (its stack, its thread
state, its database wrapper): about a quarter of what each open stream cost the server
(docs/performance.md, bench-sse).

:func:`stream_threads` wraps Django's ASGI application (documented: an ASGI application may be
wrapped in ASGI middleware) and runs a request for an event stream in a context of its own, with
an executor it owns (asgiref's ``ThreadSensitiveContext(executor=…)``); Django's context inside it
then uses that one, as asgiref documents for an outer context. The executor runs the request's
thread-sensitive work one call at a time on one thread, as asgiref's own does, until the
response starts: by then the middleware and the view are done, and the thread is let go. The
stream reads on the event loop's shared pool (``thread_sensitive=False``); anything
thread-sensitive after that (Django closing the response) gets a fresh thread, stopped with the
request. Every other request goes to Django's application untouched.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

type Scope = dict[str, Any]
type Message = Mapping[str, object]
type Receive = Callable[[], Awaitable[Message]]
type Send = Callable[[Message], Awaitable[None]]
type ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# What a browser's EventSource asks for (ASGI header names are lower-case bytes).
EVENT_STREAM = (b"accept", b"text/event-stream")


class RequestThread(Executor):
    """One thread for the request's thread-sensitive calls, started on the first, until
    :meth:`release`; after that a new one, should anything ask (each call from the event loop,
    one at a time, as asgiref makes them)."""

    def __init__(self) -> None:
        self.pool: ThreadPoolExecutor | None = None

    def submit[T](self, fn: Callable[..., T], /, *args: object, **kwargs: object) -> Future[T]:
        if self.pool is None:
            self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="event-stream")
        return self.pool.submit(fn, *args, **kwargs)

    def release(self) -> None:
        """Let the thread go: it ends once it has run what it was given."""
        self.shutdown(wait=False)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def stream_threads(application: ASGIApp) -> ASGIApp:
    """``application`` with each event stream's request thread let go once it streams."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or EVENT_STREAM not in scope.get("headers", ()):
            await application(scope, receive, send)
            return
        thread = RequestThread()

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                thread.release()  # the middleware and the view are done with it
            await send(message)

        try:
            async with ThreadSensitiveContext(executor=thread):
                await application(scope, receive, sending)
        finally:
            thread.shutdown(wait=False)

    return app
