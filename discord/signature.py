"""Checking that a request comes from Discord: an Ed25519 signature, by the application's public
key, over the ``X-Signature-Timestamp`` header followed by the raw body — verified by PyNaCl
(libsodium), never by code of ours, and before anything of the body is parsed.
"""

from __future__ import annotations

import logging
import time

from nacl.exceptions import CryptoError
from nacl.signing import VerifyKey

# A signed request older (or further in the future) than this is refused: a captured request
# replayed later fails even though its signature is good. Discord sends at once; five minutes
# leaves room for clocks that disagree a little.
MAX_AGE_SECONDS = 300
SIGNATURE_HEADER = "X-Signature-Ed25519"
TIMESTAMP_HEADER = "X-Signature-Timestamp"

logger = logging.getLogger(__name__)


def public_key_problem(hex_key: str) -> str:
    """What is wrong with a public key as configured (empty when it is a key)."""
    try:
        VerifyKey(bytes.fromhex(hex_key))  # PyNaCl's ValueError for a key of the wrong length
    except ValueError:
        return "is not an Ed25519 public key (64 hexadecimal digits)."
    return ""


def verified(hex_key: str, signature: str, timestamp: str, body: bytes) -> bool:
    """Did the holder of the application's key sign ``timestamp + body``, recently?

    A good signature over a timestamp too far from this server's clock is refused, and the
    difference is logged: when it is Discord's own request, the server's clock is off (every
    interaction would be refused until it is synchronised, docs/discord.md). Only a validly
    signed request is logged, so nobody without the key can fill the log."""
    try:
        sent_at = int(timestamp)
        sig = bytes.fromhex(signature)
    except ValueError:
        return False
    try:
        VerifyKey(bytes.fromhex(hex_key)).verify(timestamp.encode() + body, sig)
    except (CryptoError, ValueError):  # a bad signature, or one of the wrong length
        return False
    skew = time.time() - sent_at
    if abs(skew) > MAX_AGE_SECONDS:
        logger.warning(
            "Refused a signed Discord request as stale: its timestamp is %.0f s %s this "
            "server's clock (at most %s s either way). If every interaction is refused, "
            "synchronise the server's clock (NTP).",
            abs(skew),
            "behind" if skew > 0 else "ahead of",
            MAX_AGE_SECONDS,
        )
        return False
    return True
