"""The server's signing key and the published record of every key it has used
(docs/verifiable-dice.md).

The key itself never enters the database: it is read from ``SIGNING_KEY_FILE``. Only its two
public halves are recorded here, the first time this process signs with it, so that after a
rotation the old key stays published with the span it signed.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from proofs.holding import rotation_message
from proofs.keys import ServerKey
from proofs.protocol import ProofError, check_signature


class SigningKey(models.Model):
    """A key the server has signed entries and proved dice with: its public halves and since when.
    A key signs from its ``activated_at`` until the next key's (its span)."""

    id = models.CharField(primary_key=True, max_length=16)
    signing_key = models.CharField(max_length=64, help_text="Ed25519 public key, hex.")
    vrf_key = models.CharField(max_length=64, help_text="ECVRF public key, hex.")
    activated_at = models.DateTimeField()

    class Meta:
        db_table = "rolls_signingkey"  # the rolls app's name, kept: no data moved
        ordering = ["activated_at", "id"]

    def __str__(self) -> str:
        return self.id

    def published(self, until: datetime | None) -> dict[str, Any]:
        return {
            "id": self.id,
            "signing_key": self.signing_key,
            "vrf_key": self.vrf_key,
            "from": self.activated_at.isoformat(),
            "until": until.isoformat() if until else None,
        }


class KeyRotation(models.Model):
    """The previous key's signed word that ``key`` follows it (``manage.py rotate_key``): what a
    player's browser or saved keys file needs to accept a new key (docs/verifiable-dice.md).
    Written while the server still holds the previous key; published with the new key's record
    once the new key is."""

    key = models.CharField(primary_key=True, max_length=16, help_text="The new key's id.")
    previous = models.CharField(max_length=16, help_text="The id of the key that signed.")
    signature = models.CharField(max_length=128, help_text="Ed25519 signature, hex.")
    signed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.previous} → {self.key}"


def sign_rotation(current: ServerKey, new: ServerKey) -> KeyRotation:
    """The current key's signature handing over to ``new``, recorded (and replaced if asked
    again): it covers the new key's id and public halves (``rotation_message``)."""
    if new.id == current.id:
        raise ValueError("the new key is the key the server signs with now")
    record = {"id": new.id, "signing_key": new.signing_public_hex, "vrf_key": new.vrf_public_hex}
    signature = current.sign(rotation_message(current.id, record))
    rotation, _ = KeyRotation.objects.update_or_create(
        key=new.id,
        defaults={"previous": current.id, "signature": signature, "signed_at": timezone.now()},
    )
    return rotation


# The key as read from its file, by path: read once per process.
_LOADED: dict[str, ServerKey] = {}


def server_key() -> ServerKey:
    """The key the server signs and proves with now (``SIGNING_KEY_FILE``)."""
    path = str(settings.SIGNING_KEY_FILE)
    key = _LOADED.get(path)
    if key is None:
        key = _LOADED[path] = ServerKey.from_file(path)
    return key


def record_key(key: ServerKey, using: str = "default") -> None:
    """Publish ``key`` in the table, from its first use on (``migrate`` calls this: every
    deployment migrates, so a key is recorded before it signs; docs/verifiable-dice.md)."""
    SigningKey.objects.using(using).get_or_create(
        id=key.id,
        defaults={
            "signing_key": key.signing_public_hex,
            "vrf_key": key.vrf_public_hex,
            "activated_at": timezone.now(),
        },
    )


def published_keys() -> list[dict[str, Any]]:
    """Every key the server has used, oldest first, each with the span it signed; the current key
    is always among them, even before it signed anything."""
    current = server_key()
    keys = list(SigningKey.objects.all())
    if current.id not in {key.id for key in keys}:
        # Rotated without a migrate since: recorded now, so it stays published after the next.
        record_key(current)
        keys = list(SigningKey.objects.all())
    spans = [key.activated_at for key in keys[1:]] + [None]
    rotations = {r.key: r for r in KeyRotation.objects.filter(key__in=[k.id for k in keys[1:]])}
    published = []
    for n, (key, until) in enumerate(zip(keys, spans, strict=True)):
        # Only a statement by the key just before counts: it is what a pinned browser checks.
        rotation, signed = rotations.get(key.id), None
        if rotation is not None and n and rotation.previous == keys[n - 1].id:
            signed = {"from": rotation.previous, "signature": rotation.signature}
        published.append(key.published(until) | {"rotation": signed})
    return published


def keys_by_id() -> dict[str, dict[str, Any]]:
    return {key["id"]: key for key in published_keys()}


def signature_valid(public_hex: str, message: bytes, signature_hex: str) -> bool:
    """Does ``signature_hex`` sign ``message`` under the Ed25519 key ``public_hex``?"""
    try:
        check_signature(public_hex, message, signature_hex)
    except ProofError:
        return False
    return True
