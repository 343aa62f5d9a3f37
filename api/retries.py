"""Retrying a roll (docs/api.md, "Retrying a roll"): the roll's nonce is its idempotency key,
in the body or as an ``Idempotency-Key`` header; a retry answers the entry the first request
made (200, ``Idempotent-Replayed``), a new roll 201."""

from __future__ import annotations

from typing import Annotated

from django.http import HttpResponse
from ninja import Header, Status

from api.base import ApiError
from log.models import RollEntry
from rolls.log.records import Record

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="The roll's nonce, given as a header (docs/api.md, “Retrying a roll”): the "
        "same key again answers the entry the first request made (200), never a second roll",
    ),
]


def idempotent_nonce(nonce: str | None, key: str | None) -> str:
    """The roll's nonce: the body's, or the ``Idempotency-Key`` header's (the same rules)."""
    if key and nonce and key != nonce:
        raise ApiError(
            422,
            "The roll wasn't made: the Idempotency-Key header and the nonce differ.",
            {"nonce": ["Send one of them, or the same value in both."]},
        )
    return nonce or key or ""


def written(response: HttpResponse, entry: RollEntry, record: Record) -> Status[Record]:
    """A roll's answer: 201 for the entry just made; 200 and ``Idempotent-Replayed`` for the
    entry a retry of the same nonce found."""
    if entry.replayed:
        response["Idempotent-Replayed"] = "true"
    return Status(200 if entry.replayed else 201, record)
