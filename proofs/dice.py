"""VrfDice: a dice source whose every face comes from an ECVRF proof over the roll (issue 37).

One source serves one log entry: it commits to the roller's next number (``counter``, alpha
version 2: nothing of the chain, which a server could vary, is in it), names the roll
(``target``, the pool, the roller's ``nonce``), proves that input and reads the faces from the
proof's output, so anyone can recompute them and no one can choose them.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from .keys import ServerKey
from .protocol import NONCE_RE, SUITE, alpha_bytes, counter, faces_from_beta, roller_secret

KINDS = ("d6", "d10", "ability", "skill", "risk")
SIDES = (6, 10)


def valid_nonce(s: object) -> bool:
    """8 to 64 characters of [A-Za-z0-9_-], as a roller's client may send."""
    return isinstance(s, str) and NONCE_RE.fullmatch(s) is not None


def new_nonce() -> str:
    """The server's nonce when the client sent none: 32 random hex characters."""
    return secrets.token_hex(16)


class VrfDice:
    """Draws one pool of dice for one entry, and keeps the proof record of that draw."""

    def __init__(
        self,
        key: ServerKey,
        campaign_id: int,
        target: str,
        nonce: str,
        position: Callable[[], tuple[int, str, str, int]],
        roller: int,
    ) -> None:
        if not valid_nonce(nonce):
            raise ValueError("a nonce is 8 to 64 characters of A-Z, a-z, 0-9, _ and -")
        self.key, self.campaign_id, self.target, self.nonce = key, campaign_id, target, nonce
        self._position, self.roller = position, roller
        self.n: int | None = None  # the roller's number for this roll, once drawn
        self.seq: int | None = None
        self.prev_hash: str | None = None
        self._alpha: dict[str, Any] | None = None
        self._pi = b""
        self._drawn = False

    def draw(self, groups: tuple[tuple[str, int, int], ...]) -> tuple[tuple[int, ...], ...]:
        """The faces of each (kind, count, sides) group, in order. Once per source: a second
        draw would let the server pick the better of two proven outcomes for one entry."""
        if self._drawn:
            raise RuntimeError("this VrfDice has drawn already: one entry, one draw")
        self._drawn = True
        for kind, count, sides in groups:
            if kind not in KINDS or sides not in SIDES or not 0 <= count <= 1000:
                raise ValueError(f"unsupported dice group {(kind, count, sides)!r}")
        pool: list[list[Any]] = [[kind, count, sides] for kind, count, sides in groups]
        # Called once, here: the place the entry will take and the roller's next number (n).
        # Only n is proven: a retry of the same roll at another place draws the same dice.
        seq, prev_hash, secret, n = self._position()
        mine = roller_secret(secret, self.campaign_id, self.roller)
        alpha = {
            "v": 2,
            "campaign": self.campaign_id,
            "counter": counter(self.campaign_id, self.roller, n, mine),
            "target": self.target,
            "pool": pool,
            "nonce": self.nonce,
        }
        self._pi, beta = self.key.prove(alpha_bytes(alpha))
        self._alpha, self.seq, self.prev_hash, self.n = alpha, seq, prev_hash, n
        return tuple(tuple(faces) for faces in faces_from_beta(beta, pool))

    def record(self) -> dict[str, Any]:
        """The entry's ``proof`` column: the spec's proof record, or {} before any draw."""
        if self._alpha is None:
            return {}
        return {
            "v": 1,
            "suite": SUITE,
            "key": self.key.id,
            "alpha": self._alpha,
            "pi": self._pi.hex(),
        }
