"""Webhook addresses: an IPv6 address that stands for a private IPv4 one (6to4, NAT64, Teredo) is
refused like that IPv4 address, and the form says the same of a name that doesn't resolve and of
one that resolves privately (rolls/webhooks/delivery.py, docs/webhooks.md "Addresses")."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from django.urls import reverse

from rolls.models import Webhook
from rolls.webhooks.delivery import forbidden
from rolls.webhooks.reserved import OUTSIDE_GLOBAL_V6, RESERVED_V4, RESERVED_V6, reserved

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


# The reserved ranges by our own table (rolls/webhooks/reserved.py), whatever the running
# Python's ipaddress tables say: 3.12.1 counted 192.0.0.192 as public, 3.13 does not.
REFUSED = [
    "0.0.0.0",
    "0.255.255.255",
    "10.0.0.1",
    "10.255.255.255",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.255.255.255",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.1",
    "192.0.0.9",
    "192.0.0.170",
    "192.0.0.192",
    "192.0.0.255",
    "192.0.2.1",
    "192.88.99.1",
    "192.168.0.1",
    "192.168.255.255",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.7",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:192.0.0.192",
    "64:ff9b::c000:c0",
    "64:ff9b:1::1",
    "100::1",
    "100:0:0:1::1",
    "2001::1",
    "2001:1::1",
    "2001:2::1",
    "2001:db8::1",
    "2001:20::1",
    "3fff::1",
    "3fff:fff:ffff::1",
    "5f00::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fec0::1",
    "ff02::1",
    "4000::1",
    "1::1",
]
PUBLIC = [
    "1.1.1.1",
    "8.8.8.8",
    "93.184.216.34",
    "100.63.255.255",
    "100.128.0.0",
    "172.15.255.255",
    "172.32.0.0",
    "192.0.1.1",
    "192.31.196.1",
    "192.169.0.1",
    "198.20.0.1",
    "223.255.255.254",
    "2606:4700:4700::1111",
    "2a00:1450:4001::200e",
    "2002:808:808::1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2620:4f:8000::1",
    "2400:cb00::1",
]


@pytest.fixture
def tables_that_lie(monkeypatch):
    """ipaddress's own tables turned upside down: every address looks public to them (and then
    every one private), so a check that reads them fails whichever way it leans."""

    def lie(public):
        for cls in (ipaddress.IPv4Address, ipaddress.IPv6Address):
            for name in (
                "is_private",
                "is_reserved",
                "is_loopback",
                "is_link_local",
                "is_multicast",
                "is_unspecified",
                "is_site_local",
            ):
                if hasattr(cls, name):
                    monkeypatch.setattr(cls, name, property(lambda self: not public))
            monkeypatch.setattr(cls, "is_global", property(lambda self: public))

    return lie


@pytest.mark.parametrize("public", [True, False])
def test_the_reserved_ranges_are_ours_not_python_s(tables_that_lie, public):
    tables_that_lie(public)
    assert [a for a in REFUSED if not forbidden(a)] == []
    assert [a for a in PUBLIC if forbidden(a)] == []


def test_every_listed_range_is_refused_from_its_first_to_its_last_address():
    blocks = [block for block, _ in (*RESERVED_V4, *RESERVED_V6, *OUTSIDE_GLOBAL_V6)]
    for block in blocks:
        for address in (block.network_address, block.broadcast_address):
            assert reserved(address) and forbidden(str(address)), address


def test_the_form_refuses_192_0_0_192_as_python_3_12_1_did_not(client, party, tables_that_lie):
    tables_that_lie(True)  # as 3.12.1's tables judged it: global
    client.force_login(party.gm)
    url = reverse("campaign_webhooks", args=[party.campaign.pk])
    response = client.post(url, {"url": "http://192.0.0.192/", "format": "json"})
    assert response.status_code == 400
    assert "only sent to public addresses" in response.content.decode()
    assert not Webhook.objects.exists()
