"""Opaque roll-entry ids: what every URL, cursor, stream id and DOM id shows instead of the pk.

The primary keys of ``RollEntry`` count every roll on the server, hidden ones included: a player
who sees entries 41 and 44 knows two entries were made in between — in their campaign, when it is
the only one rolling. So outside the database an entry is named by a *token*: its pk run through
a keyed permutation of the 64-bit integers (a balanced Feistel network whose round function is
keyed BLAKE2b, the key derived from ``SECRET_KEY``), written as 16 lowercase hex digits. Tokens
are fixed-length, unordered and unguessable; only the server maps them back.

Rotating ``SECRET_KEY`` changes every token: old links then simply find nothing (404).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, register_converter, reverse

HALF_BITS = 32
HALF_MASK = (1 << HALF_BITS) - 1
ROUNDS = 8
LENGTH = 16  # hex digits: 64 bits
MAX_PK = 2**63 - 1  # the top of every integer primary key Django creates
PATTERN = f"[0-9a-f]{{{LENGTH}}}"
_TOKEN = re.compile(PATTERN)  # [0-9a-f] is ASCII only (unlike \d, which takes any digit)


@lru_cache(maxsize=4)
def _round_keys(secret: str) -> tuple[hashlib.blake2b, ...]:
    """Each round's keyed BLAKE2b, its key already absorbed: a round copies it rather than
    hashing the key's block again (a fifth of a token's work; never updated, only copied)."""
    base = hmac.new(secret.encode(), b"poolside roll-entry tokens", hashlib.sha256).digest()
    return tuple(
        hashlib.blake2b(
            key=hmac.new(base, f"round {n}".encode(), hashlib.sha256).digest()[:32], digest_size=4
        )
        for n in range(ROUNDS)
    )


def _keys() -> tuple[hashlib.blake2b, ...]:
    return _round_keys(settings.SECRET_KEY)


def _f(keyed: hashlib.blake2b, half: int) -> int:
    """The round function: the keyed BLAKE2b of ``half``, 4 bytes."""
    hashed = keyed.copy()
    hashed.update(half.to_bytes(4, "big"))
    return int.from_bytes(hashed.digest(), "big")


def entry_token(pk: int) -> str:
    """The token of an entry's pk (a positive database id)."""
    pk = int(pk)
    if not 0 < pk <= MAX_PK:
        raise ValueError(f"{pk} is not an entry id.")
    return _token(pk, settings.SECRET_KEY)


# One card names its entry's token eight times (its ids, links and labels), and a roll's answer
# draws the card twice: the token's eight BLAKE2b rounds were 5% of a roll's CPU. The newest
# entries are the ones drawn again and again (the roll, every stream, the pages that list them).
@lru_cache(maxsize=4096)
def _token(pk: int, secret: str) -> str:
    left, right = pk >> HALF_BITS, pk & HALF_MASK
    for key in _round_keys(secret):
        left, right = right, left ^ _f(key, right)
    return f"{(left << HALF_BITS) | right:0{LENGTH}x}"


def entry_pk(token: str) -> int | None:
    """The pk a token names, or None for anything that is not a token of an entry id."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        return None
    value = int(token, 16)
    left, right = value >> HALF_BITS, value & HALF_MASK
    for key in reversed(_keys()):
        left, right = right ^ _f(key, left), left
    pk = (left << HALF_BITS) | right
    return pk if 0 < pk <= MAX_PK else None


def entry_url(pk: int) -> str:
    """The entry's page, as ``reverse("roll_entry", args=[pk])`` writes it. Every roll's redirect
    and every card of the log names one, and ``reverse`` matches the pattern, converts and checks
    its arguments each time (about 0.06 ms in a roll request): only the token differs from one
    entry to the next, so what goes around it is worked out once per script prefix and URL conf."""
    before, after = _around_token(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    return f"{before}{entry_token(pk)}{after}"


@lru_cache(maxsize=16)
def _around_token(prefix: str, urlconf: str) -> tuple[str, str]:
    # ``prefix`` is only the key: reverse() reads the same script prefix itself.
    before, _, after = reverse("roll_entry", args=[1], urlconf=urlconf).rpartition(entry_token(1))
    return before, after


class EntryConverter:
    """``<entry:pk>``: the view gets the pk, ``reverse(…, args=[pk])`` writes the token.
    Anything else — another length, capitals, non-ASCII digits, a token of no possible id —
    doesn't match: a 404."""

    regex = PATTERN

    def to_python(self, value: str) -> int:
        pk = entry_pk(value)
        if pk is None:
            raise ValueError("Not an entry token.")
        return pk

    def to_url(self, value: int) -> str:
        return entry_token(value)


register_converter(EntryConverter, "entry")
