"""Contests: each side's roll and the verdict, as roll log entries. Every rule comes from the engine.

* Cogent conflict: both sides roll their pools; ``cogent.conflict`` decides; a tie is a new round.
* Cold Stars active vs active: both build at Risk 0 (``cold_stars.contest_pool``), each may upgrade
  Ability dice with Willpower (step 4; Brace doesn't apply at Risk 0, Press would add Risk) and may
  Correct once (step 6); ``cold_stars.contest`` decides; even → the initiator chooses.
* Cold Stars active vs passive, DAD6 opposed: only side A rolls, through the ordinary roll panel with
  the Risk (``cold_stars.passive_risk``) or the difficulty (``dad6.opposed_difficulty``) locked;
  the roll's outcome is the verdict. DAD6: at once. Cold Stars: like an active contest, the verdict
  waits for side A to keep its roll or Correct it (step 6 comes before the verdict, which is decided
  on the corrected roll); an all-blank result waits for side A's choice.

Side rolls are entries linked by ``contest``; the verdict is one more entry of kind ``contest``
whose ``result`` holds both sides' dice and links, so the log shows the contest as one card.
Callers run these inside one transaction with the sheet locked, and publish the ``contest`` event.

Hidden sides (docs/gm-table.md, "Hidden rolls in a contest"): nobody learns a side's figures or the
verdict unless they may read every roll that decides it. The verdict entry gets the audience of its
most hidden deciding roll (:func:`verdict_audience`), and :func:`readable_by` tells the views
whether a member may see a contest's outcome — both through the entry-level visibility API only.

The verdict entry and its audience are in ``verdicts``; a Cogent side's options in ``cogent_sides``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from django.utils import timezone

from rolls.models import (
    OUTCOME_LABELS,
    Contest,
    ContestState,
    Kind,
    RollEntry,
    Visibility,
    offered_visibilities,
)
from rolls.rolling.followups import cold_stars as cold_stars_followups
from rolls.rolling.forms.cold_stars import OUTSIDE_DOMAINS
from rolls.rolling.outcomes import cold_stars_faces, odds_fields
from rolls.rolling.targets import Target, find_target
from rolls.rules import RandomSource, cogent, cold_stars, dad6
from rolls.table.cogent_sides import CogentSide, cogent_side_roll
from rolls.table.verdicts import (
    append_verdict,
    cogent_verdict_words,
    cold_stars_contest_odds,
    cold_stars_contest_table,
    cold_stars_faces_of,
    count_table,
    deciding_entries,
    from_side_a,
    side_json,
    sides_and_audience,
    verdict_audience,
)
from sheets.models import (
    Character,
    CogentSheet,
    ColdStarsAbility,
    ColdStarsSheet,
    Membership,
    Refused,
    Sheet,
)

SIDES = ("a", "b")


@dataclass
class SideStatus:
    """What one side of a contest has done in the current round."""

    side: str
    name: str
    character: Character | None
    entry: RollEntry | None  # its latest entry this round (a Correct follows the roll)
    settled: bool

    @property
    def rolled(self) -> bool:
        return self.entry is not None


def target_for(contest: Contest, side: str) -> Target:
    character = contest.character(side)
    if character is None:
        raise Refused("This side's character was deleted; the GM can call the contest off.")
    target = find_target(character, contest.skill(side))
    if target is None:
        raise Refused(f"{character.name} has no skill called {contest.skill(side)}.")
    return target


# ---------------------------------------------------------------------------------------------
# Single-roll contests: the panel's preset and the verdict after the roll
# ---------------------------------------------------------------------------------------------


def passive_risk(contest: Contest) -> int:
    """Cold Stars: the passive side's higher Ability or Skill rating (engine), from its sheet."""
    target = target_for(contest, "b")
    sheet = cast(ColdStarsSheet, target.sheet)  # a passive contest is Cold Stars
    return cold_stars.passive_risk(
        ability=sheet.ability_value(contest.ability_b or target.obj.ability),
        skill=target.obj.rating,
        domain_skill=target.obj.is_domain,
        in_domain=not contest.outside_domain_b,
    )


def panel_preset(contest: Contest) -> tuple[dict[str, Any], set[str]]:
    """What side A's roll panel is prefilled with, and which values are locked."""
    if contest.style.side_b_sets_risk:
        values: dict[str, Any] = {"risk": passive_risk(contest)}
        if contest.ability_a:
            values["ability"] = contest.ability_a
        if contest.outside_domain_a:
            # The GM's call: the acting side's domain skill counts as outside every domain.
            values["domain"] = OUTSIDE_DOMAINS
            return values, {"risk", "domain"}
        return values, {"risk"}
    if contest.style.side_b_opposes:
        try:
            raised = dad6.opposed_difficulty(contest.difficulty, opposition=contest.opposition)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        return {"difficulty": raised}, {"difficulty"}
    raise Refused("In this contest both sides roll from the contest prompt.")


def check_single_roll(contest: Contest, character: Character) -> None:
    if contest.both_roll:
        raise Refused("Both sides of this contest roll from the contest prompt, not the panel.")
    if not contest.is_active:
        raise Refused("This contest is over.")
    if contest.side_of(character) != "a":
        raise Refused(f"Only {contest.name_a} rolls in this contest.")
    if contest.entries.exists():
        raise Refused(f"{contest.name_a} has already rolled for this contest.")


# Cold Stars contests: each rolling side keeps its roll or Corrects it before the verdict.


def rolled_single(contest: Contest, entry: RollEntry, user: Any) -> RollEntry | None:
    """Side A's panel roll is in: DAD6's verdict at once; Cold Stars waits for Keep or Correct."""
    if contest.style.side_b_sets_risk:
        return None
    return decide_single(contest, entry, user)


def decide_single(contest: Contest, entry: RollEntry, user: Any, *, choice: str = "") -> RollEntry:
    """The acting roll resolved normally is the verdict (Cold Stars passive, DAD6 opposed);
    ``choice``: side A's pick for an all-blank Cold Stars result."""
    if contest.style.side_b_sets_risk:
        how = f"Risk {entry.options.get('risk')} from {contest.name_b}'s higher Ability or Skill"
        if entry.kind == Kind.CORRECT:
            how += "; Corrected"
    else:
        how = (
            f"Difficulty {entry.options.get('difficulty')}: {contest.difficulty} "
            f"+ {contest.opposition} for opposition"
        )
    outcome = choice or entry.outcome
    verdict = f"{contest.name_a}: {OUTCOME_LABELS[outcome] if choice else entry.outcome_label}"
    if choice:
        how += f"; all blank, {contest.name_a} took a {OUTCOME_LABELS[choice]}"
    deciding = deciding_entries(contest) if contest.style.side_b_sets_risk else []
    deciding = deciding or [entry]
    return append_verdict(
        contest,
        user,
        winner="a" if outcome.endswith("success") else "b",
        outcome=outcome,
        label=verdict,
        detail=f"{how}. {entry.detail}".strip(),
        odds=Fraction(entry.odds),
        table={band: Fraction(p) for band, p in entry.odds_table.items()},
        sides=[side_json(e, "a", contest.name_a) for e in deciding],
        extra={"choice": choice} if choice else {},
        # The verdict shows the roll's dice: it is seen by exactly who may see the rolls.
        **verdict_audience(deciding),
    )


def _decide_passive(contest: Contest, user: Any) -> RollEntry | None:
    """Cold Stars active vs passive, side A kept (or Corrected) its roll: the verdict on the roll
    as it now stands, or side A's choice first when it is all blank."""
    entry = side_status(contest, "a").entry
    assert entry is not None
    if entry.outcome == "choice":
        contest.state = ContestState.CHOOSING
        contest.save(update_fields=["state"])
        return None
    return decide_single(contest, entry, user)


# ---------------------------------------------------------------------------------------------
# Both sides roll: Cogent conflict, Cold Stars active vs active
# ---------------------------------------------------------------------------------------------


def sides(contest: Contest, entries: list[RollEntry] | None = None) -> list[SideStatus]:
    """Each side's latest entry in the current round (``entries``: the contest's, if loaded)."""
    if entries is None:
        entries = list(contest.entries.order_by("pk"))
    latest: dict[str, RollEntry] = {}
    for entry in entries:
        if entry.kind == Kind.CONTEST:
            continue
        if entry.options.get("contest_round", contest.round) == contest.round:
            latest[entry.options.get("contest_side", "a")] = entry
    return [
        SideStatus(
            side,
            contest.name_a if side == "a" else contest.name_b,
            contest.character(side),
            latest.get(side),
            contest.settled_a if side == "a" else contest.settled_b,
        )
        for side in SIDES
    ]


def side_status(contest: Contest, side: str) -> SideStatus:
    """One side's status in the current round."""
    return next(s for s in sides(contest) if s.side == side)


def willpower_choices(contest: Contest, side: str, sheet: ColdStarsSheet) -> list[int]:
    """Cold Stars active: how many Ability dice this side may upgrade with Willpower (step 4)."""
    pool = _cold_stars_pool(contest, side, target_for(contest, side), sheet)
    return list(range(0, min(pool.ability, sheet.willpower) + 1))


def _cold_stars_pool(
    contest: Contest, side: str, target: Target, sheet: ColdStarsSheet
) -> cold_stars.Pool:
    row = target.obj
    ability = contest.ability(side) or row.ability
    return cold_stars.contest_pool(
        ability=sheet.ability_value(ability),
        skill=row.rating,
        trained=row.trained,
        domain_skill=row.is_domain,
        in_domain=not contest.outside_domain(side),
    )


def visibility_choices(contest: Contest, membership: Membership) -> list[tuple[str, str]]:
    """Who may see a side's roll, as the roll panel offers it (public or secret for the GM; public,
    GM-only or blind for a player); nothing to choose when the campaign makes every roll public."""
    if contest.campaign.force_public_rolls:
        return []
    return offered_visibilities(gm=membership.is_gm)


def chosen_visibility(contest: Contest, membership: Membership, value: str) -> str:
    """The visibility a side's roll is made with; a choice the member may not make is refused.
    A campaign whose rolls are all public ignores the field, like the roll panel."""
    choices = visibility_choices(contest, membership)
    if not choices:
        return Visibility.PUBLIC
    value = value or Visibility.PUBLIC
    if value not in dict(choices):
        allowed = ", ".join(str(label) for _, label in choices)
        raise Refused(f"Who sees the result: choose one of {allowed}.")
    return value


def roll_side(
    contest: Contest,
    side: str,
    sheet: Sheet,
    rng: RandomSource,
    user: Any,
    *,
    willpower: int = 0,
    visibility: str = Visibility.PUBLIC,
    cogent: CogentSide | None = None,
) -> RollEntry:
    """One side's roll for the current round, on its *locked* sheet, seen by ``visibility``."""
    if not contest.both_roll:
        raise Refused("Only the acting side rolls in this contest, from its roll panel.")
    if contest.state != ContestState.OPEN:
        raise Refused("This contest is not waiting for rolls.")
    if side_status(contest, side).rolled:
        raise Refused(f"{contest.name_a if side == 'a' else contest.name_b} has already rolled.")
    target = target_for(contest, side)
    character = target.character
    base = {
        "contest": contest.pk,
        "contest_side": side,
        "contest_round": contest.round,
        "target": target.kind,
        "target_id": target.obj.pk,
    }
    opponent = contest.name_b if side == "a" else contest.name_a
    if contest.style.rounds:
        return cogent_side_roll(
            contest,
            side,
            target,
            cast(CogentSheet, sheet),  # a conflict is Cogent's
            rng,
            user,
            options=cogent or CogentSide(),
            base=base,
            visibility=visibility,
            opponent=opponent,
        )
    cold = cast(ColdStarsSheet, sheet)  # the other contests where both roll are Cold Stars'
    built = _cold_stars_pool(contest, side, target, cold)
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
        f"{target.obj.name} {'trained ' + str(target.obj.rating) if target.obj.trained else 'untrained'}"
        + (
            f", outside every domain (counts as at most {cold_stars.OUTSIDE_DOMAIN_SKILL_CAP})"
            if contest.outside_domain(side) and target.obj.needs_domain
            else ""
        )
        + f", Risk 0 (contest) = {built.describe()}"
    )
    if willpower:
        breakdown += f"; Willpower upgrades {willpower}: {pool.describe()}"
    return _cold_stars_side_entry(
        contest,
        character,
        user,
        target,
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


def _cold_stars_side_entry(
    contest: Contest,
    character: Character,
    user: Any,
    target: Target,
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
    return RollEntry.objects.append_by(
        user,
        character,
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
        **odds_fields(
            cold_stars.success_distribution(pool)[count],
            count_table(cold_stars.success_distribution(pool)),
        ),
        resource_changes={k: v for k, v in changes.items() if v},
    )


def correct_side(
    contest: Contest, side: str, sheet: ColdStarsSheet, rng: RandomSource, user: Any
) -> RollEntry:
    """Cold Stars step 6: re-roll this side's whole pool for 1 Momentum, once."""
    status = side_status(contest, side)
    if not contest.style.keep_or_correct:
        raise Refused("Correct is a Cold Stars step.")
    if contest.state != ContestState.OPEN:
        # Rules at the table: Correct in a contest comes before the verdict; after it the re-roll
        # would spend Momentum and change nothing.
        raise Refused("This contest is past its rolls; Correct comes before the verdict.")
    if status.settled:
        raise Refused(f"{status.name} is done with this roll.")
    if contest.style.side_b_sets_risk and side != "a":
        raise Refused(f"Only {contest.name_a} rolls in this contest.")
    if status.entry is None:
        raise Refused(f"{status.name} hasn't rolled yet.")
    if status.entry.kind != Kind.ROLL:
        raise Refused("Correct re-rolls a roll once.")
    entry, character = status.entry, status.character
    if character is None:
        raise Refused("This side's character was deleted; the GM can call the contest off.")
    if contest.style.side_b_sets_risk:
        # The acting roll is read the ordinary way (Risk and all): its Correct too.
        outcome = cold_stars_followups.correct_outcome(entry, sheet, rng)
        new = RollEntry.objects.append_by(
            user,
            character,
            campaign=contest.campaign,
            contest=contest,
            label=target_for(contest, side).label,
            follows=entry,
            **outcome.fields(),
        )
        settle_side(contest, side, user)
        return new
    changes = sheet.apply(cold_stars.CORRECT_COST)
    pool = cold_stars.Pool(entry.pool["ability"], entry.pool["skill"], entry.pool["risk"])
    new = _cold_stars_side_entry(
        contest,
        character,
        user,
        target_for(contest, side),
        options=entry.options,
        pool=pool,
        breakdown=entry.breakdown,
        rng=rng,
        changes=changes,
        kind=Kind.CORRECT,
        follows=entry,
    )
    settle_side(contest, side, user)
    return new


def settle_side(contest: Contest, side: str, user: Any) -> RollEntry | None:
    """This side keeps its roll (Cold Stars); the contest is decided once both have."""
    status = side_status(contest, side)
    if not contest.style.keep_or_correct:
        raise Refused("Keeping a roll is a Cold Stars step.")
    # Only while rolls are awaited: keeping again after the verdict would decide a second time.
    if contest.state != ContestState.OPEN:
        raise Refused("This contest is not waiting for rolls.")
    if contest.style.side_b_sets_risk and side != "a":
        raise Refused(f"Only {contest.name_a} rolls in this contest.")
    if status.entry is None:
        raise Refused(f"{status.name} hasn't rolled yet.")
    setattr(contest, f"settled_{side}", True)
    contest.save(update_fields=[f"settled_{side}"])
    return decide_if_ready(contest, user)


def decide_if_ready(contest: Contest, user: Any) -> RollEntry | None:
    """Once every side is in: the verdict entry, a new round (Cogent tie) or the initiator's
    choice (Cold Stars even). Returns the verdict entry when there is one."""
    if contest.style.side_b_sets_risk:
        return _decide_passive(contest, user) if contest.settled_a else None
    status = sides(contest)
    a, b = status
    if not (a.rolled and b.rolled):
        return None
    if (
        contest.both_roll
        and contest.style.keep_or_correct
        and not (contest.settled_a and contest.settled_b)
    ):
        return None
    assert a.entry is not None and b.entry is not None  # both rolled
    if contest.style.rounds:
        return _decide_conflict(contest, user, a.entry, b.entry)
    return _decide_both_rolled(contest, user, a.entry, b.entry)


def _decide_conflict(contest: Contest, user: Any, a: RollEntry, b: RollEntry) -> RollEntry | None:
    """A Cogent conflict round: more wins wins; a tie is a new round."""
    faces_a = [die["face"] for die in a.faces]
    faces_b = [die["face"] for die in b.faces]
    before_a = bool(a.options.get("destiny_before"))
    before_b = bool(b.options.get("destiny_before"))
    result = cogent.conflict(faces_a, faces_b, destiny_before_a=before_a, destiny_before_b=before_b)
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


def _decide_both_rolled(
    contest: Contest, user: Any, a: RollEntry, b: RollEntry
) -> RollEntry | None:
    """Cold Stars active vs active: the successes cancel; exactly even, the initiator chooses."""
    result = cold_stars.contest(cold_stars_faces_of(a), cold_stars_faces_of(b))
    if result.winner is None or result.band is None:  # exactly even (both are None then)
        contest.state = ContestState.CHOOSING
        contest.save(update_fields=["state"])
        return None
    name = contest.name_a if result.winner == "a" else contest.name_b
    band = OUTCOME_LABELS[result.band]
    return append_verdict(
        contest,
        user,
        winner=result.winner,
        outcome=result.band if result.winner == "a" else "failure",
        label=f"{name} wins: {band}",
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


CHOICES = ("costly_success", "failure")


def choose(contest: Contest, choice: str, user: Any) -> RollEntry:
    """Cold Stars: an exactly even contest; the initiator takes a Costly Success or a Failure."""
    if contest.state != ContestState.CHOOSING:
        raise Refused("This contest isn't waiting for the initiator's choice.")
    if choice not in CHOICES:
        raise Refused("Choose a Costly Success or a Failure.")
    a, b = sides(contest)
    if contest.style.side_b_sets_risk and a.entry is not None:
        # An all-blank acting roll (Ability + Skill, no Risk left): side A picks, as in any roll.
        return decide_single(contest, a.entry, user, choice=choice)
    if a.entry is None or b.entry is None:  # a state no roll led to: nothing to choose between
        raise Refused("This contest isn't waiting for the initiator's choice.")
    result = cold_stars.contest(cold_stars_faces_of(a.entry), cold_stars_faces_of(b.entry))
    return append_verdict(
        contest,
        user,
        winner="a" if choice == "costly_success" else "b",
        outcome=choice,
        label=f"Even: {contest.name_a} takes a {OUTCOME_LABELS[choice]}",
        detail=f"{result.successes_a} successes each; the initiator chose",
        odds=cold_stars_contest_odds(a.entry, b.entry)["even"],
        table=cold_stars_contest_table(a.entry, b.entry),
        **sides_and_audience(contest),
        extra={"successes_a": result.successes_a, "successes_b": result.successes_b, "margin": 0},
    )


def cancel(contest: Contest) -> None:
    if not contest.is_active:
        raise Refused("This contest is already over.")
    contest.state = ContestState.CANCELLED
    contest.decided_at = timezone.now()
    contest.save(update_fields=["state", "decided_at"])
