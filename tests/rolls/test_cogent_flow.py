"""Cogent end to end through the HTTP client: panel, odds, roll, destiny before and after, the
automatic pass, combat pools, reflexive injuries and every refusal."""

import random
from fractions import Fraction

import pytest

from log.models import Kind, RollEntry
from rolls.rolling.display import bands
from rules import cogent
from sheets.models import System
from tests.factories import CharacterFactory, CogentSubSkillFactory, CogentVocationFactory
from tests.rolls.helpers import (
    SEED,
    follow_url,
    latest,
    odds_url,
    panel_url,
    roll_url,
    token,
)

pytestmark = pytest.mark.django_db


def test_panel_shows_the_pool_in_words_and_exact_odds(client, rob):
    character, skill = rob
    page = client.get(panel_url(character, "cogent-skill", skill)).content.decode()
    assert "3 base + 2 Athletics + 1 Strength = 6d6 vs CL 1 (Common)" in page
    assert "98.4%" in page  # 1 − (1/2)^6 at CL 1
    odds = client.get(
        odds_url(character, "cogent-skill", skill), {"challenge_level": 3, "extra_penalty": 0}
    )
    html = odds.content.decode()
    assert odds.status_code == 200 and 'id="roll-odds"' in html and "<html" not in html
    assert "65.6%" in html and "21/32" in html  # docs/rules.md example


def test_roll_records_everything_and_spends_destiny_before(client, rob, seeded):
    character, skill = rob
    response = client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 3, "extra_penalty": 1, "destiny_before": "on", "reflexive": "on"},
    )
    entry = latest()
    assert response.status_code == 302 and response["Location"] == entry.get_absolute_url()
    faces = cogent.roll(5, random.Random(SEED))
    result = cogent.resolve(faces, challenge_level=3, destiny_before=True)
    assert [d["face"] for d in entry.faces] == list(faces)
    assert [d["reading"] == "win" for d in entry.faces] == [f >= 3 for f in faces]
    assert (entry.kind, entry.outcome, entry.seq, entry.follows) == (
        Kind.ROLL,
        result.outcome,
        1,
        None,
    )
    assert entry.breakdown.startswith(
        "3 base + 2 Athletics + 1 Strength − 1 extra penalty = 5d6 vs CL 3"
    )
    odds = cogent.odds(5, challenge_level=3, destiny_before=True)[result.outcome]
    assert entry.odds_fraction == odds
    assert entry.options["challenge_level"] == 3 and entry.options["reflexive"] is True
    assert entry.resource_changes == {"destiny": -1}
    character.cogent.refresh_from_db()
    assert character.cogent.destiny_points == 2
    page = client.get(entry.get_absolute_url()).content.decode()
    assert entry.outcome_label in page and "d6:" in page


def test_destiny_after_is_a_linked_entry_and_stops_at_three(client, rob, seeded):
    character, skill = rob
    client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 8, "extra_penalty": 0, "destiny_before": "on"},
    )
    roll = latest()
    first = client.post(follow_url(roll, "destiny"))
    destiny = latest()
    assert first.status_code == 302 and destiny.follows == roll and destiny.kind == Kind.DESTINY
    assert (
        destiny.result["wins"] == roll.result["wins"] + 1 and destiny.result["destiny_after"] == 1
    )
    assert destiny.resource_changes == {"destiny": -1}
    client.post(follow_url(destiny, "destiny"))
    second = latest()
    assert second.follows == destiny and second.result["destiny_after"] == 2
    character.cogent.refresh_from_db()
    assert character.cogent.destiny_points == 0
    refused = client.post(follow_url(second, "destiny"))
    assert refused.status_code == 409
    assert "already used 3 destiny points" in refused.content.decode()
    assert RollEntry.objects.count() == 3


def test_destiny_never_below_zero(client, rob, seeded):
    character, skill = rob
    character.cogent.destiny_points = 0
    character.cogent.save()
    panel = client.get(panel_url(character, "cogent-skill", skill)).content.decode()
    assert "You have no destiny points left." in panel
    # The checkbox is disabled, and a forged "on" is refused (tests/rolls/test_crafted_input.py).
    forged = client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 1, "extra_penalty": 0, "destiny_before": "on"},
    )
    assert forged.status_code == 400 and not RollEntry.objects.exists()
    client.post(
        roll_url(character, "cogent-skill", skill), {"challenge_level": 1, "extra_penalty": 0}
    )
    roll = latest()
    assert roll.options["destiny_before"] is False and roll.resource_changes == {}
    refused = client.post(follow_url(roll, "destiny"))
    assert refused.status_code == 409 and "no destiny points left" in refused.content.decode()
    assert RollEntry.objects.count() == 1
    character.cogent.refresh_from_db()
    assert character.cogent.destiny_points == 0


def test_a_second_follow_up_of_the_same_entry_is_refused(client, rob, seeded):
    character, skill = rob
    client.post(
        roll_url(character, "cogent-skill", skill), {"challenge_level": 1, "extra_penalty": 0}
    )
    roll = latest()
    client.post(follow_url(roll, "destiny"))
    again = client.post(follow_url(roll, "destiny"))
    assert again.status_code == 409 and "already has a follow-up" in again.content.decode()
    assert RollEntry.objects.count() == 2


def test_skill_speciality_offers_the_automatic_pass(client):
    character = CharacterFactory(campaign__system=System.COGENT)
    character.cogent.strength = 4
    character.cogent.save()
    skill = character.cogent.skills.get(name="Athletics")
    skill.rating = 4
    skill.save()
    client.force_login(character.owner)
    panel = client.get(panel_url(character, "cogent-skill", skill)).content.decode()
    assert "Take the automatic pass" in panel and "Roll anyway" in panel
    response = client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 2, "extra_penalty": 0, "action": "auto_pass"},
    )
    entry = latest()
    assert response.status_code == 302
    assert (entry.kind, entry.outcome, entry.faces, entry.odds) == (
        Kind.AUTO_PASS,
        "success",
        [],
        "1/1",
    )
    refused = client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 2, "extra_penalty": 0, "duress": "on", "action": "auto_pass"},
    )
    assert (
        refused.status_code == 409
        and "pass automatically; roll the dice" in refused.content.decode()
    )
    assert RollEntry.objects.count() == 1


def test_combat_pool_adds_all_attributes_and_the_weapon(client, seeded):
    vocation = CogentVocationFactory(name="Soldier", rating=2)
    sub = CogentSubSkillFactory(
        vocation=vocation, kind="combat", name="Medium", attribute="", rating=1
    )
    sheet = vocation.sheet
    sheet.strength, sheet.reflex = 1, 1
    sheet.save()
    client.force_login(sheet.character.owner)
    response = client.post(
        roll_url(sheet.character, "cogent-subskill", sub),
        {"challenge_level": 2, "extra_penalty": 0, "weapon": "Medium"},
    )
    assert response.status_code == 302
    entry = latest()
    assert entry.pool == {
        "dice": cogent.combat_pool_size(combat_skill=1, attributes=[1, 1, 0], weapon_bonus=1)
    }
    assert "+ 1 Strength + 1 Reflex + 1 Medium = 7d6" in entry.breakdown
    custom = client.post(
        roll_url(sheet.character, "cogent-subskill", sub),
        {"challenge_level": 2, "extra_penalty": 0, "weapon": "custom"},
    )
    assert custom.status_code == 400 and "Enter the weapon" in custom.content.decode()


def test_reflexive_failure_shows_the_injury_level(client, rob, seeded):
    character, skill = rob
    client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 8, "extra_penalty": 0, "reflexive": "on"},
    )
    entry = latest()
    assert entry.outcome in ("failure", "critical_failure")
    # CL − wins, at most 5: a deathblow (rules at the table).
    level = min(5, 8 - entry.result["wins"])
    assert f"Injury level {level} ({cogent.INJURY_LEVELS[level].lower()})" in entry.detail
    assert entry.result["injury_level"] == level


def test_bad_options_get_a_message_beside_the_field_and_write_nothing(client, rob):
    character, skill = rob
    response = client.post(
        roll_url(character, "cogent-skill", skill), {"challenge_level": 9, "extra_penalty": -1}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "roll_challenge_level_error" in html and "roll_extra_penalty_error" in html
    assert not RollEntry.objects.exists()


def test_htmx_roll_renders_the_result_in_place(client, rob, seeded):
    character, skill = rob
    response = client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 2, "extra_penalty": 0, "action": "roll"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    entry = latest()
    # Rolled from the panel's own page: the result alone, and nothing asks the page to re-fetch.
    assert response.status_code == 200 and "HX-Trigger" not in response
    assert 'hx-swap-oob="true"' not in html
    assert f'id="result-{token(entry)}"' in html and "<html" not in html
    assert 'id="roll-announce" hx-swap-oob="innerHTML"' in html
    assert "Spend destiny: +1 win" in html
    follow = client.post(follow_url(entry, "destiny"), headers={"HX-Request": "true"})
    follows = f'follows <a href="{entry.get_absolute_url()}">the roll before</a>'
    assert follow.status_code == 200 and follows in follow.content.decode()
    assert latest().follows == entry


def test_a_sure_thing_never_shows_odds_of_zero_percent():
    """No dice is a sure critical failure: the odds bar shows that one band at "100%" and leaves
    the impossible outcomes out instead of showing them at 0%."""
    entry_odds = cogent.odds(0)
    assert entry_odds == {
        "success": Fraction(0),
        "failure": Fraction(0),
        "critical_failure": Fraction(1),
    }
    assert [(band.code, band.percent, band.width) for band in bands(entry_odds)] == [
        ("critical_failure", "100%", 1000)
    ]
