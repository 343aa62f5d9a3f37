"""Who chooses (RULES.md §8, Seed 002: "the rolling player may apply", "the player chooses"): on a
player character's roll only its player makes the step-4 and step-6 choices, the all-blank
Costly-or-Fail choice, the skip, and the spends after the roll; the GM makes them for NPCs. The GM
sees the controls disabled ("Waiting for Ada's player") and a GM who posts anyway is refused
through the pages, the API and Discord (tests/discord/test_buttons.py), with nothing written.
Decisions: the GM chooses for a player character whose player has left, and on a roll its player
cannot read."""

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry, Visibility
from rolls.models import Contest, ContestState
from rules import cold_stars
from sheets.models import ApiToken, Scope, System
from tests.rolls.helpers import follow_url, latest, roll_url, seed_where

pytestmark = pytest.mark.django_db

WAITING = "Waiting for Ada&#x27;s player"  # as a page escapes it
WAITING_TEXT = "Waiting for Ada's player"


@pytest.fixture
def system():
    return System.COLD_STARS


def _athletics(character):
    """Strength 2, Athletics trained 2: an Ability + Skill pool (2 Ability, 2 Skill dice)."""
    sheet = character.cold_stars
    sheet.strength = 2
    sheet.momentum_max, sheet.momentum = 5, 3
    sheet.willpower_max, sheet.willpower = 3, 3
    sheet.save()
    skill = sheet.skills.get(name="Athletics")
    skill.trained, skill.rating = True, 2
    skill.save()
    return skill


def _data(**options):
    return {"ability": "strength", "risk": 0, "modification": "none"} | options


@pytest.fixture
def blank(settings):
    """The dice of the next roll come up all blank: the Costly-or-Fail choice."""
    pool = cold_stars.Pool(2, 2, 0)
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: cold_stars.resolve(faces) == "choice", lambda rng: cold_stars.roll(pool, rng)
    )


def _rolled(client, party, character, who, **options):
    client.force_login(getattr(party, who))
    skill = _athletics(character)
    response = client.post(roll_url(character, "cold-stars-skill", skill), _data(**options))
    assert response.status_code == 302, response.content[:600]
    return latest()


def _resources(character):
    character.cold_stars.refresh_from_db()
    return character.cold_stars.momentum, character.cold_stars.willpower


def api(user):
    _, raw = ApiToken.issue(user, name="test", scope=Scope.ROLL)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


# --- the all-blank choice and Correct, on the pages -------------------------------------------


@pytest.mark.usefixtures("blank")
def test_the_gm_may_not_choose_for_a_player_character(client, party):
    roll = _rolled(client, party, party.pc, "player")
    assert roll.outcome == "choice"
    client.force_login(party.gm)
    page = client.get(roll.get_absolute_url()).content.decode()
    assert WAITING in page and 'id="follow-up-choice-failure" disabled' in page
    refused = client.post(follow_url(roll, "choice"), {"value": "failure"})
    assert refused.status_code == 403 and WAITING in refused.content.decode()
    assert RollEntry.objects.count() == 1
    # Its player chooses, and the log says so truly.
    client.force_login(party.player)
    page = client.get(roll.get_absolute_url()).content.decode()
    assert WAITING not in page
    assert client.post(follow_url(roll, "choice"), {"value": "failure"}).status_code == 302
    assert latest().detail == "The player took a Failure for the all-blank roll."


@pytest.mark.usefixtures("blank")
def test_the_gm_chooses_for_an_npc_and_the_log_says_the_gm(client, party):
    roll = _rolled(client, party, party.npc, "gm")
    response = client.post(follow_url(roll, "choice"), {"value": "costly_success"})
    assert response.status_code == 302
    choice = latest()
    assert (choice.kind, choice.outcome) == (Kind.CHOICE, "costly_success")
    assert choice.detail == "The GM took a Costly success for the all-blank roll."


def test_the_gm_may_not_correct_a_player_characters_roll(client, party):
    roll = _rolled(client, party, party.pc, "gm")  # the GM may still roll it, plain
    client.force_login(party.gm)
    refused = client.post(follow_url(roll, "correct"))
    assert refused.status_code == 403 and WAITING in refused.content.decode()
    assert RollEntry.objects.count() == 1 and _resources(party.pc) == (3, 3)
    client.force_login(party.player)
    assert client.post(follow_url(roll, "correct")).status_code == 302
    assert _resources(party.pc) == (2, 3)


@pytest.mark.usefixtures("blank")
def test_the_gm_chooses_when_the_player_has_left(client, party):
    """Decision: a player character whose player left the campaign doesn't wait for ever."""
    roll = _rolled(client, party, party.pc, "player")
    party.campaign.memberships.filter(user=party.player).delete()
    client.force_login(party.gm)
    assert client.post(follow_url(roll, "choice"), {"value": "failure"}).status_code == 302
    assert latest().detail == "The GM took a Failure for the all-blank roll."


@pytest.mark.usefixtures("blank")
def test_the_gm_chooses_on_a_roll_its_player_cannot_read(client, party):
    """Decision: a blind roll's result is the GM's alone, and so is its choice."""
    roll = _rolled(client, party, party.pc, "player", visibility=Visibility.BLIND)
    client.force_login(party.gm)
    assert client.post(follow_url(roll, "choice"), {"value": "failure"}).status_code == 302


# --- step 4 and the skip, on the panel ----------------------------------------------------------


def test_the_gm_may_not_press_brace_or_skip_for_a_player_character(client, party):
    skill = _athletics(party.pc)
    client.force_login(party.gm)
    panel = client.get(
        reverse("roll_panel", args=[party.pc.pk, "cold-stars-skill", skill.pk])
    ).content.decode()
    assert WAITING in panel and 'value="press" id="roll_modification_press" disabled' in panel
    assert "Skip the roll" not in panel
    url = roll_url(party.pc, "cold-stars-skill", skill)
    pressed = client.post(url, _data(modification="press"))
    assert pressed.status_code == 400 and WAITING in pressed.content.decode()
    skipped = client.post(url, _data(action="skip"))
    assert skipped.status_code == 403 and WAITING in skipped.content.decode()
    assert RollEntry.objects.count() == 0 and _resources(party.pc) == (3, 3)
    # The NPC's are the GM's.
    npc_skill = _athletics(party.npc)
    response = client.post(
        roll_url(party.npc, "cold-stars-skill", npc_skill), _data(modification="press")
    )
    assert response.status_code == 302 and _resources(party.npc) == (4, 3)


# --- the API ------------------------------------------------------------------------------------


@pytest.mark.usefixtures("blank")
def test_the_api_refuses_the_gm_with_a_readable_403(client, party):
    roll = _rolled(client, party, party.pc, "player")
    gm = api(party.gm)
    entry_id = gm.get(reverse("api:log", args=[party.campaign.pk])).json()["entries"][0]["id"]
    offers = gm.get(reverse("api:entry", args=[entry_id])).json()["follow_ups"]
    assert offers and all(WAITING_TEXT in offer["problem"] for offer in offers)
    url = reverse("api:follow_up", args=[entry_id, "choice"])
    refused = gm.post(url, {"value": "failure"}, content_type="application/json")
    assert refused.status_code == 403 and WAITING_TEXT in refused.json()["detail"]
    assert RollEntry.objects.count() == 1
    skill = _athletics(party.pc)
    pressed = gm.post(
        reverse("api:roll", args=[party.pc.pk, "cold-stars-skill", skill.pk]),
        _data(modification="press"),
        content_type="application/json",
    )
    assert pressed.status_code == 422 and WAITING_TEXT in str(pressed.json())
    skipped = gm.post(
        reverse("api:roll", args=[party.pc.pk, "cold-stars-skill", skill.pk]),
        _data(action="skip"),
        content_type="application/json",
    )
    assert skipped.status_code == 422 and "Choose one of: roll." in str(skipped.json())
    player = api(party.player)
    made = player.post(url, {"value": "failure"}, content_type="application/json")
    assert made.status_code == 201 and roll.follow_ups.count() == 1


# --- contests -----------------------------------------------------------------------------------


def test_the_gm_may_not_keep_or_correct_a_player_characters_contest_roll(client, party):
    skill = _athletics(party.pc)
    _athletics(party.npc)
    contest = Contest.objects.create(
        campaign=party.campaign,
        created_by=party.gm,
        kind="cold_stars_active",
        character_a=party.pc,
        character_b=party.npc,
        name_a=party.pc.name,
        name_b=party.npc.name,
        skill_a=skill.name,
        skill_b=skill.name,
    )
    client.force_login(party.gm)
    side = reverse("contest_side", args=[contest.pk, "a", "roll"])
    willpower = client.post(side, {"willpower": 1})
    assert willpower.status_code == 403 and RollEntry.objects.count() == 0
    assert client.post(side, {"willpower": 0}).status_code == 302  # a plain roll: the GM may
    for action in ("keep", "correct"):
        url = reverse("contest_side", args=[contest.pk, "a", action])
        assert client.post(url).status_code == 403
    contest.refresh_from_db()
    assert not contest.settled_a and _resources(party.pc) == (3, 3)
    card = client.get(reverse("campaign_dashboard", args=[party.campaign.pk])).content.decode()
    assert WAITING in card
    client.force_login(party.player)
    assert client.post(reverse("contest_side", args=[contest.pk, "a", "keep"])).status_code == 302
    contest.refresh_from_db()
    assert contest.settled_a and contest.state == ContestState.OPEN
