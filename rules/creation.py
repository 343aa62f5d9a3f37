"""What a character-creation check answers, for every system: the budgets with what is spent, the
problems that refuse a build, and the soft warnings a GM may want to look at.

Each system's ``creation_check`` (in its own module) fills one :class:`CreationCheck`; the app shows
the budgets as the player types and refuses a player's build with problems. The wording is for
players ("Attribute points: 1 of 2 left"), as the engine's other messages are.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """Points to spend at creation. ``total`` is None where the rules set no budget: the count is
    shown for information only."""

    label: str
    spent: int
    total: int | None = None
    detail: str = ""  # where the total comes from ("12 + 3 for Intelligence 1")

    @property
    def left(self) -> int | None:
        return None if self.total is None else self.total - self.spent

    @property
    def over(self) -> bool:
        return self.total is not None and self.spent > self.total

    @property
    def text(self) -> str:
        if self.total is None:
            return f"{self.label}: {self.spent}"
        left = self.total - self.spent
        if left < 0:
            return f"{self.label}: {-left} over — {self.spent} spent of {self.total}"
        return f"{self.label}: {left} of {self.total} left"


@dataclass(frozen=True)
class Problem:
    """A creation rule the build breaks. ``where`` is the key the caller gave the part at fault
    (a section or an item), so the message can stand beside it."""

    where: str
    message: str


@dataclass(frozen=True)
class CreationCheck:
    budgets: tuple[Budget, ...] = ()
    problems: tuple[Problem, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # what the rules say that helps choose, never a check

    @property
    def unspent(self) -> tuple[Budget, ...]:
        """The budgets with points still to spend."""
        return tuple(b for b in self.budgets if b.left is not None and b.left > 0)

    @property
    def started(self) -> bool:
        """Whether any budgeted point is spent at all (a blank sheet spends none)."""
        return any(b.spent > 0 for b in self.budgets if b.total is not None)

    @property
    def unspent_text(self) -> str:
        """What is left, in words: "1 attribute point and 3 skill points" ("" when nothing)."""
        parts = []
        for budget in self.unspent:
            label = budget.label[0].lower() + budget.label[1:]
            parts.append(f"{budget.left} {label.removesuffix('s') if budget.left == 1 else label}")
        return " and ".join(parts)

    @property
    def counts_only(self) -> bool:
        """The rules set no budget at all: every figure is a count, for information."""
        return all(budget.total is None for budget in self.budgets)
