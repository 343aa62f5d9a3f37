"""The address ranges a webhook is never sent to, kept here rather than read from Python's
``ipaddress`` (whose ``is_private``/``is_global`` tables change between patch releases: 3.12.1
took ``192.0.0.192`` for a public address, 3.13 does not). docs/webhooks.md lists them.

From IANA's special-purpose address registries (IPv4 and IPv6, as of 2026-12) every block that
is not globally reachable, and besides: multicast, the reserved "class E" block, and — for IPv6 —
everything outside the global unicast space ``2000::/3`` (unassigned, unique-local,
link-local, site-local, multicast). A few registry blocks inside ``192.0.0.0/24`` and
``2001::/23`` are marked globally reachable (anycast PCP and TURN relays, AMT, AS112); nobody
posts a webhook to those, so the whole block is refused (a decision, not the registry's).

IPv4-mapped addresses, NAT64's well-known prefix, 6to4 and Teredo carry an IPv4 address: they
are judged by it (``rolls.webhooks.delivery.embedded_ipv4``), not listed here.
"""

from __future__ import annotations

from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

# (block, what it is): IANA IPv4 Special-Purpose Address Registry (RFC 6890 and after), plus
# multicast (RFC 5771).
RESERVED_V4: tuple[tuple[IPv4Network, str], ...] = tuple(
    (IPv4Network(block), what)
    for block, what in (
        ("0.0.0.0/8", "this network (RFC 791)"),
        ("10.0.0.0/8", "private use (RFC 1918)"),
        ("100.64.0.0/10", "shared address space, carrier-grade NAT (RFC 6598)"),
        ("127.0.0.0/8", "loopback (RFC 1122)"),
        ("169.254.0.0/16", "link local (RFC 3927)"),
        ("172.16.0.0/12", "private use (RFC 1918)"),
        ("192.0.0.0/24", "IETF protocol assignments (RFC 6890)"),
        ("192.0.2.0/24", "documentation, TEST-NET-1 (RFC 5737)"),
        ("192.88.99.0/24", "deprecated 6to4 relay anycast (RFC 7526)"),
        ("192.168.0.0/16", "private use (RFC 1918)"),
        ("198.18.0.0/15", "benchmarking (RFC 2544)"),
        ("198.51.100.0/24", "documentation, TEST-NET-2 (RFC 5737)"),
        ("203.0.113.0/24", "documentation, TEST-NET-3 (RFC 5737)"),
        ("224.0.0.0/4", "multicast (RFC 5771)"),
        ("240.0.0.0/4", "reserved, and the limited broadcast address (RFC 1112, RFC 919)"),
    )
)

# Only this space holds global unicast addresses (IANA IPv6 Address Space registry).
GLOBAL_UNICAST_V6 = IPv6Network("2000::/3")

# Inside 2000::/3: IANA IPv6 Special-Purpose Address Registry blocks not globally reachable.
RESERVED_V6: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(block), what)
    for block, what in (
        ("2001::/23", "IETF protocol assignments, Teredo and benchmarking in it (RFC 2928)"),
        ("2001:db8::/32", "documentation (RFC 3849)"),
        ("3fff::/20", "documentation (RFC 9637)"),
        ("5f00::/16", "segment routing SIDs (RFC 9602)"),
    )
)

# Outside 2000::/3, named for the docs and the tests (every one of them is refused anyway).
OUTSIDE_GLOBAL_V6: tuple[tuple[IPv6Network, str], ...] = tuple(
    (IPv6Network(block), what)
    for block, what in (
        ("::/128", "unspecified (RFC 4291)"),
        ("::1/128", "loopback (RFC 4291)"),
        ("64:ff9b:1::/48", "NAT64 local use (RFC 8215)"),
        ("100::/64", "discard only (RFC 6666)"),
        ("100:0:0:1::/64", "dummy prefix (RFC 9780)"),
        ("fc00::/7", "unique local (RFC 4193)"),
        ("fe80::/10", "link local (RFC 4291)"),
        ("fec0::/10", "site local, deprecated (RFC 3879)"),
        ("ff00::/8", "multicast (RFC 4291)"),
    )
)


def reserved(ip: IPv4Address | IPv6Address) -> str:
    """What reserved range ``ip`` is in ("" for none): by our table alone."""
    if isinstance(ip, IPv4Address):
        return next((what for block, what in RESERVED_V4 if ip in block), "")
    if ip not in GLOBAL_UNICAST_V6:
        found = (what for block, what in OUTSIDE_GLOBAL_V6 if ip in block)
        return next(found, "outside the global unicast space 2000::/3")
    return next((what for block, what in RESERVED_V6 if ip in block), "")
