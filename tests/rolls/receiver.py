"""A real HTTP receiver for the webhook tests: a threaded http.server on 127.0.0.1 that records
every request and answers as scripted (status, headers, body, a delay). Webhooks may post to it
only with WEBHOOKS_ALLOW_PRIVATE (it is a loopback address)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from django.core.management import call_command
from standardwebhooks.webhooks import Webhook as StandardWebhook
from standardwebhooks.webhooks import WebhookVerificationError

from tests.local_http import LocalServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def webhook_headers(self) -> dict[str, str]:
        """The headers by lower-case name, as Standard Webhooks' receivers read them."""
        return {name.lower(): value for name, value in self.headers.items()}

    def signed_by(self, secret: str) -> bool:
        """Did a signature in ``webhook-signature`` come from ``secret``, recently? Checked by
        Standard Webhooks' own library, not by code of ours."""
        try:
            StandardWebhook(secret).verify(self.body, self.webhook_headers, json_parse=False)
        except WebhookVerificationError:
            return False
        return True


@dataclass
class Reply:
    status: int = 204
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0


class Receiver(LocalServer):
    """``with Receiver() as receiver:`` — ``receiver.url``, ``receiver.received``; queue answers
    with ``receiver.answer(Reply(500), …)`` (then 204 once they run out)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.replies: list[Reply] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                owner.received.append(Received(self.path, dict(self.headers.items()), body))
                reply = owner.replies.pop(0) if owner.replies else Reply()
                if reply.delay:
                    time.sleep(reply.delay)
                try:
                    self.send_response(reply.status)
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                except OSError:  # the client gave up waiting
                    pass

            def log_message(self, *args: Any) -> None:
                pass

        super().__init__(Handler, "/hook")

    def answer(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    @property
    def bodies(self) -> bytes:
        return b"\n".join(r.body for r in self.received)


def run_worker() -> None:
    """Run every task that is due through the database backend, as `manage.py db_worker` does,
    then return (it closes the connection between tasks: transactional tests only)."""
    call_command("db_worker", batch=True, reload=False, startup_delay=False, verbosity=0)


def deliver(webhook: Any) -> str:
    """Run the delivery task here and now, as a worker would (its retries are left scheduled)."""
    from rolls.webhooks.delivery import deliver_webhook

    return str(deliver_webhook.call(webhook.pk))


def make_due() -> None:
    """Bring every scheduled retry to now, as if its backoff had passed."""
    from django.utils import timezone

    from rolls.models import WebhookDelivery

    WebhookDelivery.objects.unsent().update(next_attempt_at=timezone.now())
