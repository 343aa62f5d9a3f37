"""What the log's append takes as ``dice=``: a source of dice, perhaps one whose draw is proven.

A proven source (``rolls.rolling.dice.LogDice``, the server's verifiable dice) draws the whole
pool for the entry's own place in the log, keeps that place and records the proof the entry
stores (docs/verifiable-dice.md). The tests' seeded dice (``random.Random``) are a plain
``RandomSource``: their entries carry no proof.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from rules import PoolSource


@runtime_checkable
class DiceSource(PoolSource, Protocol):
    """A pool source whose draw is proven, for one place in one campaign's log."""

    # (seq, prev_hash, position secret, rollers' counters) of the place reserved for the entry.
    reserved: tuple[int, str, str, dict[str, int]] | None
    roller: int  # whose roll it is (the user making the entry): whose counter it takes

    @property
    def n(self) -> int | None:
        """The roller's number the dice were drawn for (None: not counted, or before the draw)."""

    @property
    def seq(self) -> int | None:
        """The chain position the dice were drawn for (None before the draw)."""

    @property
    def prev_hash(self) -> str | None:
        """The hash the entry follows (None before the draw)."""

    def record(self) -> dict[str, Any]:
        """The entry's ``proof`` column: the proof record, or {} before any draw."""
