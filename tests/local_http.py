"""A threaded HTTP server on 127.0.0.1, on a free port, for the stand-ins of what Poolside calls
over the network (the webhooks' receiver, Discord's API): ``with`` serves it on a daemon thread
and shuts it down."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class LocalServer:
    def __init__(self, handler: type[BaseHTTPRequestHandler], path: str) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}{path}"

    def __enter__(self) -> Self:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
