"""D10 Pool's one contest style: both sides roll their pools; more successes wins; a tie is a
new round."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from log.models import OUTCOME_LABELS, Kind, RollEntry
from rolls.rolling.outcomes import odds_fields
from rolls.table import contests
from rolls.table.styles.base import ContestStyle
from rolls.table.verdicts import append_verdict, count_table, sides_and_audience
from rules import RandomSource
from tests.d10pool import rules
from tests.d10pool.forms import faces_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from rolls.models import Contest
    from rolls.rolling.targets import Target
    from rolls.table.contests import SideStatus


class Opposed(ContestStyle):
    kind = "d10_opposed"
    label = "Opposed pools: both roll, more successes wins"
    options_template = "d10pool/contest_options.html"

    def rolls_here(self, contest: Contest, status: SideStatus) -> bool:
        return True

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
        pool = target.obj.dice
        result = rules.Result(rules.roll(pool, rng), need=1)
        distribution = rules.distribution(pool)
        return RollEntry.objects.append_by(
            user,
            target.character,
            dice=rng,  # its proof, when the dice came from the VRF
            campaign=contest.campaign,
            contest=contest,
            label=target.label,
            kind=Kind.ROLL,
            visibility=visibility,
            options=base,
            pool={"dice": pool},
            breakdown=f"{pool}d10 against {opponent}",
            faces=faces_of(result),
            outcome="contest_roll",
            outcome_label=OUTCOME_LABELS["contest_roll"],
            detail=f"{result.successes} successes",
            result={"successes": result.successes},
            **odds_fields(distribution[result.successes], count_table(distribution)),
            resource_changes={},
        )

    def decide_if_ready(self, contest: Contest, user: User) -> RollEntry | None:
        a, b = (status.entry for status in contests.sides(contest))
        if a is None or b is None:
            return None
        winner = rules.contest(a.result["successes"], b.result["successes"])
        if winner is None:
            contest.round += 1
            contest.save(update_fields=["round"])
            return None
        name = contest.name_a if winner == "a" else contest.name_b
        return append_verdict(
            contest,
            user,
            winner=winner,
            outcome="success" if winner == "a" else "failure",
            label=f"{name} wins",
            detail=f"{a.result['successes']} successes against {b.result['successes']}",
            odds=rules.HIT,  # (a figure for the card; the test system keeps it simple)
            table={"success": rules.HIT, "failure": 1 - rules.HIT},
            **sides_and_audience(contest),
            extra={},
        )

    def side_choices(
        self, contest: Contest, status: SideStatus, membership: Any, *, figures: bool
    ) -> dict[str, Any]:
        return {"options": {"note": "Both roll their whole pool."}}
