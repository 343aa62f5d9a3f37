"""A Cogent pool from the sheet and a roll's options, in dice and in the breakdown's words: the
roll panel's and a conflict side's one reading (rolls/table/cogent_sides.py)."""

from __future__ import annotations

from collections.abc import Iterable

from rules import cogent
from sheets.models import CUSTOM_WEAPON, CogentSheet, CogentSkill, CogentSubSkill


def default_weapon(row: CogentSubSkill) -> dict[str, object]:
    """The panel's weapon for a combat row: the one the sheet's pool uses (``weapon_now``: the
    stored one, else the skill's own), its bonus too for "other"."""
    if row.weapon_now == CUSTOM_WEAPON:
        return {"weapon": CUSTOM_WEAPON, "weapon_bonus": row.weapon_bonus}
    return {"weapon": row.weapon_now}


def cogent_pool(
    sheet: CogentSheet,
    row: CogentSkill | CogentSubSkill,
    *,
    combat: bool,
    weapon: tuple[str, int],
    circumstances: Iterable[str],
    equipment: int,
    extra: int,
    helpers: int = 0,
    secondary: str = "",
) -> tuple[int, list[tuple[int, str]]]:
    """A Cogent pool from the sheet and a roll's options, with the terms a breakdown names: one
    reading for the roll panel and a conflict side's roll. ``helpers``: an assist roll's further
    helpers (a group assist), +1 die each. ``secondary``: a dual-wielded secondary weapon's
    combat skill (Small or Medium); :class:`ValueError` in words when the sheet can't."""
    circumstances = list(circumstances)
    more = cogent.circumstance_dice(circumstances) + cogent.equipment_dice(equipment)
    more += cogent.group_assist_dice(helpers)
    dual = dual_wield_dice(sheet, row, secondary) if combat else 0
    more += dual
    terms = [(cogent.BASE_DICE, "base"), (row.rating, row.name)]
    attribute = None if combat else row.attribute
    if combat:
        name, bonus = weapon
        pool = sheet.combat_pool(
            rating=row.rating, weapon_bonus=bonus, extra=extra, bonus_dice=more
        )
        attributes = [sheet.strength, sheet.reflex, sheet.intelligence]
        terms += list(zip(attributes, cogent.ATTRIBUTES, strict=True))
        terms.append((bonus, name))
    else:
        pool = sheet.pool_for_skill(
            rating=row.rating, attribute=row.attribute, extra=extra, bonus_dice=more
        )
        terms.append((sheet.attribute_value(row.attribute), row.get_attribute_display()))
    terms += circumstance_terms(circumstances)
    if dual:
        terms.append((dual, f"{secondary.lower()} secondary weapon"))
    terms.append((equipment, "unequal equipment"))
    terms.append((helpers, "further helper" if helpers == 1 else "further helpers"))
    terms += [(-dice, what) for dice, what in sheet.penalties(attribute)]
    terms.append((-extra, "extra penalty"))
    return pool, terms


def dual_wield_dice(sheet: CogentSheet, row: CogentSkill | CogentSubSkill, secondary: str) -> int:
    """Book (Dual Wielding): the secondary weapon's dice for a combat roll with ``row`` (the
    primary weapon's skill); :class:`ValueError` in words without a point in both skills."""
    if not secondary:
        return 0
    rating = sheet.combat_skill_rating(secondary) if secondary in cogent.DUAL_WIELD_DICE else 0
    return cogent.dual_wield_dice(secondary, primary_skill=row.rating, secondary_skill=rating)


def spend_destiny_before(sheet: CogentSheet) -> dict[str, int]:
    """Spend a destiny point before a Cogent roll on the *locked* sheet; refuse without one."""
    return sheet.spend_destiny("You have no destiny points left to spend before the roll.")


def circumstance_terms(circumstances: Iterable[str]) -> list[tuple[int, str]]:
    """A breakdown's words for the combat circumstances: (+2, "high ground")."""
    terms = []
    for key in circumstances:
        label, dice = cogent.COMBAT_CIRCUMSTANCES[key]
        terms.append((dice, label.split(" (")[0].lower()))
    return terms
