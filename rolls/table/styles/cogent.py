"""Cogent's conflict: both sides roll their pools; ``cogent.conflict`` decides; a tie is a new round."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from log.models import RollEntry
from rolls.rolling.display import percent
from rolls.table import cogent_sides, contests
from rolls.table.styles.base import ContestStyle
from rolls.table.verdicts import (
    append_verdict,
    cogent_verdict_words,
    from_side_a,
    sides_and_audience,
)
from rules import RandomSource, cogent
from sheets.models import CogentSheet, Refused, cogent_combat_skills

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import QueryDict

    from rolls.models import Contest
    from rolls.rolling.targets import Target
    from rolls.table.contests import SideStatus
    from sheets.models import Membership


class Conflict(ContestStyle):
    kind = "cogent_conflict"
    label = "Conflict: both roll, more wins wins"
    options_template = "rolls/contest_options/cogent.html"

    def side_options(self, data: QueryDict) -> cogent_sides.CogentSide:
        return cogent_sides.CogentSide.from_post(data)

    def roll_side(
        self,
        contest: Contest,
        target: Target,
        sheet: Any,
        rng: RandomSource,
        user: User,
        *,
        options: Any,
        visibility: str,
        base: dict[str, Any],
        opponent: str,
    ) -> RollEntry:
        assert isinstance(sheet, CogentSheet)  # the contest's campaign plays Cogent
        return cogent_sides.cogent_side_roll(
            contest,
            base["contest_side"],
            target,
            sheet,
            rng,
            user,
            options=options or cogent_sides.CogentSide(),
            base=base,
            visibility=visibility,
            opponent=opponent,
        )

    def decide_if_ready(self, contest: Contest, user: User) -> RollEntry | None:
        """A round: more wins wins; a tie is a new round."""
        a, b = (status.entry for status in contests.sides(contest))
        if a is None or b is None:
            return None
        faces_a = [die["face"] for die in a.faces]
        faces_b = [die["face"] for die in b.faces]
        before_a = bool(a.options.get("destiny_before"))
        before_b = bool(b.options.get("destiny_before"))
        result = cogent.conflict(
            faces_a, faces_b, destiny_before_a=before_a, destiny_before_b=before_b
        )
        if result.winner is None:  # a tie: a new round
            contest.round += 1
            contest.save(update_fields=["round"])
            return None
        chances = cogent.conflict_odds(
            a.pool["dice"],
            b.pool["dice"],
            destiny_before_a=before_a,
            destiny_before_b=before_b,
        )
        label, figures = cogent_verdict_words(contest, result, a, b)
        return append_verdict(
            contest,
            user,
            winner=result.winner,
            outcome="success" if result.winner == "a" else "failure",
            label=label,
            detail=f"{result.wins_a} wins against {result.wins_b}"
            + (f", after {contest.round - 1} tied round(s)" if contest.round > 1 else ""),
            odds=chances[result.winner] / (chances["a"] + chances["b"]),
            table=from_side_a(chances["a"], chances["b"]),
            **sides_and_audience(contest),
            extra={"wins_a": result.wins_a, "wins_b": result.wins_b} | figures,
        )

    def rolls_here(self, contest: Contest, status: SideStatus) -> bool:
        return True

    def side_choices(
        self,
        contest: Contest,
        status: SideStatus,
        membership: Membership,
        *,
        figures: bool,
    ) -> dict[str, Any]:
        """A side's options before it rolls (rules at the table: what an action's roll may use,
        less destiny after). With ``figures``: its pool and its chance to win a round against
        the other side's pool, both at their defaults (odds from the engine)."""
        skill = contest.skill(status.side)
        choices: dict[str, Any] = {
            # Circumstances are offered for a combat skill (the server checks the row itself).
            "combat": skill in cogent_combat_skills(contest.campaign),
            "circumstances": [
                (key, f"{label} (+{dice})")
                for key, (label, dice) in cogent.COMBAT_CIRCUMSTANCES.items()
            ],
            "secondary_weapons": [
                (name, f"{name} (+{dice})") for name, dice in cogent.DUAL_WIELD_DICE.items()
            ],
            "equipment_range": (cogent.EQUIPMENT_MIN, cogent.EQUIPMENT_MAX),
            "destiny": None,  # unknown without the sheet: a request without any left is refused
        }
        if figures:
            try:
                target = contests.target_for(contest, status.side)
                other = contests.target_for(contest, "b" if status.side == "a" else "a")
            except Refused as exc:
                return {"problem": str(exc)}
            defaults = cogent_sides.CogentSide()
            sheet, other_sheet = target.sheet, other.sheet
            assert isinstance(sheet, CogentSheet) and isinstance(other_sheet, CogentSheet)
            pool, _ = cogent_sides.cogent_side_pool(target, sheet, defaults)
            other_pool, _ = cogent_sides.cogent_side_pool(other, other_sheet, defaults)
            chances = cogent.conflict_odds(pool, other_pool)
            decided = chances["a"] + chances["b"]
            win = chances["a"] / decided if decided else Fraction(1, 2)
            choices |= {
                "combat": target.is_combat,
                "pool": pool,
                "other_pool": other_pool,
                "win": percent(win),
                "destiny": sheet.destiny_points,
            }
        return {"options": choices}
