"""Character creation in the engine: each system's budgets, problems and warnings."""

import pytest

from rules import cogent_creation, cold_stars, dad6
from rules.cold_stars import SkillChoice

ZERO_SKILLS = [0] * 15


def cogent_check(**kwargs):
    build = {
        "attributes": {"Strength": 0, "Reflex": 0, "Intelligence": 0},
        "core_skills": ZERO_SKILLS,
        "vocations": [(1, [])],
    }
    return cogent_creation.creation_check(**(build | kwargs))


def test_cogent_fast_play_budgets_are_two_attribute_points_and_twelve_skill_points():
    check = cogent_check(attributes={"Strength": 1, "Reflex": 0, "Intelligence": 0})
    attributes, skills = check.budgets
    assert attributes.text == "Attribute points: 1 of 2 left"
    # The first vocation's first point is free.
    assert (skills.spent, skills.total, skills.text) == (0, 12, "Skill points: 12 of 12 left")
    assert check.problems == () and check.warnings == () and not check.counts_only


def test_cogent_intelligence_and_disabling_characteristics_add_skill_points():
    check = cogent_check(
        attributes={"Strength": 0, "Reflex": 0, "Intelligence": 2},
        disabilities=["chosen", "rolled", "rolled"],  # only the first two count
    )
    skills = check.budgets[1]
    assert skills.total == 12 + 6 + 1 + 2
    assert skills.detail.startswith("From 12 + 6 for Intelligence 2 + 3 for disabling")


def test_cogent_a_minus_one_skill_pays_for_a_point_elsewhere_but_only_once():
    one = cogent_check(core_skills=[-1, 4, 4, 4, 1] + [0] * 10)
    assert one.budgets[1].text == "Skill points: 0 of 12 left" and one.problems == ()
    two = cogent_check(core_skills=[-1, -1] + [0] * 13)
    assert [p.message for p in two.problems] == ["Only 1 core skill may be −1 at creation; 2 are."]
    assert two.warnings == ()  # refused once, not warned about as well


def test_cogent_over_budget_builds_are_problems_where_they_are():
    check = cogent_check(
        attributes={"Strength": 2, "Reflex": 1, "Intelligence": 0},
        core_skills=[4, 4, 4, 1] + [0] * 11,
        vocations=[(2, [3, 1])],
    )
    assert [(p.where, p.message) for p in check.problems] == [
        ("attributes", "That is 3 attribute points; a new character has 2."),
        ("skills", "That is 18 skill points; you have 12."),
        ("vocation-0-0", "A sub-skill cannot be above its vocation (2)."),
    ]
    assert check.budgets[0].text == "Attribute points: 1 over — 3 spent of 2"


def test_cogent_negative_attributes_are_not_a_choice_and_no_vocation_is_a_warning():
    check = cogent_check(attributes={"Strength": -1, "Reflex": 0, "Intelligence": 0}, vocations=[])
    assert check.problems[0].where == "attributes"
    assert check.warnings == (
        "No vocation yet; the creation rules give every character at least one.",
    )


def test_cogent_an_unknown_way_of_taking_a_disability_is_refused():
    with pytest.raises(ValueError, match="Taken must be one of chosen, rolled"):
        cogent_check(disabilities=["bought"])


def test_dad6_counts_skills_without_a_budget_and_names_the_class_skill_competence():
    check = dad6.creation_check(level=4, class_skills=["Climb", "Hide"], other_skills=["familiar"])
    assert [b.text for b in check.budgets] == [
        "Class skills: 2",
        "Other skills: 1",
    ]
    assert check.problems == () and check.warnings == () and check.counts_only
    assert "Class skills at level 4 are Expert (+2 per die)" in check.notes[1]
    empty = dad6.creation_check(level=1, class_skills=[], other_skills=[])
    assert empty.warnings and empty.notes[0].startswith("Every roll starts with 1 die")
    with pytest.raises(ValueError, match="level"):
        dad6.creation_check(level=0, class_skills=[], other_skills=[])
    with pytest.raises(ValueError, match="Competence must be one of"):
        dad6.creation_check(level=1, class_skills=[], other_skills=["legendary"])


def test_cold_stars_domain_skills_from_three_need_a_domain():
    abilities = dict.fromkeys(cold_stars.ABILITIES, 2)
    skills = [
        SkillChoice("piloting", "Piloting", 3, domain_skill=True),
        SkillChoice("melee", "Melee", 3, domain_skill=True, domains=1),
        SkillChoice("repair", "Repair", 4),
        SkillChoice("firearms", "Firearms", None, domain_skill=True, domains=1),
        SkillChoice("stealth", "Stealth", None),
    ]
    check = cold_stars.creation_check(abilities=abilities, skills=skills)
    assert [p.where for p in check.problems] == ["piloting", "firearms"]
    assert [b.text for b in check.budgets] == [
        "Ability points: 12",
        "Trained skills: 3",
        "Skill ranks: 10",
    ]


def test_cold_stars_rare_ratings_are_warnings_not_problems():
    abilities = dict.fromkeys(cold_stars.ABILITIES, 1) | {"Will": 5}
    check = cold_stars.creation_check(
        abilities=abilities, skills=[SkillChoice("repair", "Repair", 5)]
    )
    assert check.problems == ()
    assert len(check.warnings) == 2 and check.warnings[0].startswith("Will 5 is rare")
    with pytest.raises(ValueError, match="Will must be from 1 to 5"):
        cold_stars.creation_check(abilities={"Will": 6}, skills=[])
