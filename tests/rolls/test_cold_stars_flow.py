"""Cold Stars end to end: the seven steps through the HTTP client. Ability, Skill, Risk, domains,
one step-4 option with its resources, roll or skip, one Correct, and the player's choice."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.rolling.display import percent
from rules import cold_stars
from sheets.models import ApiToken, Scope, System
from tests.factories import CharacterFactory
from tests.rolls.helpers import (
    SEED,
    follow_url,
    latest,
    odds_url,
    roll_url,
    seed_where,
    token,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def pilot(client):
    """Agility 3, Athletics (Strength 2) trained 2, Piloting trained 3 in Small Craft; 1 Momentum, 2 Willpower."""
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.agility, sheet.strength = 3, 2
    sheet.momentum_max, sheet.momentum = 5, 1
    sheet.willpower_max, sheet.willpower = 3, 2
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 2
    athletics.save()
    piloting = sheet.skills.get(name="Piloting")
    piloting.domains.create(name="Small Craft")
    piloting.trained, piloting.rating = True, 3
    piloting.save()
    client.force_login(character.owner)
    return character, athletics, piloting


def data(**options):
    return {"ability": "strength", "risk": 0, "modification": "none"} | options


def sheet_of(character):
    character.cold_stars.refresh_from_db()
    return character.cold_stars


def test_panel_compares_every_step_4_choice(client, pilot):
    character, athletics, _ = pilot
    html = client.get(
        odds_url(character, "cold-stars-skill", athletics), data(risk=3)
    ).content.decode()
    # 2 Strength + Athletics 2 vs Risk 3 → 2 Ability + 1 Risk
    assert "2 Strength + Athletics trained 2, Risk 3 = 2 Ability + 1 Risk" in html
    assert "Brace needs 2 Momentum; you have 1." in html
    assert "Willpower can&#x27;t upgrade dice while the pool holds Risk dice." in html
    press = cold_stars.odds(cold_stars.Pool(2, 0, 2))
    assert percent(press["success"]) in html  # Press's own odds, side by side


def test_brace_refused_at_one_momentum_with_a_clear_message(client, pilot):
    character, athletics, _ = pilot
    response = client.post(
        roll_url(character, "cold-stars-skill", athletics), data(risk=3, modification="brace")
    )
    assert response.status_code == 400
    assert "Brace needs 2 Momentum; you have 1." in response.content.decode()
    assert not RollEntry.objects.exists() and sheet_of(character).momentum == 1


def test_brace_spends_two_momentum(client, pilot, seeded):
    character, athletics, _ = pilot
    sheet = sheet_of(character)
    sheet.momentum = 3
    sheet.save()
    client.post(
        roll_url(character, "cold-stars-skill", athletics), data(risk=3, modification="brace")
    )
    entry = latest()
    assert entry.pool["risk"] == 0 and entry.resource_changes == {"momentum": -2}
    assert sheet_of(character).momentum == 1


def test_after_a_brace_spent_the_last_momentum_the_choice_starts_again(client, pilot, seeded):
    """Issue 34, item 4: the panel after the roll has "No modification" chosen, and Brace, which
    the character can no longer pay for, is unavailable with its reason in grey, not an error."""
    character, athletics, _ = pilot
    sheet = sheet_of(character)
    sheet.momentum = 2
    sheet.save()
    response = client.post(
        roll_url(character, "cold-stars-skill", athletics),
        data(risk=3, modification="brace"),
        headers={"HX-Request": "true", "HX-Target": "roll-panel"},
    )
    html = response.content.decode()
    assert response.status_code == 200 and sheet_of(character).momentum == 0
    assert 'value="none" id="roll_modification_none" checked' in html
    assert 'value="brace" id="roll_modification_brace" disabled' in html
    assert '<span class="unavailable-why" id="roll_problem_brace">Brace needs 2 Momentum' in html
    assert "Fix the options above" not in html and "has-error" not in html
    assert 'class="problem"' not in html and 'role="alert"' not in html


def test_willpower_is_debited_per_die(client, pilot, seeded):
    character, athletics, _ = pilot
    response = client.post(
        roll_url(character, "cold-stars-skill", athletics), data(modification="willpower-2")
    )
    assert response.status_code == 302
    entry = latest()
    pool = cold_stars.Pool(0, 4, 0)
    faces = cold_stars.roll(pool, random.Random(SEED))
    assert entry.pool == {
        "ability": 0,
        "skill": 4,
        "risk": 0,
        "built": {"ability": 2, "skill": 2, "risk": 0},
    }
    assert [d["face"] for d in entry.faces] == list(faces.skill)
    assert entry.outcome == cold_stars.resolve(faces)
    assert entry.resource_changes == {"willpower": -2} and sheet_of(character).willpower == 0
    assert entry.odds_fraction == cold_stars.odds(pool)[entry.outcome]


def test_willpower_beyond_what_is_held_is_refused(client, pilot):
    character, _, piloting = pilot
    response = client.post(
        roll_url(character, "cold-stars-skill", piloting),
        data(ability="agility", domain="Small Craft", modification="willpower-3"),
    )
    assert response.status_code == 400 and "you have 2" in response.content.decode()
    assert sheet_of(character).willpower == 2 and not RollEntry.objects.exists()


def test_press_gains_momentum_and_adds_risk(client, pilot, seeded):
    character, athletics, _ = pilot
    client.post(roll_url(character, "cold-stars-skill", athletics), data(modification="press"))
    entry = latest()
    assert entry.pool["skill"] == 1 and entry.resource_changes == {"momentum": 1}
    assert sheet_of(character).momentum == 2


def test_domain_choice_caps_the_skill_outside_every_domain(client, pilot, seeded):
    character, _, piloting = pilot
    inside = client.get(
        odds_url(character, "cold-stars-skill", piloting),
        data(ability="agility", domain="Small Craft"),
    ).content.decode()
    outside = client.get(
        odds_url(character, "cold-stars-skill", piloting),
        data(ability="agility", domain="__outside__"),
    ).content.decode()
    assert "= 3 Ability + 3 Skill" in inside and "in domain Small Craft" in inside
    assert (
        "outside every domain (counts as at most 2)" in outside
        and "= 3 Ability + 2 Skill" in outside
    )


def test_correct_rerolls_once_for_one_momentum(client, pilot, seeded):
    character, athletics, _ = pilot
    client.post(roll_url(character, "cold-stars-skill", athletics), data(risk=1))
    roll = latest()
    response = client.post(follow_url(roll, "correct"))
    correct = latest()
    assert response.status_code == 302
    assert (correct.kind, correct.follows, correct.pool) == (Kind.CORRECT, roll, roll.pool)
    assert correct.resource_changes == {"momentum": -1} and sheet_of(character).momentum == 0
    sheet = sheet_of(character)
    sheet.momentum = 3
    sheet.save()
    again = client.post(follow_url(roll, "correct"))
    assert again.status_code == 409 and "already has a follow-up" in again.content.decode()
    chained = client.post(follow_url(correct, "correct"))
    assert chained.status_code == 409
    assert RollEntry.objects.count() == 2 and sheet_of(character).momentum == 3


def test_correct_without_momentum_is_refused(client, pilot, seeded):
    character, athletics, _ = pilot
    sheet = sheet_of(character)
    sheet.momentum = 0
    sheet.save()
    client.post(roll_url(character, "cold-stars-skill", athletics), data(risk=1))
    refused = client.post(follow_url(latest(), "correct"))
    assert (
        refused.status_code == 409
        and "Correct needs 1 Momentum; you have 0." in refused.content.decode()
    )
    assert RollEntry.objects.count() == 1


def test_correct_is_offered_after_a_success_too(client, pilot, settings):
    """Step 6 (Seed): "The rolling player may apply one post-roll modification", Correct among
    them, whatever the dice read: a Success may be re-rolled for a chance at a Critical Success.
    Only a contest limits it (before the verdict, tests/rolls/test_table_rules.py)."""
    character, athletics, _ = pilot
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "success",
        lambda rng: cold_stars.roll(cold_stars.Pool(2, 2, 0), rng),
    )
    client.post(roll_url(character, "cold-stars-skill", athletics), data())
    roll = latest()
    assert roll.outcome == "success"
    page = client.get(roll.get_absolute_url()).content.decode()
    # It says what it does to this roll, and after a success it is not the primary button
    # (issue 34, item 7): one mis-tap would spend Momentum and re-roll the success away.
    chances = cold_stars.correct_odds(cold_stars.Pool(2, 2, 0), "success")
    better, same, worse = (percent(chances[key]) for key in ("better", "same", "worse"))
    label = f"Correct (1 Momentum): {better} better, {same} same, {worse} worse than Success"
    assert f'id="follow-up-correct" class="secondary">{label}</button>' in page
    response = client.post(follow_url(roll, "correct"))
    assert response.status_code == 302
    assert (latest().kind, latest().follows) == (Kind.CORRECT, roll)


def test_an_all_blank_roll_asks_the_player_to_choose(client, pilot, settings):
    character, athletics, _ = pilot
    pool = cold_stars.Pool(2, 2, 0)
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "choice", lambda rng: cold_stars.roll(pool, rng)
    )
    client.post(roll_url(character, "cold-stars-skill", athletics), data())
    roll = latest()
    assert roll.outcome == "choice"
    page = client.get(roll.get_absolute_url()).content.decode()
    assert "Take a Costly Success" in page and "Take a Failure" in page
    response = client.post(follow_url(roll, "choice"), {"value": "costly_success"})
    choice = latest()
    assert response.status_code == 302
    assert (choice.kind, choice.follows, choice.outcome) == (Kind.CHOICE, roll, "costly_success")
    again = client.post(follow_url(roll, "choice"), {"value": "failure"})
    assert again.status_code == 409 and RollEntry.objects.count() == 2


def test_choice_is_only_for_a_choice_result(client, pilot, settings):
    character, athletics, _ = pilot
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "success",
        lambda rng: cold_stars.roll(cold_stars.Pool(2, 2, 0), rng),
    )
    client.post(roll_url(character, "cold-stars-skill", athletics), data())
    refused = client.post(follow_url(latest(), "choice"), {"value": "costly_success"})
    assert refused.status_code == 409 and RollEntry.objects.count() == 1


def test_skip_when_the_rules_allow(client, pilot):
    character, athletics, _ = pilot
    response = client.post(
        roll_url(character, "cold-stars-skill", athletics), data(risk=3, action="skip")
    )
    entry = latest()
    assert response.status_code == 302
    assert (entry.kind, entry.outcome, entry.faces) == (Kind.SKIP, "costly_success", [])
    panel = client.get(
        odds_url(character, "cold-stars-skill", athletics), data(risk=5)
    ).content.decode()
    assert "Skip the roll" not in panel and "skipping needs 2 or fewer" in panel
    refused = client.post(
        roll_url(character, "cold-stars-skill", athletics), data(risk=5, action="skip")
    )
    assert refused.status_code == 409 and RollEntry.objects.count() == 1


def test_the_chance_of_success_says_how_much_of_it_is_costly(client, pilot):
    """§8 "Odds wording": 3 Agility against Risk 4 with Athletics 2 is 3 Ability + 2 Risk, a
    74.0% chance of success of which 52.1% is a Costly success — the panel says both."""
    character, athletics, _ = pilot
    html = client.get(
        odds_url(character, "cold-stars-skill", athletics), data(ability="agility", risk=4)
    ).content.decode()
    assert "= 3 Ability + 2 Risk" in html
    assert "<span>Chance of success <strong>74.0%</strong>,</span>" in html
    assert "<span>including <strong>52.1%</strong> Costly success</span>" in html


def test_correct_gives_the_chances_of_better_same_and_worse_on_the_page_and_in_the_api(
    client, pilot, settings
):
    """Correct's offer against the Costly success it would replace (3 Ability + 2 Risk): better
    is a plain Success, 21.9%; the same, another Costly success, 52.1%; worse, 26.0% (a Failure
    or a Critical failure) — each exact from the engine, summing to 1."""
    character, athletics, _ = pilot
    pool = cold_stars.Pool(3, 0, 2)
    chances = cold_stars.correct_odds(pool, "costly_success")
    odds = cold_stars.odds(pool)
    assert chances == {
        "better": odds["success"],
        "same": odds["costly_success"],
        "worse": odds["failure"] + odds["critical_failure"],
    }
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "costly_success", lambda rng: cold_stars.roll(pool, rng)
    )
    client.post(roll_url(character, "cold-stars-skill", athletics), data(ability="agility", risk=4))
    roll = latest()
    assert roll.outcome == "costly_success"
    assert {"ability": 3, "skill": 0, "risk": 2}.items() <= roll.pool.items()
    label = "Correct (1 Momentum): 21.9% better, 52.1% same, 26.0% worse than Costly success"
    assert f">{label}</button>" in client.get(roll.get_absolute_url()).content.decode()
    _, raw = ApiToken.issue(character.owner, name="test", scope=Scope.ROLL)
    detail = Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get(
        reverse("api:entry", args=[token(roll)])
    )
    [correct] = [offer for offer in detail.json()["follow_ups"] if offer["action"] == "correct"]
    assert correct["label"] == label
