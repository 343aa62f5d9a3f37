"""A stand-in for Discord's REST API: a threaded HTTP server on 127.0.0.1 that records every
call (method, path, headers, JSON body) and answers 200 with a JSON body, or as scripted.
``DISCORD_API_URL`` points the real client code (discord/rest.py) at it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.local_http import LocalServer


@dataclass
class Call:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class DiscordStandIn(LocalServer):
    """``with DiscordStandIn() as api:`` — ``api.url``, ``api.calls``; ``api.refuse`` names the
    methods answered with a 403."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.refuse: set[str] = set()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                body = json.loads(raw) if raw else None
                owner.calls.append(Call(self.command, self.path, dict(self.headers), body))
                status = 403 if self.command in owner.refuse else 200
                answer = json.dumps(body if status == 200 else {"message": "Missing Access"})
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer.encode())))
                self.end_headers()
                self.wfile.write(answer.encode())

            do_PUT = do_PATCH = do_POST = _any

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(Handler, "/api/v10")
