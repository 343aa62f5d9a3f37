"""Where a roll's dice come from: the server's verifiable random function, for the entry's own place
in its campaign's log (docs/verifiable-dice.md). Tests that need repeatable dice set
``ROLLS_RNG_SEED``; their entries carry no proof.
"""

from __future__ import annotations

import random

from django.conf import settings

from log.models import RollEntry
from log.models.keys import server_key
from proofs.dice import VrfDice, new_nonce, valid_nonce
from rules import Groups, RandomSource
from sheets.models import Campaign, Refused


class LogDice:
    """The dice of one entry of ``campaign``, made by ``roller`` (a user id). Drawn once, for what
    is rolled (``target``, set before the draw by whoever knows it: :func:`aim`), with the
    roller's ``nonce`` and their next number (their counter on the log's head,
    ``RollEntry.objects.reserve``). The entry's append takes this object as ``dice=``, records
    its proof and counts the number."""

    def __init__(
        self, campaign: Campaign, nonce: str, target: str | None = None, roller: int = 0
    ) -> None:
        self.campaign, self.nonce, self.target, self.roller = campaign, nonce, target, roller
        self._vrf: VrfDice | None = None
        self.reserved: tuple[int, str, str, dict[str, int]] | None = None

    def draw(self, groups: Groups) -> tuple[tuple[int, ...], ...]:
        if self.target is None:
            raise RuntimeError("The dice were drawn before saying what is rolled (aim them).")
        self._vrf = VrfDice(
            server_key(), self.campaign.pk, self.target, self.nonce, self._reserve, self.roller
        )
        return self._vrf.draw(groups)

    def _reserve(self) -> tuple[int, str, str, int]:
        """The place the entry will take and the roller's next number. The place is kept whole,
        so that the append can remember the head it moved to (with the campaign's position
        secret and the counters) for the next roll."""
        self.reserved = RollEntry.objects.reserve(self.campaign)
        seq, prev_hash, secret, counters = self.reserved
        return seq, prev_hash, secret, counters.get(str(self.roller), 0) + 1

    def record(self) -> dict[str, object]:
        return self._vrf.record() if self._vrf is not None else {}

    @property
    def seq(self) -> int | None:
        """The chain position the dice were drawn for (None before the draw)."""
        return self._vrf.seq if self._vrf is not None else None

    @property
    def prev_hash(self) -> str | None:
        return self._vrf.prev_hash if self._vrf is not None else None

    @property
    def n(self) -> int | None:
        """The roller's number these dice were drawn for (None before the draw)."""
        return self._vrf.n if self._vrf is not None else None


def dice_for(
    campaign: Campaign, nonce: str = "", target: str | None = None, *, roller: int
) -> RandomSource:
    """The source of one entry's dice, for the entry ``roller`` (a user id) makes. ``nonce``:
    what the roller's browser or script sent (checked by :func:`nonce_from`)."""
    seed = getattr(settings, "ROLLS_RNG_SEED", None)
    if seed is not None:
        return random.Random(seed)  # noqa: S311 — the tests' repeatable dice, never served
    return LogDice(campaign, nonce_from(nonce), target, roller)


def aim(rng: object, target: str) -> None:
    """Say what ``rng``'s dice are for (the label the entry will carry), before they are drawn."""
    if isinstance(rng, LogDice) and rng.target is None:
        rng.target = target


def nonce_from(sent: object) -> str:
    """The roller's nonce as sent, or one of the server's when none was (a browser without
    JavaScript, a script that sends none). Refused when it isn't one."""
    if sent is None or sent == "":
        return new_nonce()
    if not isinstance(sent, str) or not valid_nonce(sent):
        raise Refused("The dice nonce must be 8 to 64 letters, digits, '-' or '_'.")
    return sent
