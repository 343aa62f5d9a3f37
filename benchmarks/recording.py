"""Chromium's side of the click benchmark (click.py): what a page sends, as the browser's
DevTools protocol reports it, and the same requests sent again without the browser.

Debian's Chromium only (``CHROMIUM``), driven by Playwright; never a downloaded browser.
"""

from __future__ import annotations

import http.client
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
CHROMIUM_ARGS += ["--disable-component-update", "--disable-sync", "--no-first-run"]
# Set by the connection that sends a request, not part of what the page asked for.
HOP_HEADERS = {"host", "content-length", "connection", "accept-encoding"}
QUIET = 1.0  # seconds without traffic on any page: the click has been answered


@dataclass
class Sent:
    """One request as Chromium sent it."""

    method: str
    url: str
    headers: dict[str, str]
    body: bytes
    size: int = 0  # bytes received for it, headers included (0 until it finished)


@dataclass
class Recorder:
    """One page's traffic, from Chromium's DevTools protocol (Network domain)."""

    name: str
    page: Page
    sent: dict[str, Sent] = field(default_factory=dict)
    in_flight: set[str] = field(default_factory=set)
    stream: str | None = None  # the EventSource request's id
    stream_url: str = ""
    stream_bytes: int = 0
    events: list[str] = field(default_factory=list)  # the stream's event names, in order
    last: float = 0.0

    def attach(self) -> None:
        cdp = self.page.context.new_cdp_session(self.page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.dataReceived", self._data)
        cdp.on("Network.eventSourceMessageReceived", self._event)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", self._finished)

    def _sent(self, event: dict) -> None:
        self.last = time.monotonic()
        request = event["request"]
        if event.get("type") == "EventSource":
            self.stream, self.stream_url = event["requestId"], request["url"]
            return
        body = request.get("postData", "").encode()
        self.sent[event["requestId"]] = Sent(
            request["method"], request["url"], dict(request["headers"]), body
        )
        self.in_flight.add(event["requestId"])

    def _data(self, event: dict) -> None:
        if event["requestId"] == self.stream:
            self.last = time.monotonic()
            self.stream_bytes += event.get("encodedDataLength") or event["dataLength"]

    def _event(self, event: dict) -> None:
        if event["requestId"] == self.stream:
            self.last = time.monotonic()
            self.events.append(event["eventName"])

    def _finished(self, event: dict) -> None:
        self.last = time.monotonic()
        self.in_flight.discard(event["requestId"])
        if event["requestId"] in self.sent:
            self.sent[event["requestId"]].size = int(event.get("encodedDataLength", 0))

    def reset(self) -> None:
        self.sent, self.stream_bytes, self.events = {}, 0, []

    def requests(self) -> list[Sent]:
        return list(self.sent.values())


def settle(recorders: dict[str, Recorder]) -> None:
    """Until no page has had a request in flight or an event arriving for QUIET seconds."""
    page = next(iter(recorders.values())).page
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        busy = any(r.in_flight for r in recorders.values())
        if not busy and time.monotonic() - max(r.last for r in recorders.values()) >= QUIET:
            return
    raise RuntimeError("the pages never went quiet")


def send(conn: http.client.HTTPConnection, sent: Sent, cookie: str) -> tuple[int, bytes]:
    """``sent`` again, exactly as Chromium sent it, with ``cookie`` (which DevTools' request
    headers leave out: the browser adds its cookies later); (status, body)."""
    headers = {k: v for k, v in sent.headers.items() if k.lower() not in HOP_HEADERS}
    headers["Cookie"] = cookie
    conn.request(sent.method, short(sent.url), body=sent.body or None, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def short(url: str) -> str:
    """The path and query of ``url``: what a request line names."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
