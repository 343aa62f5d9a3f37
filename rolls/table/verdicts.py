"""A contest's verdict: the entry that decides it, with its odds and wording, and who may read it."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from log.models import Kind, RollEntry, Visibility
from rolls.models import Contest, ContestState
from rolls.rolling.display import CERTAIN
from rolls.rolling.outcomes import odds_fields
from rules import cogent, cold_stars
from sheets.models import Membership, Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def cogent_verdict_words(
    contest: Contest, result: cogent.ConflictResult, a: RollEntry, b: RollEntry
) -> tuple[str, dict[str, Any]]:
    """Rules at the table: victory levels and "deathblow" are combat words — only when a side
    rolls a combat skill; a winner that made a defence roll scores none; any other conflict
    reports the margin in wins."""
    winner = a if result.winner == "a" else b
    name = contest.name_a if result.winner == "a" else contest.name_b
    margin = abs(result.wins_a - result.wins_b)
    combat = bool(a.options.get("combat") or b.options.get("combat"))
    if not combat:
        label = f"{name} wins by {margin} win{'' if margin == 1 else 's'}"
        return label, {"margin": margin}
    if cogent.DEFENCE in winner.options.get("circumstances", []):
        label = f"{name} holds: a defence roll scores no victory levels"
        return label, {"margin": margin, "victory_levels": 0, "deathblow": False}
    levels = result.victory_levels
    label = f"{name} wins by {levels} victory level" + ("s" if levels != 1 else "")
    if result.deathblow:
        label += " — deathblow"
    return label, {"margin": margin, "victory_levels": levels, "deathblow": result.deathblow}


# ---------------------------------------------------------------------------------------------
# Entries
# ---------------------------------------------------------------------------------------------


def cold_stars_faces_of(entry: RollEntry) -> cold_stars.Faces:
    return cold_stars.Faces(
        **{
            kind: tuple(d["face"] for d in entry.faces if d["kind"] == kind)
            for kind in ("ability", "skill", "risk")
        }
    )


def cold_stars_contest_odds(a: RollEntry, b: RollEntry) -> dict[str, Fraction]:
    return cold_stars.contest_odds(
        cold_stars.Pool(a.pool["ability"], a.pool["skill"], 0),
        cold_stars.Pool(b.pool["ability"], b.pool["skill"], 0),
    )


def from_side_a(a: Fraction, b: Fraction) -> dict[str, Fraction]:
    """A conflict's verdict seen from side A, ties re-rolled: A wins (success) or loses."""
    return {"success": a / (a + b), "failure": b / (a + b)}


def cold_stars_contest_table(a: RollEntry, b: RollEntry) -> dict[str, Fraction]:
    """Side A's chances in an active contest: win, lose, or even (the initiator's choice)."""
    odds = cold_stars_contest_odds(a, b)
    return {"success": odds["a"], "failure": odds["b"], "choice": odds["even"]}


def count_table(distribution: tuple[Fraction, ...]) -> dict[str, Fraction]:
    """A side's roll has no outcome band of its own: its table is per count of wins/successes."""
    return {str(count): chance for count, chance in enumerate(distribution)}


def side_json(entry: RollEntry, side: str, name: str) -> dict[str, Any]:
    return {
        "side": side,
        "name": name,
        "entry": entry.pk,
        "seq": entry.seq,
        "round": entry.options.get("contest_round", 1),
        "label": entry.label,
        "outcome_label": entry.outcome_label,
        "detail": entry.detail,
        "faces": entry.faces,
    }


def sides_and_audience(contest: Contest) -> dict[str, Any]:
    """Every roll of the contest, rounds and Corrects included, for the verdict card — and the
    verdict's audience, which those rolls decide."""
    deciding = deciding_entries(contest)
    sides = [
        side_json(
            entry,
            entry.options.get("contest_side", "a"),
            contest.name_a if entry.options.get("contest_side", "a") == "a" else contest.name_b,
        )
        for entry in deciding
    ]
    return {"sides": sides, **verdict_audience(deciding)}


def append_verdict(
    contest: Contest,
    user: User,
    *,
    winner: str,
    outcome: str,
    label: str,
    detail: str,
    odds: Fraction,
    table: dict[str, Fraction],
    sides: list[dict[str, Any]],
    extra: dict[str, Any],
    **audience: Any,
) -> RollEntry:
    """The verdict entry. ``audience``: its visibility, roller and (for a hidden NPC) character,
    from :func:`verdict_audience` — the most hidden of the rolls whose figures it holds."""
    if contest.campaign.force_public_rolls and audience.get("visibility", Visibility.PUBLIC) != (
        Visibility.PUBLIC
    ):
        # A roll made hidden before the GM made every roll public: a public verdict would show
        # its dice, and the campaign allows no other.
        raise Refused(
            "A roll of this contest is hidden, but the campaign now makes every roll public: "
            "the GM can call the contest off."
        )
    contest.state = ContestState.DECIDED
    contest.winner = winner
    contest.verdict = label
    contest.decided_at = timezone.now()
    contest.save(update_fields=["state", "winner", "verdict", "decided_at"])
    skills = contest.skill_a + (f" vs {contest.skill_b}" if contest.skill_b else "")
    fields: dict[str, Any] = {
        "character": contest.character_a,
        "visibility": Visibility.PUBLIC,
    } | audience
    return RollEntry.objects.append(
        campaign=contest.campaign,
        contest=contest,
        user=user,
        character_name=f"{contest.name_a} vs {contest.name_b}",
        username=user.get_username(),
        system=contest.campaign.system,
        kind=Kind.CONTEST,
        label=skills,
        options={"contest": contest.pk, "contest_kind": contest.kind, "rounds": contest.round},
        pool={},
        breakdown=contest.get_kind_display(),  # the style's label (sheets.registry)
        faces=[],
        outcome=outcome,
        outcome_label=label[:100],
        detail=detail,
        result={"winner": winner, "sides": sides} | extra,
        **fields,
        **odds_fields(odds or CERTAIN, table),
        resource_changes={},
    )


# ---------------------------------------------------------------------------------------------
# Hidden sides: who may learn a contest's outcome
# ---------------------------------------------------------------------------------------------

# How far a hidden roll is hidden: GM-only (the GM and its roller read it) < blind (the GM reads
# it, its roller sees a placeholder) < secret or a hidden NPC's (the GM alone knows of it).
_HIDDEN_RANK = {
    Visibility.GM_ONLY: 1,
    Visibility.BLIND: 2,
    Visibility.SECRET: 3,
    Visibility.PUBLIC: 3,  # public yet hidden: a hidden NPC's roll
}


def deciding_entries(contest: Contest) -> list[RollEntry]:
    """Every roll whose figures the verdict holds: each side's rolls and Corrects, every round."""
    return list(
        contest.entries.exclude(kind=Kind.CONTEST).select_related("character").order_by("pk")
    )


def verdict_audience(deciding: list[RollEntry]) -> dict[str, Any]:
    """The verdict's visibility (and roller, and character) so that it is read only by members
    who may read every roll that decides it, and known (as a placeholder) only to whom the most
    hidden of those rolls is known.

    * Every roll readable by everyone: a public verdict.
    * Otherwise it takes the audience of its most hidden roll: GM-only to that roll's roller,
      blind (a placeholder for its roller), secret; a hidden NPC's roll is hidden through its
      character, so the verdict is filed under that NPC and stays hidden exactly as its rolls do.
    * GM-only rolls of two different rollers: neither may read the other's, so only the GM reads
      the verdict — secret.
    """
    hidden = [entry for entry in deciding if _hidden(entry)]
    if not hidden:
        return {"visibility": Visibility.PUBLIC}
    top = max(hidden, key=lambda entry: _HIDDEN_RANK[Visibility(entry.visibility)])
    audience: dict[str, Any] = {"visibility": top.visibility, "roller_id": top.roller_id}
    if top.visibility == Visibility.PUBLIC:
        audience["character"] = top.character
    elif top.visibility == Visibility.GM_ONLY and len({e.roller_id for e in hidden}) > 1:
        audience["visibility"] = Visibility.SECRET
    return audience


def readable_by(membership: Membership, entries: list[RollEntry]) -> bool:
    """May this member learn the contest's outcome — each side's figures, who won, the verdict?
    Only if they may read every one of its ``entries`` (side rolls and the verdict; the GM
    always may). A member who may not sees the contest as decided, its result hidden."""
    return all(entry.is_readable_by(membership) for entry in entries)


def revealed_with(entry: RollEntry) -> list[RollEntry]:
    """What the GM's reveal of ``entry`` (already appended) reveals along with it, so a contest
    never shows figures that its own entries still hide:

    * a verdict: every hidden roll of the contest — the verdict card shows their dice anyway;
    * a contest roll: the verdict, once no roll deciding it is hidden any more.
    """
    contest = entry.contest if entry.contest_id is not None else None
    if contest is None:
        return []
    deciding = deciding_entries(contest)
    if entry.info.is_verdict:
        return [e for e in deciding if e.follows_id is None and _hidden(e)]
    verdict = contest.entries.filter(kind=Kind.CONTEST).select_related("character").first()
    if verdict is None or not _hidden(verdict):
        return []
    if any(_hidden(e) for e in deciding if e.follows_id is None and e.pk != entry.pk):
        return []
    return [verdict]


def _hidden(entry: RollEntry) -> bool:
    """Not readable by every member. (``is_hidden`` alone still says a hidden NPC's public roll
    is hidden after the GM revealed it.)"""
    return entry.is_hidden and not entry.is_revealed
