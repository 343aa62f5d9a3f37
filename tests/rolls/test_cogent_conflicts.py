"""Cogent conflicts at the GM table use everything a roll uses (rules at the table): destiny
before for each side, circumstances, victory levels only in combat; destiny after is refused."""

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.models import ContestState
from rules import cogent
from sheets.models import System
from tests.factories import CampaignFactory, CharacterFactory
from tests.rolls.helpers import (
    follow_url,
    gm_of,
    start_contest,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# Cogent conflicts at the GM table
# ---------------------------------------------------------------------------------------------


def conflict_side_url(contest, side):
    return reverse("contest_side", args=[contest.pk, side, "roll"])


@pytest.fixture
def duel(client):
    """Two soldiers with a Medium weapon skill, in a conflict the GM started on it."""
    campaign = CampaignFactory(system=System.COGENT)
    rob = CharacterFactory(campaign=campaign, name="Rob")
    ann = CharacterFactory(campaign=campaign, name="Ann")
    for character in (rob, ann):
        vocation = character.cogent.vocations.create(name="Soldier", attribute="strength", rating=2)
        vocation.subskills.create(slot=1, kind="combat", name="Medium", rating=2, weapon="Medium")
    contest = start_contest(
        client,
        campaign,
        kind="cogent_conflict",
        character_a=rob.pk,
        skill_a="Medium",
        character_b=ann.pk,
        skill_b="Medium",
    )
    return campaign, rob, ann, contest


def test_cogent_conflict_sides_spend_destiny_before_and_take_circumstances(client, settings, duel):
    _campaign, rob, ann, contest = duel
    client.force_login(rob.owner)
    prompt = client.get(rob.get_absolute_url()).content.decode()
    pool = rob.cogent.vocations.get().subskills.get().pool
    assert f"Pool {pool}d6 against {pool}d6" in prompt and 'name="destiny_before"' in prompt
    settings.ROLLS_RNG_SEED = 3
    data = {"destiny_before": "on", "circumstances": ["high_ground"], "equipment": 1}
    assert client.post(conflict_side_url(contest, "a"), data).status_code == 302
    roll = RollEntry.objects.get(contest=contest, character=rob)
    rob.cogent.refresh_from_db()
    assert rob.cogent.destiny_points == 2 and roll.resource_changes == {"destiny": -1}
    assert roll.pool["dice"] == len(roll.faces) == pool + 3
    assert roll.options["destiny_before"] and roll.options["circumstances"] == ["high_ground"]
    # Destiny before: 3–6 are wins, so the recorded wins are the engine's with destiny.
    faces = [die["face"] for die in roll.faces]
    assert roll.result["wins"] == cogent.resolve(faces, destiny_before=True).rolled_wins
    # A crafted request refuses what doesn't apply, with a reason and nothing written.
    client.force_login(ann.owner)
    refused = client.post(conflict_side_url(contest, "b"), {"equipment": 9})
    assert (
        refused.status_code == 409 and "Unequal equipment must be from" in refused.content.decode()
    )
    retired = client.post(conflict_side_url(contest, "b"), {"circumstances": ["dual_main"]})
    assert retired.status_code == 409 and "choose the secondary weapon" in retired.content.decode()
    assert RollEntry.objects.filter(contest=contest).count() == 1


def test_a_conflict_side_dual_wields_by_its_secondary_weapon(client, settings, duel):
    """RULES.md §8 (Book, combat_modifiers.tex): a small secondary weapon adds 2 dice, only with
    a point in the Small combat skill too; the roll keeps the primary weapon's skill and bonus."""
    _campaign, rob, _ann, contest = duel
    client.force_login(rob.owner)
    prompt = client.get(rob.get_absolute_url()).content.decode()
    assert 'name="secondary_weapon"' in prompt and "Small (+2)" in prompt
    pool = rob.cogent.vocations.get().subskills.get().pool
    refused = client.post(conflict_side_url(contest, "a"), {"secondary_weapon": "Small"})
    assert refused.status_code == 409
    assert "point in the Small combat skill" in refused.content.decode()
    assert not RollEntry.objects.filter(contest=contest).exists()
    rob.cogent.vocations.get().subskills.create(slot=2, kind="combat", name="Small", rating=1)
    settings.ROLLS_RNG_SEED = 3
    assert client.post(conflict_side_url(contest, "a"), {"secondary_weapon": "Small"}).status_code
    roll = RollEntry.objects.get(contest=contest, character=rob)
    assert roll.pool["dice"] == len(roll.faces) == pool + 2
    assert roll.options["secondary_weapon"] == "Small"
    assert "+ 2 small secondary weapon" in roll.breakdown and "+ 1 Medium" in roll.breakdown


def test_cogent_destiny_after_is_refused_on_a_conflict_roll_with_a_reason(client, settings, duel):
    _campaign, rob, _ann, contest = duel
    client.force_login(rob.owner)
    settings.ROLLS_RNG_SEED = 5
    client.post(conflict_side_url(contest, "a"))
    roll = RollEntry.objects.get(contest=contest, character=rob)
    refused = client.post(follow_url(roll, "destiny"))
    assert refused.status_code == 409
    assert "Destiny after the roll isn&#x27;t used in a conflict" in refused.content.decode()
    # RULES.md §8: the refusal says it is our Decision, against the Book, and why.
    assert "our Decision" in refused.content.decode()
    assert "answer each other without end" in refused.content.decode()
    rob.cogent.refresh_from_db()
    assert rob.cogent.destiny_points == 3 and RollEntry.objects.count() == 1


def _decide(client, settings, contest, a_data=None, b_data=None):
    """Roll both sides with seeds until a round is decided; return the verdict."""
    for seed in range(1, 200):
        for side, data in (("a", a_data or {}), ("b", b_data or {})):
            character = contest.character(side)
            client.force_login(character.owner)
            settings.ROLLS_RNG_SEED = seed * 2 + (side == "b")
            client.post(conflict_side_url(contest, side), data)
        contest.refresh_from_db()
        if contest.state == ContestState.DECIDED:
            return RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)
    raise AssertionError("never decided")  # pragma: no cover


def test_cogent_combat_conflict_reports_victory_levels(client, settings, duel):
    _campaign, _rob, _ann, contest = duel
    verdict = _decide(client, settings, contest)
    wins_a, wins_b = verdict.result["wins_a"], verdict.result["wins_b"]
    assert verdict.result["victory_levels"] == abs(wins_a - wins_b)
    assert "victory level" in verdict.outcome_label


def test_cogent_defence_roll_scores_no_victory_levels(client, settings, duel):
    campaign, rob, ann, contest = duel
    defence = {"circumstances": ["defence"]}
    for _ in range(20):
        verdict = _decide(client, settings, contest, b_data=defence)
        if verdict.result["wins_b"] > verdict.result["wins_a"]:
            break
        client.force_login(gm_of(campaign))
        contest = start_contest(
            client,
            campaign,
            kind="cogent_conflict",
            character_a=rob.pk,
            skill_a="Medium",
            character_b=ann.pk,
            skill_b="Medium",
        )
    assert verdict.result["victory_levels"] == 0 and not verdict.result["deathblow"]
    assert "a defence roll scores no victory levels" in verdict.outcome_label
