"""A witness token: the campaign's signed log head, in a form that can be posted where players read
it (a Discord channel) without telling them anything (docs/verifiable-dice.md#an-outside-witness).

The head's length counts hidden entries (blind, secret and GM-only rolls, whispers), so neither it
nor the head's hash may be posted. The token carries instead a **commitment**, the SHA-256 of the
head's signed message: the head's hash is 256 random-looking bits, so nobody can try lengths
against it; and the server's Ed25519 signature of that message, which says nothing about its
message either. Whoever holds the log (``verify_log --witness``) recomputes the commitment of every
head the chain has passed through, finds the token's and checks the signature over it.

    poolside-head:v1:<campaign id>:<commitment hex>:<key id>:<signature hex>
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from proofs.protocol import head_message

PREFIX = "poolside-head"
VERSION = "v1"
_HEX = {"commitment": 64, "key": 16, "signature": 128}


class WitnessError(ValueError):
    """A token that can't be read: the message says what is wrong with it."""


def commitment(campaign: int, length: int, hash: str) -> str:
    """The hex SHA-256 of the head's signed message (``head_message``)."""
    return hashlib.sha256(head_message(campaign, length, hash)).hexdigest()


@dataclass(frozen=True)
class Witness:
    campaign: int
    commitment: str
    key: str  # the id of the key that signed the head
    signature: str  # Ed25519 over head_message(campaign, length, hash), hex

    @classmethod
    def of_head(cls, campaign: int, length: int, hash: str, key: str, signature: str) -> Witness:
        return cls(campaign, commitment(campaign, length, hash), key, signature)

    @property
    def token(self) -> str:
        parts = (self.campaign, self.commitment, self.key, self.signature)
        return ":".join([PREFIX, VERSION, *map(str, parts)])

    @classmethod
    def parse(cls, text: str) -> Witness:
        """Read a token; raise ``WitnessError`` saying what is wrong with it."""
        parts = text.strip().split(":")
        if len(parts) != 6 or parts[0] != PREFIX:
            raise WitnessError(
                f"not a witness token: expected {PREFIX}:{VERSION}:<campaign>:<commitment>:"
                "<key>:<signature>"
            )
        if parts[1] != VERSION:
            raise WitnessError(f"unknown witness token version {parts[1]!r} (this reads {VERSION})")
        campaign, *fields = parts[2:]
        if not campaign.isascii() or not campaign.isdigit():
            raise WitnessError(f"the campaign {campaign!r} is not a campaign id")
        for (name, length), value in zip(_HEX.items(), fields, strict=True):
            if not re.fullmatch(f"[0-9a-f]{{{length}}}", value):
                raise WitnessError(f"the {name} is not {length} lowercase hex digits")
        return cls(int(campaign), *fields)
