"""Webhook addresses: an IPv6 address that stands for a private IPv4 one (6to4, NAT64, Teredo) is
refused like that IPv4 address, and the form says the same of a name that doesn't resolve and of
one that resolves privately (rolls/webhooks/delivery.py, docs/webhooks.md "Addresses")."""

from __future__ import annotations

import socket

import pytest
from django.urls import reverse

from rolls.models import Webhook
from rolls.webhooks.delivery import forbidden

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("address", "refused"),
    [
        ("2002:7f00:1::", True),  # 6to4 of 127.0.0.1
        ("2002:a00:1::1", True),  # 6to4 of 10.0.0.1
        ("2002:a9fe:a9fe::", True),  # 6to4 of 169.254.169.254
        ("2002:808:808::", False),  # 6to4 of 8.8.8.8, a public address
        ("64:ff9b::7f00:1", True),  # NAT64 of 127.0.0.1
        ("64:ff9b::a00:1", True),  # NAT64 of 10.0.0.1
        ("64:ff9b::192.168.1.1", True),
        ("64:ff9b::808:808", False),  # NAT64 of 8.8.8.8
        ("64:ff9b:1::a00:1", True),  # the local-use NAT64 prefix: the operator's own network
        # Teredo: the client's IPv4 is stored inverted; this one is 127.0.0.1 behind 65.54.227.120.
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", True),
        ("2001:0:a00:1:8000:63bf:f7f6:f7f7", True),  # a Teredo server at 10.0.0.1
        ("::ffff:93.184.216.34", False),
    ],
)
def test_ipv6_forms_of_private_ipv4_are_refused(address, refused):
    assert forbidden(address) is refused


def _dns(monkeypatch, answers):
    """Names resolve as ``answers`` says; a name it doesn't hold doesn't resolve."""

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", (answers[host], port, 0, 0))]

    monkeypatch.setattr("rolls.webhooks.delivery.socket.getaddrinfo", getaddrinfo)


def test_the_form_refuses_6to4_and_nat64_names_and_literals(client, party, monkeypatch):
    _dns(monkeypatch, {"six.example": "2002:7f00:1::", "nat.example": "64:ff9b::a00:1"})
    client.force_login(party.gm)
    url = reverse("campaign_webhooks", args=[party.campaign.pk])
    for address in (
        "https://six.example/hook",
        "https://nat.example/hook",
        "http://[2002:7f00:1::]/hook",
        "http://[64:ff9b::7f00:1]/hook",
    ):
        response = client.post(url, {"url": address, "format": "json"})
        assert response.status_code == 400, address
        assert "only sent to public addresses" in response.content.decode(), address
    assert not Webhook.objects.exists()


def test_a_private_name_and_a_missing_name_get_the_same_message(client, party, monkeypatch):
    _dns(monkeypatch, {"inside.example": "::1", "mapped.example": "2002:a00:1::1"})
    client.force_login(party.gm)
    url = reverse("campaign_webhooks", args=[party.campaign.pk])

    def message(host):
        response = client.post(url, {"url": f"https://{host}/hook", "format": "json"})
        assert response.status_code == 400
        html = response.content.decode()
        start = html.index(f"The host {host}")
        return html[start : html.index("<", start)].replace(host, "HOST")

    private, mapped, missing = (
        message(h) for h in ("inside.example", "mapped.example", "missing.example")
    )
    assert private == mapped == missing
    assert "only sent to public addresses" in missing
