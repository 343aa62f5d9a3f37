"""A roll's nonce is its idempotency key (docs/api.md, "Retrying a roll"): a request sent again
after its answer was lost — from the panel, as a plain form, through the API — finds the entry
the first one made, and never rolls a second time; the same nonce for another roll is refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from log.models import RollEntry, Visibility
from sheets.models import ApiToken, Scope, System
from tests.factories import CharacterFactory
from tests.rolls.helpers import athletics, follow_url, latest, perception, roll_url, token

# Committed for real, as the app runs: a plain roll's append is its own transaction, and a retry
# that clashes with the first is rolled back before the entry is looked up.
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("rulebook_athletics"),
]

NONCE = "retry-nonce-0001"
BODY = {"challenge_level": 2, "extra_penalty": 0, "visibility": Visibility.PUBLIC}


def api(user) -> Client:
    _, raw = ApiToken.issue(user, name="test", scope=Scope.ROLL)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def api_roll_url(party, skill=None):
    skill = skill or athletics(party.pc)
    return reverse("api:roll", args=[party.pc.pk, "cogent-skill", skill.pk])


def test_a_plain_form_sent_twice_rolls_once(client, party):
    client.force_login(party.player)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    first = client.post(url, BODY | {"nonce": NONCE})
    again = client.post(url, BODY | {"nonce": NONCE})
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert RollEntry.objects.count() == 1


def test_the_panel_s_retry_answers_the_roll_already_made(client, party):
    client.force_login(party.player)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    hx = {"HX-Request": "true"}
    first = client.post(url, BODY | {"nonce": NONCE}, headers=hx)
    entry = latest()
    again = client.post(url, BODY | {"nonce": NONCE}, headers=hx)
    assert first.status_code == again.status_code == 200
    assert f'id="result-{token(entry)}"' in again.content.decode()
    assert RollEntry.objects.count() == 1


def test_the_api_answers_a_retry_200_with_the_same_entry(party):
    player = api(party.player)
    url = api_roll_url(party)
    body = {"challenge_level": 2, "nonce": NONCE}
    first = player.post(url, body, content_type="application/json")
    again = player.post(url, body, content_type="application/json")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert RollEntry.objects.count() == 1


def test_the_idempotency_key_header_is_the_nonce(party):
    player = api(party.player)
    url = api_roll_url(party)
    headers = {"Idempotency-Key": "header-key-0001"}
    first = player.post(
        url, {"challenge_level": 2}, content_type="application/json", headers=headers
    )
    again = player.post(
        url, {"challenge_level": 2}, content_type="application/json", headers=headers
    )
    assert first.status_code == 201 and again.status_code == 200
    assert first.json()["proof"]["alpha"]["nonce"] == "header-key-0001"
    assert RollEntry.objects.count() == 1
    both = player.post(
        url,
        {"challenge_level": 2, "nonce": "another-nonce-1"},
        content_type="application/json",
        headers=headers,
    )
    assert both.status_code == 422 and "Idempotency-Key" in both.json()["detail"]
    bad = player.post(
        url,
        {"challenge_level": 2},
        content_type="application/json",
        headers={"Idempotency-Key": "x"},
    )
    assert bad.status_code in (409, 422) and "nonce" in bad.content.decode()
    assert RollEntry.objects.count() == 1


def test_the_same_nonce_for_another_roll_is_refused_and_writes_nothing(client, party):
    client.force_login(party.player)
    client.post(roll_url(party.pc, "cogent-skill", athletics(party.pc)), BODY | {"nonce": NONCE})
    other = client.post(
        roll_url(party.pc, "cogent-skill", perception(party.pc)), BODY | {"nonce": NONCE}
    )
    assert other.status_code == 409
    assert "already used for another roll" in other.content.decode()
    refused = api(party.player).post(
        api_roll_url(party, perception(party.pc)),
        {"challenge_level": 2, "nonce": NONCE},
        content_type="application/json",
    )
    assert refused.status_code == 409 and "already used" in refused.json()["detail"]
    assert RollEntry.objects.count() == 1


def test_each_roller_has_their_own_keys(client, party):
    """The key is per roller: the GM's roll with a player's nonce is a roll of its own."""
    client.force_login(party.player)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    client.post(url, BODY | {"nonce": NONCE})
    client.force_login(party.gm)
    client.post(url, BODY | {"nonce": NONCE})
    assert RollEntry.objects.count() == 2


def test_a_follow_up_with_dice_sent_twice_rolls_and_spends_once(client):
    """Cold Stars' Correct rolls again for a Momentum: its retry finds the re-roll."""
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.momentum_max, sheet.momentum = 5, 2
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    client.force_login(character.owner)
    body = {"ability": "strength", "risk": 0, "modification": "none"}
    client.post(roll_url(character, "cold-stars-skill", athletics), body)
    roll = latest()
    first = client.post(follow_url(roll, "correct"), {"nonce": NONCE})
    again = client.post(follow_url(roll, "correct"), {"nonce": NONCE})
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert RollEntry.objects.count() == 2
    character.cold_stars.refresh_from_db()
    assert character.cold_stars.momentum == 1
    replay = api(character.owner).post(
        reverse("api:follow_up", args=[token(roll), "correct"]),
        {"nonce": NONCE},
        content_type="application/json",
    )
    assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true"
    assert replay.json()["id"] == token(latest())
    # Another nonce is another follow-up: refused, as a second follow-up always was.
    refused = client.post(follow_url(roll, "correct"), {"nonce": "a-new-nonce-2"})
    assert refused.status_code == 409 and "already has a follow-up" in refused.content.decode()


def test_a_follow_up_without_dice_sent_twice_spends_once(client, party):
    """Destiny after rolls nothing, so it has no nonce to find: its retry is refused as every
    second follow-up of one entry is, and the point is spent once."""
    client.force_login(party.player)
    client.post(roll_url(party.pc, "cogent-skill", athletics(party.pc)), BODY)
    roll = latest()
    points = party.pc.cogent.destiny_points
    first = client.post(follow_url(roll, "destiny"), {"nonce": NONCE})
    again = client.post(follow_url(roll, "destiny"), {"nonce": NONCE})
    assert first.status_code == 302 and again.status_code == 409
    assert "already has a follow-up" in again.content.decode()
    assert RollEntry.objects.count() == 2
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.destiny_points == points - 1


def test_a_roll_that_spends_is_not_refused_on_its_retry(client, party):
    """A retry of a roll that spent destiny finds the roll, not "no destiny points left"."""
    party.pc.cogent.destiny_points = 1
    party.pc.cogent.save()
    client.force_login(party.player)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    body = BODY | {"nonce": NONCE, "destiny_before": "on"}
    first = client.post(url, body, headers={"HX-Request": "true"})
    again = client.post(url, body, headers={"HX-Request": "true"})
    assert first.status_code == again.status_code == 200, again.content.decode()
    assert RollEntry.objects.count() == 1
    party.pc.cogent.refresh_from_db()
    assert party.pc.cogent.destiny_points == 0
