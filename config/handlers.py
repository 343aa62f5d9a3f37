"""The ASGI handler the server runs (config/asgi.py): Django's, with its middleware run as under WSGI.

Under ASGI Django runs every middleware that can be either sync or async as async — Django's own
(``MiddlewareMixin``), django-htmx's, django-axes', ours — and each sync step of each one
(``process_request``, ``process_response``, ``process_view``…) then hops from the event loop to
the request's thread and back; WhiteNoise, sync only, hops the other way. A request made about
twenty such hops, each a future, a thread wake-up and a context copy: about 30% of the server's
CPU for a bare view (docs/performance.md). Our views are sync but the live stream, so nothing
gains from async middleware.

This handler builds the stack as WSGI does — every middleware sync, views called as WSGI calls
them (an async view through ``async_to_sync``, on the event loop) — and enters it once, on the
request's thread. Behaviour is WSGI's, which every middleware supports; the request's signals,
body reading and response sending stay Django's ASGI code.
"""

from __future__ import annotations

from typing import Any

from django.core.handlers.asgi import ASGIHandler


class SyncStackASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Any = self._middleware_chain  # type: ignore[has-type]
        # One hop onto the request's thread (thread-sensitive, as Django's own adaptation does).
        self._middleware_chain = self.adapt_method_mode(True, chain, False)
