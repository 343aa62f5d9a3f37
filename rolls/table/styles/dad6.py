"""DAD6's opposed roll: only side A rolls, through the ordinary roll panel with the difficulty
raised by the opposition (``dad6.opposed_difficulty``) locked; the roll's outcome is the verdict,
at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rolls.table.styles.base import SingleRoll
from rules import dad6
from sheets.models import Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from log.models import RollEntry
    from rolls.models import Contest


class Opposed(SingleRoll):
    kind = "dad6_opposed"
    label = "Opposed: opposition adds difficulty"
    side_b_words = "opposes: adds difficulty"

    def panel_preset(self, contest: Contest) -> tuple[dict[str, Any], set[str]]:
        try:
            raised = dad6.opposed_difficulty(contest.difficulty, opposition=contest.opposition)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        return {"difficulty": raised}, {"difficulty"}

    def rolled_from_panel(self, contest: Contest, entry: RollEntry, user: User) -> RollEntry | None:
        return self.decide_single(contest, entry, user)

    def verdict_words(self, contest: Contest, entry: RollEntry) -> str:
        return (
            f"Difficulty {entry.options.get('difficulty')}: {contest.difficulty} "
            f"+ {contest.opposition} for opposition"
        )

    def notes(self, contest: Contest) -> list[str]:
        return [f"difficulty {contest.difficulty} + {contest.opposition} opposing"]
