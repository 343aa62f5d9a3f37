"""Rules from the seeds and Books whose only proof used to be a constant read by other tests: each
gets a test of its own here, named in docs/rules.md's rule table."""

import ast
import pathlib

import pytest

from rules import cogent, cold_stars, dad6

ENGINE = pathlib.Path(cogent.__file__).parent


def test_engine_imports_no_django():
    for module in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(name.split(".")[0] == "django" for name in names), module.name


def test_cogent_weapon_bonuses():
    assert cogent.WEAPON_BONUSES == {
        "Unarmed (ungloved)": -1,
        "Unarmed (gloved)": 0,
        "Small": 0,
        "Medium": 1,
        "Large": 2,
        "Reach": 3,
    }
    # Ranged modifiers are free-form: any integer bonus is accepted.
    assert cogent.combat_pool_size(combat_skill=1, attributes=(0, 0, 0), weapon_bonus=5) == 9


def test_cogent_sheet_ranges():
    assert (cogent.SKILL_MIN, cogent.SKILL_MAX) == (-1, 4)
    assert (cogent.VOCATION_MIN, cogent.VOCATION_MAX, cogent.MAX_SUB_SKILLS) == (0, 4, 4)
    assert (cogent.ATTRIBUTE_MIN, cogent.ATTRIBUTE_MAX) == (-1, 4)
    assert cogent.pool_size(skill=-1, attribute=-1) == 1
    for bad in ({"skill": 5, "attribute": 0}, {"skill": 0, "attribute": -2}):
        with pytest.raises(ValueError, match="out of range"):
            cogent.pool_size(**bad)
    with pytest.raises(ValueError, match="out of range"):
        cogent.combat_pool_size(combat_skill=-1, attributes=(0, 0, 0))


def test_cogent_destiny_limits():
    assert (cogent.DESTINY_WIN_FACE, cogent.DESTINY_COST, cogent.DESTINY_MAX) == (3, 1, 3)
    assert cogent.resolve((1,), destiny_after=3).wins == 3
    with pytest.raises(ValueError, match="at most 3 destiny points"):
        cogent.resolve((1,), destiny_after=4)


def test_dad6_competence_and_task_tables():
    assert dad6.COMPETENCE_BONUS == {
        "unfamiliar": 0,
        "familiar": 0,
        "trained": 1,
        "expert": 2,
        "master": 3,
    }
    assert dad6.TASK_MODIFIER == {"mundane": 0, "specialized": -1, "expert": -2}
    assert (dad6.LEVEL_MIN, dad6.LEVEL_MAX, dad6.EXTRA_DICE_MAX) == (1, 20, 30)
    assert dad6.pool_size(level=20, competence="familiar", extra_dice=30) == 50
    with pytest.raises(ValueError, match="out of range"):
        dad6.pool_size(level=1, competence="familiar", extra_dice=31)


def test_cold_stars_abilities_and_ranges():
    assert cold_stars.ABILITIES == (
        "Strength",
        "Agility",
        "Intellect",
        "Presence",
        "Perception",
        "Will",
    )
    assert (cold_stars.ABILITY_MIN, cold_stars.ABILITY_MAX) == (1, 5)
    assert (cold_stars.SKILL_MIN, cold_stars.SKILL_MAX) == (0, 5)
    assert (cold_stars.RISK_MIN, cold_stars.RISK_MAX) == (0, 6)
    with pytest.raises(ValueError, match="out of range"):
        cold_stars.build_pool(ability=6, skill=0, risk=0)
