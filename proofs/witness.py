"""A witness token: the campaign's signed log head, in a form that can be posted where players read
it (a Discord channel) without telling them anything (docs/verifiable-dice.md#an-outside-witness).

The head's length counts hidden entries (blind, secret and GM-only rolls, whispers), and players
hold the hash of every entry they can read, so neither the head nor anything computed from the
head alone may be posted: a player would try each length with each hash they hold until one
matched. A token (version 2) carries a **salted commitment**, SHA-256(salt ‖ head message), with
a salt of 32 random bytes that stays on the GM's side (the delivery record, the GM's export), and
the server's Ed25519 signature over ``"poolside witness v1\\n" + commitment`` — over the
commitment, never the head's message, so the signature is no oracle either. Whoever holds the log
and the salt (``verify_log --witness``, given the GM's copy: the token with its salt) recomputes
the commitment of every head the chain has passed through, finds the token's and checks the
signature.

    poolside-head:v2:<campaign id>:<commitment hex>:<key id>:<signature hex>          (posted)
    poolside-head:v2:<campaign id>:<commitment hex>:<key id>:<signature hex>:<salt>   (GM's copy)

Version 1 tokens (an unsalted commitment, signed by the head's own signature) are still read, so
a token posted before version 2 can still be checked.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from proofs.protocol import head_message

PREFIX = "poolside-head"
VERSION = "v2"
VERSIONS = ("v1", "v2")
SALT_BYTES = 32
_HEX = {"commitment": 64, "key": 16, "signature": 128, "salt": 2 * SALT_BYTES}


class WitnessError(ValueError):
    """A token that can't be read: the message says what is wrong with it."""


def commitment(campaign: int, length: int, hash: str, salt: str | None = None) -> str:
    """The hex SHA-256 of the head's signed message (``head_message``), after the salt's bytes
    when there is one (version 2; version 1 had none)."""
    prefix = bytes.fromhex(salt) if salt is not None else b""
    return hashlib.sha256(prefix + head_message(campaign, length, hash)).hexdigest()


def witness_message(commitment: str) -> bytes:
    """What the server signs for a version 2 token: the commitment alone, never the head."""
    return b"poolside witness v1\n" + commitment.encode("ascii")


@dataclass(frozen=True)
class Witness:
    campaign: int
    commitment: str
    key: str  # the id of the key that signed
    signature: str  # v2: Ed25519 over witness_message(commitment); v1: over the head message
    version: str = VERSION
    salt: str | None = None  # v2: kept by the GM, never posted

    @classmethod
    def of_head(
        cls, campaign: int, length: int, hash: str, key: str, signature: str, salt: str
    ) -> Witness:
        """A version 2 token of a head; ``signature``: the key's over ``witness_message``."""
        return cls(
            campaign, commitment(campaign, length, hash, salt), key, signature, VERSION, salt
        )

    @property
    def token(self) -> str:
        """What is posted: never the salt."""
        parts = (self.campaign, self.commitment, self.key, self.signature)
        return ":".join([PREFIX, self.version, *map(str, parts)])

    @property
    def gm_copy(self) -> str:
        """The token with its salt, for the GM to keep and give ``verify_log --witness``."""
        return f"{self.token}:{self.salt}" if self.salt else self.token

    def signed_message(self, length: int, hash: str) -> bytes:
        """What ``signature`` signs, once the head (``length``, ``hash``) is found."""
        if self.version == "v1":
            return head_message(self.campaign, length, hash)
        return witness_message(self.commitment)

    @classmethod
    def parse(cls, text: str) -> Witness:
        """Read a token or the GM's copy; raise ``WitnessError`` saying what is wrong with it."""
        parts = text.strip().split(":")
        if len(parts) not in (6, 7) or parts[0] != PREFIX:
            raise WitnessError(
                f"not a witness token: expected {PREFIX}:{VERSION}:<campaign>:<commitment>:"
                "<key>:<signature>[:<salt>]"
            )
        version = parts[1]
        if version not in VERSIONS:
            raise WitnessError(f"unknown witness token version {version!r} (this reads v1, v2)")
        if len(parts) == 7 and version == "v1":
            raise WitnessError("a v1 token has no salt")
        campaign, *fields = parts[2:]
        if not campaign.isascii() or not campaign.isdigit():
            raise WitnessError(f"the campaign {campaign!r} is not a campaign id")
        for (name, length), value in zip(_HEX.items(), fields, strict=False):
            if not re.fullmatch(f"[0-9a-f]{{{length}}}", value):
                raise WitnessError(f"the {name} is not {length} lowercase hex digits")
        salt = fields[3] if len(fields) == 4 else None
        return cls(int(campaign), fields[0], fields[1], fields[2], version, salt)
