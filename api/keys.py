"""The API's keys (docs/api.md, docs/verifiable-dice.md): every key the server has signed entries
and proved dice with, with the span each signed. Public, like the page: needs no token."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Router, Schema
from pydantic import Field

from api.base import READ_THROTTLE
from log.models.keys import published_keys

router = Router(tags=["Keys"])


class RotationOut(Schema):
    from_: str = Field(alias="from", description="The id of the key just before, which signed")
    signature: str = Field(
        description='Ed25519 signature (hex) by that key over "poolside key rotation v1\\n" + '
        'the canonical JSON of {"from", "id", "signing_key", "vrf_key"}'
    )


class KeyOut(Schema):
    id: str = Field(description="The key's id, as entries' proofs and signatures name it")
    signing_key: str = Field(description="Ed25519 public key (hex): the signatures")
    vrf_key: str = Field(description="ECVRF-EDWARDS25519-SHA512-TAI public key (hex): the dice")
    from_: str = Field(alias="from", description="When it started signing (ISO 8601)")
    until: str | None = Field(description="When the next key took over; null for the current key")
    rotation: RotationOut | None = Field(
        description="The key before's signed word that this key follows it; null for the first "
        "key (and a key rotated to without manage.py rotate_key)"
    )


class KeysOut(Schema):
    keys: list[KeyOut]


@router.get(
    "/keys",
    auth=None,
    response=KeysOut,
    by_alias=True,
    throttle=[READ_THROTTLE],
    summary="Public keys",
)
def keys(request: HttpRequest) -> dict[str, object]:
    """Every key the server has used, oldest first: what a proof's ``key`` and a signature's
    ``signed_by`` name. The same file as /keys.json, which the standalone verifier reads."""
    return {"keys": published_keys()}
