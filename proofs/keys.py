"""The server's key: one 32-byte master seed in a file, from which the Ed25519 signing key and
the ECVRF key are derived (the spec's "Keys"). The seed never enters the database, so a copy of
the database alone cannot forge a signature or a roll."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from nacl.signing import SigningKey

from . import ecvrf
from .protocol import key_id, proof_to_hash

_SEED_FILE_RE = re.compile(r"[0-9a-f]{64}\n?")


class KeyFileError(Exception):
    """The key file is missing, garbled, or would be overwritten."""


@dataclass(frozen=True)
class ServerKey:
    """The derived keys; the seeds stay out of repr so a log line or traceback cannot leak them."""

    id: str
    signing_public_hex: str
    vrf_public_hex: str
    signing_seed: bytes = field(repr=False)
    vrf_seed: bytes = field(repr=False)

    @classmethod
    def from_seed(cls, master: bytes) -> ServerKey:
        """Derive both keys from the 32-byte master seed, each under its own label so that
        neither key says anything about the other."""
        if len(master) != 32:
            raise ValueError(f"a master seed is 32 bytes, not {len(master)}")
        signing_seed = hashlib.sha512(b"poolside signing key v1" + master).digest()[:32]
        vrf_seed = hashlib.sha512(b"poolside vrf key v1" + master).digest()[:32]
        signing_public = SigningKey(signing_seed).verify_key.encode().hex()
        vrf_public = ecvrf.public_key(vrf_seed).hex()
        return cls(
            id=key_id(signing_public, vrf_public),
            signing_public_hex=signing_public,
            vrf_public_hex=vrf_public,
            signing_seed=signing_seed,
            vrf_seed=vrf_seed,
        )

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> ServerKey:
        """Read a key file: 64 lowercase hex characters and an optional newline."""
        try:
            text = Path(path).read_text(encoding="ascii")
        except FileNotFoundError as exc:
            raise KeyFileError(f"server key file {path} does not exist") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise KeyFileError(f"server key file {path} cannot be read: {exc}") from exc
        if not _SEED_FILE_RE.fullmatch(text):
            # Never echo the content: a nearly-right file is nearly the secret.
            raise KeyFileError(
                f"server key file {path} is garbled: it must hold 64 lowercase hex characters"
            )
        return cls.from_seed(bytes.fromhex(text[:64]))

    def sign(self, message: bytes) -> str:
        """The Ed25519 signature of message, hex (128 characters)."""
        return SigningKey(self.signing_seed).sign(message).signature.hex()

    def prove(self, alpha: bytes) -> tuple[bytes, bytes]:
        """(pi, beta): the VRF proof for alpha and its output."""
        pi = ecvrf.prove(self.vrf_seed, alpha)
        return pi, proof_to_hash(pi)

    def published(self, from_: datetime, until: datetime | None) -> dict[str, Any]:
        """The public half, as the server publishes it (no seed in it)."""
        return {
            "id": self.id,
            "signing_key": self.signing_public_hex,
            "vrf_key": self.vrf_public_hex,
            "from": from_.isoformat(),
            "until": until.isoformat() if until is not None else None,
        }


def write_new_key_file(path: str | os.PathLike[str]) -> ServerKey:
    """Create a key file with a fresh seed, readable by its owner only. Refuses to overwrite:
    losing the old seed would make every proof and signature under it unverifiable."""
    master = secrets.token_bytes(32)
    try:
        # O_EXCL: created here or not at all, so no race can replace an existing key.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError as exc:
        raise KeyFileError(f"server key file {path} already exists; not overwriting it") from exc
    with os.fdopen(fd, "w", encoding="ascii") as f:
        os.fchmod(f.fileno(), 0o600)  # the mode given to os.open is reduced by the umask only
        f.write(master.hex() + "\n")
    return ServerKey.from_seed(master)
