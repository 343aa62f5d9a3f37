"""The Cogent roll panel's words for its flags (under duress, contested, reflexive): how they read
in a breakdown and what they do to the roll on offer."""

from __future__ import annotations

from rules import cogent

# How the options read in a roll's breakdown. Stored and hashed with the entry, so fixed here
# rather than taken from the form's labels (which may be reworded).
FLAG_WORDS = {"duress": "under duress", "contested": "contested", "reflexive": "reflexive"}

# Skill speciality in words, for the options that cancel it.
AUTO_PASS_WORDS = (
    f"{cogent.SPECIALITY_MIN_POOL}+ dice against CL {cogent.SPECIALITY_MAX_CL} or less"
)


def flag_notes(
    data: dict[str, object], *, pool: int, cl: int, assist: bool, combat: bool = False
) -> list[str]:
    """What the ticked Under duress / Contested / Reflexive do to *this* roll: whether they cancel
    an automatic pass it would have had, and a reflexive failure's injury levels."""
    ticked = [FLAG_WORDS[name] for name in FLAG_WORDS if data.get(name)]
    if not ticked:
        return []
    names = " and ".join(ticked).capitalize()
    would_pass = not assist and cogent.auto_success(pool, challenge_level=cl)
    if combat:
        notes = [
            f"{names}: no change — a combat roll is under duress and never passes automatically."
        ]
    elif would_pass:
        notes = [f"{names}: no automatic pass, so the dice are rolled (same odds)."]
    else:
        notes = [
            f"{names}: no change to these odds — {pool} dice against CL {cl} have no automatic "
            f"pass to cancel ({AUTO_PASS_WORDS} would)."
        ]
    if data.get("reflexive"):
        worst = min(cl, cogent.DEATHBLOW_VICTORY_LEVELS)
        levels = "level 1" if worst == 1 else f"level 1 to {worst}"
        notes.append(f"Reflexive: a failure injures you, {levels} here (CL − wins, at most 5).")
    return notes
