"""A Cogent conflict side: the options one side rolls with, and the entry its roll becomes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from log.models import OUTCOME_LABELS, Kind, RollEntry
from rolls.models import Contest
from rolls.rolling.forms.cogent_pools import cogent_pool, spend_destiny_before
from rolls.rolling.outcomes import cogent_faces, odds_fields, pool_terms
from rolls.rolling.targets import Target
from rolls.table.verdicts import count_table
from rules import RandomSource, cogent
from sheets.models import CogentSheet, Refused
from sheets.ranges import COGENT_PENALTY_MAX

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class CogentSide:
    """What a Cogent conflict side chooses for its roll: everything an action's roll may use
    that applies to a conflict (rules at the table) — no destiny *after*, no Challenge Level."""

    destiny_before: bool = False
    circumstances: tuple[str, ...] = ()
    secondary_weapon: str = ""  # dual wielding: the secondary weapon's combat skill (Book)
    equipment: int = 0
    extra_penalty: int = 0

    @classmethod
    def from_post(cls, data: Any) -> CogentSide:
        """Read and check the side's options from a request; :class:`Refused` in words."""

        def number(name: str, label: str, low: int, high: int) -> int:
            raw = str(data.get(name, "") or "0").strip()
            if not (raw.lstrip("-").isascii() and raw.lstrip("-").isdigit()) or len(raw) > 4:
                raise Refused(f"{label} must be a whole number from {low} to {high}.")
            value = int(raw)
            if not low <= value <= high:
                raise Refused(f"{label} must be from {low} to {high}; {value} is out of range.")
            return value

        circumstances = tuple(data.getlist("circumstances")) if hasattr(data, "getlist") else ()
        try:
            cogent.circumstance_dice(circumstances)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        secondary = str(data.get("secondary_weapon", "") or "")
        if secondary and secondary not in cogent.DUAL_WIELD_DICE:
            allowed = ", ".join(cogent.DUAL_WIELD_DICE)
            raise Refused(f"The secondary weapon must be one of {allowed}; {secondary!r} is not.")
        return cls(
            destiny_before=data.get("destiny_before") in ("on", "true", "1"),
            circumstances=circumstances,
            secondary_weapon=secondary,
            equipment=number(
                "equipment", "Unequal equipment", cogent.EQUIPMENT_MIN, cogent.EQUIPMENT_MAX
            ),
            extra_penalty=number("extra_penalty", "Extra penalty dice", 0, COGENT_PENALTY_MAX),
        )


def cogent_side_pool(
    target: Target, sheet: CogentSheet, options: CogentSide
) -> tuple[int, list[tuple[int, str]]]:
    """A conflict side's pool and breakdown terms: the sheet's, with its stored weapon, and the
    side's options (the roll panel's reading, ``rolls.rolling.forms.cogent.cogent_pool``)."""
    row = target.obj
    weapon = (row.weapon_label, row.weapon_bonus_now) if target.is_combat else ("", 0)
    try:
        return cogent_pool(
            sheet,
            row,
            combat=target.is_combat,
            weapon=weapon,
            circumstances=options.circumstances,
            equipment=options.equipment,
            extra=options.extra_penalty,
            secondary=options.secondary_weapon,
        )
    except ValueError as exc:  # dual wielding without a point in both weapons' skills
        raise Refused(str(exc)) from None


def cogent_side_roll(
    contest: Contest,
    side: str,
    target: Target,
    sheet: CogentSheet,
    rng: RandomSource,
    user: User,
    *,
    options: CogentSide,
    base: dict[str, Any],
    visibility: str,
    opponent: str,
) -> RollEntry:
    row = target.obj
    if (options.circumstances or options.secondary_weapon) and not target.is_combat:
        raise Refused("Combat circumstances and dual wielding apply to combat skills only.")
    changes = spend_destiny_before(sheet) if options.destiny_before else {}
    pool, terms = cogent_side_pool(target, sheet, options)
    breakdown = f"{pool_terms(terms)} = {pool}d6, conflict round {contest.round} against {opponent}"
    if options.destiny_before:
        breakdown += f", destiny spent first ({cogent.DESTINY_WIN_FACE}–6 win)"
    faces = cogent.roll(pool, rng)
    result = cogent.resolve(
        faces, challenge_level=cogent.CL_MIN, destiny_before=options.destiny_before
    )
    wins = result.rolled_wins
    distribution = cogent.win_distribution(pool, destiny_before=options.destiny_before)
    recorded = base | {
        "rating": row.rating,
        "combat": target.is_combat,
        "destiny_before": options.destiny_before,
        "circumstances": list(options.circumstances),
        **({"secondary_weapon": options.secondary_weapon} if options.secondary_weapon else {}),
        "equipment": options.equipment,
        "extra_penalty": options.extra_penalty,
    }
    return RollEntry.objects.append_by(
        user,
        target.character,
        dice=rng,
        campaign=contest.campaign,
        contest=contest,
        label=target.label,
        kind=Kind.ROLL,
        visibility=visibility,
        options=recorded,
        pool={"dice": pool},
        breakdown=breakdown,
        faces=cogent_faces(result),
        outcome="contest_roll",
        outcome_label=OUTCOME_LABELS["contest_roll"],
        detail=f"{wins} win{'' if wins == 1 else 's'}",
        result={"wins": wins},
        **odds_fields(distribution[wins], count_table(distribution)),
        resource_changes=changes,
    )
