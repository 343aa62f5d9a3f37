"""Cold Stars contests.

* Active vs active: both build at Risk 0 (``cold_stars.contest_pool``), each may upgrade Ability
  dice with Willpower (step 4; Brace doesn't apply at Risk 0, Press would add Risk) and may Correct
  once (step 6); ``cold_stars.contest`` decides; even → the initiator chooses.
* Active vs passive: only side A rolls, through the ordinary roll panel with the Risk
  (``cold_stars.passive_risk``) locked; like an active contest, the verdict waits for side A to keep
  its roll or Correct it (step 6 comes before the verdict, which is decided on the corrected roll);
  an all-blank result waits for side A's choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from log.models import OUTCOME_LABELS, Kind, RollEntry, Visibility
from rolls.models import ContestState
from rolls.rolling.followups import cold_stars as cold_stars_followups
from rolls.rolling.forms.cold_stars import OUTSIDE_DOMAINS
from rolls.rolling.outcomes import cold_stars_faces, odds_fields
from rolls.table import contests
from rolls.table.styles.base import ContestStyle, SingleRoll
from rolls.table.verdicts import (
    append_verdict,
    cold_stars_contest_odds,
    cold_stars_contest_table,
    cold_stars_faces_of,
    count_table,
    deciding_entries,
    sides_and_audience,
)
from rules import RandomSource, cold_stars
from sheets.models import ColdStarsAbility, ColdStarsSheet, Refused
from sheets.systems import rule_system_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import QueryDict

    from rolls.models import Contest
    from rolls.rolling.targets import Target
    from rolls.table.contests import SideStatus
    from sheets.models import Character, Membership

CHOICES = (("costly_success", "Take a Costly Success"), ("failure", "Take a Failure"))


def _sheet(sheet: object) -> ColdStarsSheet:
    assert isinstance(sheet, ColdStarsSheet)  # the contest's campaign plays Cold Stars
    return sheet


class KeepOrCorrect(ContestStyle):
    """Step 6 before the verdict: each rolling side keeps its roll or Corrects it once."""

    choices = CHOICES
    choice_refusal = "Choose a Costly Success or a Failure."
    correct_words = "Correct: re-roll (1 Momentum)"

    def notes(self, contest: Contest) -> list[str]:
        # The GM's call: a side's domain skill counts as outside every domain.
        return [
            f"{name} acts outside every domain"
            for name, outside in (
                (contest.name_a, contest.outside_domain_a),
                (contest.name_b, contest.outside_domain_b),
            )
            if outside
        ]

    def keeps(self, contest: Contest, status: SideStatus) -> bool:
        return True

    def rolling_side(self, contest: Contest, side: str) -> None:
        """Refuse a side that never rolls in this contest."""

    def correct_side(
        self, contest: Contest, side: str, sheet: Any, rng: RandomSource, user: User
    ) -> RollEntry:
        """Re-roll this side's whole pool for 1 Momentum, once."""
        status = contests.side_status(contest, side)
        if contest.state != ContestState.OPEN:
            # Rules at the table: Correct in a contest comes before the verdict; after it the
            # re-roll would spend Momentum and change nothing.
            raise Refused("This contest is past its rolls; Correct comes before the verdict.")
        if status.settled:
            raise Refused(f"{status.name} is done with this roll.")
        self.rolling_side(contest, side)
        if status.entry is None:
            raise Refused(f"{status.name} hasn't rolled yet.")
        if status.entry.kind != Kind.ROLL:
            raise Refused("Correct re-rolls a roll once.")
        if status.character is None:
            raise Refused("This side's character was deleted; the GM can call the contest off.")
        new = self.corrected(
            contest, side, status.entry, status.character, _sheet(sheet), rng, user
        )
        self.settle_side(contest, side, user)
        return new

    def corrected(
        self,
        contest: Contest,
        side: str,
        entry: RollEntry,
        character: Character,
        sheet: ColdStarsSheet,
        rng: RandomSource,
        user: User,
    ) -> RollEntry:
        """The Correct's entry, following ``entry``."""
        raise NotImplementedError

    def settle_side(self, contest: Contest, side: str, user: User) -> RollEntry | None:
        """This side keeps its roll; the contest is decided once every rolling side has."""
        status = contests.side_status(contest, side)
        # Only while rolls are awaited: keeping again after the verdict would decide twice.
        if contest.state != ContestState.OPEN:
            raise Refused("This contest is not waiting for rolls.")
        self.rolling_side(contest, side)
        if status.entry is None:
            raise Refused(f"{status.name} hasn't rolled yet.")
        setattr(contest, f"settled_{side}", True)
        contest.save(update_fields=[f"settled_{side}"])
        return self.decide_if_ready(contest, user)


class Active(KeepOrCorrect):
    kind = "cold_stars_active"
    label = "Active vs active: both roll at Risk 0"
    options_template = "rolls/contest_options/cold_stars.html"

    def side_options(self, data: QueryDict) -> int:
        try:
            return int(data.get("willpower", "0") or 0)
        except ValueError:
            raise Refused("Willpower must be a whole number of dice.") from None

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
        """How many Ability dice this side may upgrade with Willpower (step 4)."""
        assert status.character is not None
        try:
            sheet = _sheet(rule_system_of(contest.campaign).sheet_of(status.character))
            pool = _pool(contest, status.side, contests.target_for(contest, status.side), sheet)
        except Refused as exc:
            return {"problem": str(exc)}
        waiting = contests.choice_waiting(contest, status, membership)
        if waiting:
            # Willpower is the player's step-4 choice (RULES.md §8): the GM rolls it plain.
            return {"options": {"willpower": [0]}, "choice_waiting": waiting}
        return {"options": {"willpower": list(range(0, min(pool.ability, sheet.willpower) + 1))}}

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
        cold, side, willpower = _sheet(sheet), base["contest_side"], int(options or 0)
        if willpower:
            contests.check_chooser(contest, side, user)  # a step-4 choice: the player's
        built = _pool(contest, side, target, cold)
        if not 0 <= willpower <= built.ability:
            raise Refused(f"Willpower can upgrade 0 to {built.ability} Ability dice here.")
        try:
            pool = cold_stars.modify(built, willpower=willpower) if willpower else built
        except ValueError as exc:
            raise Refused(str(exc)) from None
        changes = cold.apply(cold_stars.modification_cost(willpower=willpower))
        ability = contest.ability(side) or target.obj.ability
        breakdown = (
            f"{cold.ability_value(ability)} {ColdStarsAbility(ability).label} + "
            f"{target.obj.name} "
            f"{'trained ' + str(target.obj.rating) if target.obj.trained else 'untrained'}"
            + (
                f", outside every domain (counts as at most {cold_stars.OUTSIDE_DOMAIN_SKILL_CAP})"
                if contest.outside_domain(side) and target.obj.needs_domain
                else ""
            )
            + f", Risk 0 (contest) = {built.describe()}"
        )
        if willpower:
            breakdown += f"; Willpower upgrades {willpower}: {pool.describe()}"
        return _side_entry(
            contest,
            target,
            user,
            options=base
            | {
                "ability": ability,
                "willpower": willpower,
                "in_domain": not contest.outside_domain(side),
            },
            pool=pool,
            breakdown=breakdown + f"; against {opponent}",
            rng=rng,
            changes=changes,
            visibility=visibility,
        )

    def corrected(
        self,
        contest: Contest,
        side: str,
        entry: RollEntry,
        character: Character,
        sheet: ColdStarsSheet,
        rng: RandomSource,
        user: User,
    ) -> RollEntry:
        changes = sheet.apply(cold_stars.CORRECT_COST)
        pool = cold_stars.Pool(entry.pool["ability"], entry.pool["skill"], entry.pool["risk"])
        return _side_entry(
            contest,
            contests.target_for(contest, side),
            user,
            options=entry.options,
            pool=pool,
            breakdown=entry.breakdown,
            rng=rng,
            changes=changes,
            kind=Kind.CORRECT,
            follows=entry,
        )

    def decide_if_ready(self, contest: Contest, user: User) -> RollEntry | None:
        """The successes cancel; exactly even, the initiator chooses."""
        if not (contest.settled_a and contest.settled_b):
            return None
        a, b = (status.entry for status in contests.sides(contest))
        if a is None or b is None:
            return None
        result = cold_stars.contest(cold_stars_faces_of(a), cold_stars_faces_of(b))
        if result.winner is None or result.band is None:  # exactly even (both are None then)
            contest.state = ContestState.CHOOSING
            contest.save(update_fields=["state"])
            return None
        name = contest.name_a if result.winner == "a" else contest.name_b
        return append_verdict(
            contest,
            user,
            winner=result.winner,
            outcome=result.band if result.winner == "a" else "failure",
            label=f"{name} wins: {OUTCOME_LABELS[result.band]}",
            detail=f"{result.successes_a} successes against {result.successes_b}; "
            f"{result.margin} left after cancelling",
            odds=cold_stars_contest_odds(a, b)[result.winner],
            table=cold_stars_contest_table(a, b),
            **sides_and_audience(contest),
            extra={
                "successes_a": result.successes_a,
                "successes_b": result.successes_b,
                "margin": result.margin,
                "band": result.band,
            },
        )

    def choose(self, contest: Contest, choice: str, user: User) -> RollEntry:
        a, b = (status.entry for status in contests.sides(contest))
        if a is None or b is None:  # a state no roll led to: nothing to choose between
            raise Refused("This contest isn't waiting for the initiator's choice.")
        result = cold_stars.contest(cold_stars_faces_of(a), cold_stars_faces_of(b))
        return append_verdict(
            contest,
            user,
            winner="a" if choice == "costly_success" else "b",
            outcome=choice,
            label=f"Even: {contest.name_a} takes a {OUTCOME_LABELS[choice]}",
            detail=f"{result.successes_a} successes each; the initiator chose",
            odds=cold_stars_contest_odds(a, b)["even"],
            table=cold_stars_contest_table(a, b),
            **sides_and_audience(contest),
            extra={
                "successes_a": result.successes_a,
                "successes_b": result.successes_b,
                "margin": 0,
            },
        )


class Passive(KeepOrCorrect, SingleRoll):
    kind = "cold_stars_passive"
    label = "Active vs passive: the passive side sets the Risk"
    side_b_words = "passive: sets the Risk"
    even_words = "All blank"

    def passive_risk(self, contest: Contest) -> int:
        """The passive side's higher Ability or Skill rating (engine), from its sheet."""
        target = contests.target_for(contest, "b")
        sheet = _sheet(target.sheet)
        return cold_stars.passive_risk(
            ability=sheet.ability_value(contest.ability_b or target.obj.ability),
            skill=target.obj.rating,
            domain_skill=target.obj.is_domain,
            in_domain=not contest.outside_domain_b,
        )

    def panel_preset(self, contest: Contest) -> tuple[dict[str, Any], set[str]]:
        values: dict[str, Any] = {"risk": self.passive_risk(contest)}
        if contest.ability_a:
            values["ability"] = contest.ability_a
        if contest.outside_domain_a:
            # The GM's call: the acting side's domain skill counts as outside every domain.
            values["domain"] = OUTSIDE_DOMAINS
            return values, {"risk", "domain"}
        return values, {"risk"}

    def rolled_from_panel(self, contest: Contest, entry: RollEntry, user: User) -> RollEntry | None:
        return None  # the verdict waits for side A to keep its roll or Correct it

    def rolling_side(self, contest: Contest, side: str) -> None:
        if side != "a":
            raise Refused(f"Only {contest.name_a} rolls in this contest.")

    def corrected(
        self,
        contest: Contest,
        side: str,
        entry: RollEntry,
        character: Character,
        sheet: ColdStarsSheet,
        rng: RandomSource,
        user: User,
    ) -> RollEntry:
        # The acting roll is read the ordinary way (Risk and all): its Correct too.
        label = contests.target_for(contest, side).label
        outcome = cold_stars_followups.correct_outcome(entry, sheet, rng)
        return RollEntry.objects.append_by(
            user,
            character,
            dice=rng,
            campaign=contest.campaign,
            contest=contest,
            label=label,
            follows=entry,
            **outcome.fields(),
        )

    def verdict_words(self, contest: Contest, entry: RollEntry) -> str:
        how = f"Risk {entry.options.get('risk')} from {contest.name_b}'s higher Ability or Skill"
        return how + ("; Corrected" if entry.kind == Kind.CORRECT else "")

    def deciding(self, contest: Contest, entry: RollEntry) -> list[RollEntry]:
        return deciding_entries(contest) or [entry]

    def decide_if_ready(self, contest: Contest, user: User) -> RollEntry | None:
        """Side A kept (or Corrected) its roll: the verdict on the roll as it now stands, or
        side A's choice first when it is all blank."""
        if not contest.settled_a:
            return None
        entry = contests.side_status(contest, "a").entry
        assert entry is not None
        if entry.outcome == "choice":
            contest.state = ContestState.CHOOSING
            contest.save(update_fields=["state"])
            return None
        return self.decide_single(contest, entry, user)

    def choose(self, contest: Contest, choice: str, user: User) -> RollEntry:
        entry = contests.side_status(contest, "a").entry
        if entry is None:
            raise Refused("This contest isn't waiting for the initiator's choice.")
        # An all-blank acting roll (Ability + Skill, no Risk left): side A picks, as in any roll.
        return self.decide_single(contest, entry, user, choice=choice)


def _pool(contest: Contest, side: str, target: Target, sheet: ColdStarsSheet) -> cold_stars.Pool:
    row = target.obj
    ability = contest.ability(side) or row.ability
    return cold_stars.contest_pool(
        ability=sheet.ability_value(ability),
        skill=row.rating,
        trained=row.trained,
        domain_skill=row.is_domain,
        in_domain=not contest.outside_domain(side),
    )


def _side_entry(
    contest: Contest,
    target: Target,
    user: User,
    *,
    options: dict[str, Any],
    pool: cold_stars.Pool,
    breakdown: str,
    rng: RandomSource,
    changes: dict[str, int],
    kind: str = Kind.ROLL,
    follows: RollEntry | None = None,
    visibility: str = Visibility.PUBLIC,  # a Correct takes its roll's, whatever this says
) -> RollEntry:
    faces = cold_stars.roll(pool, rng)
    count = cold_stars.successes(faces)
    distribution = cold_stars.success_distribution(pool)
    return RollEntry.objects.append_by(
        user,
        target.character,
        dice=rng,
        campaign=contest.campaign,
        contest=contest,
        label=target.label,
        kind=kind,
        follows=follows,
        visibility=visibility,
        options=options,
        pool={"ability": pool.ability, "skill": pool.skill, "risk": pool.risk},
        breakdown=breakdown,
        faces=cold_stars_faces(faces),
        outcome="contest_roll",
        outcome_label=OUTCOME_LABELS["contest_roll"],
        detail=f"{count} success{'' if count == 1 else 'es'}",
        result={"successes": count},
        **odds_fields(distribution[count], count_table(distribution)),
        resource_changes={k: v for k, v in changes.items() if v},
    )
