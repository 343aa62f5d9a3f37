"""Webhooks and the network: only public addresses (every one a name resolves to), the connection
made to the address that was checked, no redirect followed, slow receivers timed out, https
certificates verified (docs/webhooks.md, "Addresses")."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from rolls.models import Webhook, WebhookDelivery
from rolls.webhooks.delivery import forbidden, post, queue_entry
from tests.factories import RollEntryFactory, WebhookFactory
from tests.rolls.receiver import Receiver, Reply, deliver

pytestmark = pytest.mark.django_db


def test_a_redirect_is_never_followed(party, receiver):
    with Receiver() as elsewhere:
        receiver.answer(Reply(302, headers={"Location": elsewhere.url}))
        webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
        queue_entry(RollEntryFactory(character=party.pc).pk)
        deliver(webhook)
        assert elsewhere.received == []
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "failed" and delivery.last_status_code == 302
    assert "never follow redirects" in delivery.last_error


def test_a_slow_receiver_times_out(party, receiver, settings):
    settings.WEBHOOK_TIMEOUT = 1
    receiver.answer(Reply(204, delay=3))
    webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
    queue_entry(RollEntryFactory(character=party.pc).pk)
    started = time.monotonic()
    deliver(webhook)
    assert time.monotonic() - started < 2.5
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "failed" and "No answer within 1 seconds" in delivery.last_error


def test_loopback_is_refused_without_the_setting_in_the_form_and_when_sending(client, party):
    assert not pytest.importorskip("django.conf").settings.WEBHOOKS_ALLOW_PRIVATE
    client.force_login(party.gm)
    url = reverse("campaign_webhooks", args=[party.campaign.pk])
    for address in (
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "http://[::1]/hook",
        "http://10.1.2.3/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
    ):
        response = client.post(url, {"url": address, "format": "json"})
        assert response.status_code == 400, address
        assert "webhooks are only sent to public addresses" in response.content.decode(), address
    # With htmx the section comes back (a 2xx: htmx swaps nothing else) with the message.
    response = client.post(
        url, {"url": "http://127.0.0.1/x", "format": "json"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "only sent to public addresses" in response.content.decode()
    assert "<html" not in response.content.decode()
    assert not Webhook.objects.exists()
    for refused in ("ftp://hooks.example/", "https://user:pw@hooks.example/", "not a url"):
        response = client.post(url, {"url": refused, "format": "json"})
        assert response.status_code == 400 and not Webhook.objects.exists()

    # One added while the setting allowed it (or a name that now resolves to 127.0.0.1) is still
    # refused at send time, and nothing is sent.
    with Receiver() as receiver:
        webhook = WebhookFactory(campaign=party.campaign, url=receiver.url)
        queue_entry(RollEntryFactory(character=party.pc).pk)
        deliver(webhook)
        assert receiver.received == []
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "failed" and "only sent to public addresses" in delivery.last_error


@pytest.mark.parametrize(
    ("address", "refused"),
    [
        ("127.0.0.1", True),
        ("10.0.0.1", True),
        ("172.16.5.4", True),
        ("192.168.1.1", True),
        ("169.254.169.254", True),
        ("100.64.0.1", True),
        ("224.0.0.1", True),
        ("0.0.0.0", True),
        ("240.0.0.1", True),
        ("::1", True),
        ("fe80::1%eth0", True),
        ("fc00::1", True),
        ("::ffff:10.0.0.1", True),
        ("93.184.216.34", False),
        ("2606:4700::6810:84e5", False),
    ],
)
def test_forbidden_addresses(address, refused):
    assert forbidden(address) is refused


def _resolving(monkeypatch, *addresses):
    """Make every host name resolve to ``addresses`` (the DNS answer an attacker controls)."""
    import socket

    def getaddrinfo(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    monkeypatch.setattr("rolls.webhooks.delivery.socket.getaddrinfo", getaddrinfo)


def test_any_private_address_among_the_answers_refuses_the_host(monkeypatch, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    _resolving(monkeypatch, "93.184.216.34", "127.0.0.1")
    answer = post("https://hooks.example/x", b"{}", {})
    assert answer.status is None and "only sent to public addresses" in answer.error


def test_the_request_goes_to_the_checked_address_with_the_urls_host(receiver, monkeypatch):
    """The name is resolved once, checked, and the connection made to that very address: a DNS
    answer that changes afterwards (rebinding) can't move it. Host stays the URL's."""
    port = receiver.server.server_port
    _resolving(monkeypatch, "127.0.0.1")
    answer = post(f"http://hooks.example:{port}/in", b'{"a":1}', {"X-Test": "yes"})
    assert answer.ok and answer.status == 204
    [request] = receiver.received
    assert request.path == "/in" and request.body == b'{"a":1}'
    assert request.headers["Host"] == f"hooks.example:{port}"
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["User-Agent"].startswith("Poolside-Webhooks/")


def test_a_certificate_that_does_not_verify_is_a_failure(private, tmp_path):
    """https:// is verified against the URL's host name: a self-signed receiver is refused."""
    import shutil
    import ssl
    import subprocess
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make a self-signed certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)),
        ],
        check=True,
        capture_output=True,
    )
    got = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            got.append(self.path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.handle_request, daemon=True)
    thread.start()
    try:
        answer = post(f"https://127.0.0.1:{server.server_port}/hook", b"{}", {})
    finally:
        thread.join(5)
        server.server_close()
    assert answer.status is None and answer.error.startswith("TLS failed")
    assert got == []


def test_post_refuses_other_schemes_and_never_raises():
    assert "Only http:// and https://" in post("file:///etc/passwd", b"{}", {}).error
    assert "doesn't resolve" in post("https://nonexistent.invalid/", b"{}", {}).error
