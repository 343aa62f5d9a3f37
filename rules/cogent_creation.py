"""Cogent Roleplay character creation (Book, Fast Play): the budgets and soft checks a new
character is held to. Split from :mod:`rules.cogent` so the rolling rules stay one module."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ._common import check_choice
from .creation import Budget, CreationCheck, Problem

CREATION_NEGATIVE_SKILLS_MAX = 1  # Book (core_skills.tex): one core skill may be −1 at creation
CREATION_VOCATIONS_MIN = 1  # Book (vocations.tex): a character has at least one vocation
# Character creation, Fast Play (Book, attributes.tex and core_skills.tex): 2 attribute points and
# 12 skill points; each point of Intelligence gives 3 more skill points. Campaign Play starts with
# fewer, so these are ceilings: spending less is never refused.
CREATION_ATTRIBUTE_POINTS = 2
CREATION_ATTRIBUTE_MIN = 0  # Book: "Players may not choose to have a negative in an attribute"
CREATION_SKILL_POINTS = 12
CREATION_SKILL_POINTS_PER_INTELLIGENCE = 3
CREATION_FREE_VOCATION_POINTS = 1  # Book (vocations.tex): 1 free skill point for the first vocation
# Book (disabling_characteristics.tex): a chosen disabling characteristic gives 1 skill point, a
# rolled one 2, for the first two only.
CREATION_DISABILITY_POINTS: dict[str, int] = {"chosen": 1, "rolled": 2}
CREATION_DISABILITIES_COUNTED = 2


NO_VOCATION_WARNING = "No vocation yet; the creation rules give every character at least one."


def creation_warnings(*, core_skill_ratings: Iterable[int], vocations: int) -> list[str]:
    """Book creation rules as soft checks: what a GM may want to look at, never a refusal."""
    warnings = []
    negatives = sum(1 for rating in core_skill_ratings if rating < 0)
    if negatives > CREATION_NEGATIVE_SKILLS_MAX:
        warnings.append(
            f"{negatives} core skills are at −1; the creation rules allow "
            f"{CREATION_NEGATIVE_SKILLS_MAX}."
        )
    if vocations < CREATION_VOCATIONS_MIN:
        warnings.append(NO_VOCATION_WARNING)
    return warnings


def creation_skill_points(
    *, intelligence: int, disabilities: Iterable[str] = ()
) -> tuple[int, list[str]]:
    """The skill points a Fast Play character has to spend (the first vocation's free point
    apart) and where they come from: 12, 3 per point of Intelligence, and 1 or 2 per disabling
    characteristic (the first two)."""
    allowed = tuple(CREATION_DISABILITY_POINTS)
    taken = [check_choice(how, name="Taken", choices=allowed) for how in disabilities]
    from_intelligence = CREATION_SKILL_POINTS_PER_INTELLIGENCE * max(0, intelligence)
    from_disabilities = sum(
        CREATION_DISABILITY_POINTS[how] for how in taken[:CREATION_DISABILITIES_COUNTED]
    )
    parts = [str(CREATION_SKILL_POINTS)]
    if from_intelligence:
        parts.append(f"{from_intelligence} for Intelligence {intelligence}")
    if from_disabilities:
        parts.append(f"{from_disabilities} for disabling characteristics")
    return CREATION_SKILL_POINTS + from_intelligence + from_disabilities, parts


def creation_check(
    *,
    attributes: Mapping[str, int],
    core_skills: Sequence[int],
    vocations: Sequence[tuple[int, Sequence[int]]] = (),
    disabilities: Sequence[str] = (),
) -> CreationCheck:
    """A Fast Play build against the Book's creation rules.

    ``attributes`` maps Strength, Reflex and Intelligence to their points; ``vocations`` are
    (rating, sub-skill ratings) in sheet order, the first one taking the free point;
    ``disabilities`` say how each disabling characteristic was taken ("chosen" or "rolled").
    Problems name where they are: "attributes", "skills", or "vocation-<i>-<j>" for the j-th
    sub-skill of the i-th vocation.
    """
    found: list[tuple[str, str]] = []  # (where, message)
    attribute_spent = sum(max(0, points) for points in attributes.values())
    if any(points < CREATION_ATTRIBUTE_MIN for points in attributes.values()):
        found.append(("attributes", "An attribute can't start negative: only a disabling "
                      "characteristic or an injury lowers one, later."))  # fmt: skip
    if attribute_spent > CREATION_ATTRIBUTE_POINTS:
        found.append(("attributes", f"That is {attribute_spent} attribute points; a new "
                      f"character has {CREATION_ATTRIBUTE_POINTS}."))  # fmt: skip
    skill_total, parts = creation_skill_points(
        intelligence=attributes.get("Intelligence", 0), disabilities=disabilities
    )
    free = min(CREATION_FREE_VOCATION_POINTS, max(0, vocations[0][0])) if vocations else 0
    skill_spent = sum(core_skills) + sum(rating + sum(subs) for rating, subs in vocations) - free
    sources = f" ({' + '.join(parts)})" if len(parts) > 1 else ""
    if skill_spent > skill_total:
        found.append(("skills", f"That is {skill_spent} skill points; you have {skill_total}"
                      f"{sources}."))  # fmt: skip
    negatives = sum(1 for rating in core_skills if rating < 0)
    if negatives > CREATION_NEGATIVE_SKILLS_MAX:
        found.append(("skills", f"Only {CREATION_NEGATIVE_SKILLS_MAX} core skill may be −1 at "
                      f"creation; {negatives} are."))  # fmt: skip
    found += [
        (f"vocation-{i}-{j}", f"A sub-skill cannot be above its vocation ({rating}).")
        for i, (rating, subs) in enumerate(vocations)
        for j, sub in enumerate(subs)
        if sub > rating
    ]
    problems = [Problem(where, message) for where, message in found]
    return CreationCheck(
        budgets=(
            Budget("Attribute points", attribute_spent, CREATION_ATTRIBUTE_POINTS),
            Budget(
                "Skill points",
                skill_spent,
                skill_total,
                (f"From {' + '.join(parts)}. " if len(parts) > 1 else "")
                + "Your first vocation's first point is free.",
            ),
        ),
        problems=tuple(problems),
        # A second −1 is a problem here, not a warning too; a missing vocation only a warning.
        warnings=(NO_VOCATION_WARNING,) if len(vocations) < CREATION_VOCATIONS_MIN else (),
    )
