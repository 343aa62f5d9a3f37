"""Only the character's owner or the GM rolls or follows up; every member reads the log and the
permalinks; observers never roll; non-members get 404 everywhere, hidden NPCs stay hidden."""

import pytest
from django.urls import reverse

from log.models import RollEntry
from tests.rolls.helpers import athletics, follow_url, panel_url, roll_url

# Repeatable dice for the party's rolls (tests/rolls/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]

ROLLERS = {
    "anonymous": "login",
    "nonmember": 404,
    "observer": 403,
    "other_player": 403,
    "player": "ok",
    "gm": "ok",
}
READERS = {
    "anonymous": "login",
    "nonmember": 404,
    "observer": 200,
    "other_player": 200,
    "player": 200,
    "gm": 200,
}


def login(client, party, actor):
    if actor != "anonymous":
        client.force_login(party.user(actor))


def expect(response, expected, ok_status):
    if expected == "login":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == (ok_status if expected == "ok" else expected)


@pytest.mark.parametrize("actor", ROLLERS)
def test_panel_odds_and_roll(client, party, actor):
    pc, skill = party.pc, athletics(party.pc)
    login(client, party, actor)
    expect(client.get(panel_url(pc, "cogent-skill", skill)), ROLLERS[actor], 200)
    expect(
        client.get(reverse("roll_odds", args=[pc.pk, "cogent-skill", skill.pk])),
        ROLLERS[actor],
        200,
    )
    before = RollEntry.objects.count()
    response = client.post(
        roll_url(pc, "cogent-skill", skill), {"challenge_level": 1, "extra_penalty": 0}
    )
    expect(response, ROLLERS[actor], 302)
    assert RollEntry.objects.count() == before + (1 if ROLLERS[actor] == "ok" else 0)


@pytest.fixture
def rolled(client, party):
    """The player has rolled their character once; the client is logged out again."""
    pc, skill = party.pc, athletics(party.pc)
    client.force_login(party.player)
    client.post(roll_url(pc, "cogent-skill", skill), {"challenge_level": 1, "extra_penalty": 0})
    client.logout()
    return RollEntry.objects.get()


@pytest.mark.parametrize("actor", ROLLERS)
def test_follow_up(client, party, rolled, actor):
    login(client, party, actor)
    # Destiny after a player character's roll is its player's to spend, not the GM's (RULES.md
    # §8, Seed 002); tests/rolls/test_who_chooses.py has the rest.
    expected = 403 if actor == "gm" else ROLLERS[actor]
    expect(client.post(follow_url(rolled, "destiny")), expected, 302)


@pytest.mark.parametrize("actor", READERS)
def test_log_and_permalink(client, party, rolled, actor):
    pc = party.pc
    entry = rolled
    login(client, party, actor)
    expect(client.get(reverse("campaign_log", args=[pc.campaign_id])), READERS[actor], 200)
    expect(client.get(entry.get_absolute_url()), READERS[actor], 200)


def test_roll_buttons_only_for_those_who_may_roll(client, party):
    pc = party.pc
    for actor, shown in (
        ("player", True),
        ("gm", True),
        ("other_player", False),
        ("observer", False),
    ):
        client.force_login(party.user(actor))
        page = client.get(pc.get_absolute_url()).content.decode()
        assert ('class="button roll-button"' in page) is shown, actor
        assert "success" in page  # the odds show for everyone who reads the sheet


def test_hidden_npc_rolls_only_for_the_gm(client, party):
    npc = party.hidden_npc
    skill = npc.cogent.skills.first()
    client.force_login(party.player)
    assert client.get(panel_url(npc, "cogent-skill", skill)).status_code == 404
    client.force_login(party.gm)
    assert client.get(panel_url(npc, "cogent-skill", skill)).status_code == 200


def test_a_row_of_another_character_is_a_404(client, party):
    pc, npc = party.pc, party.hidden_npc
    client.force_login(party.gm)
    foreign = npc.cogent.skills.first()
    assert client.get(panel_url(pc, "cogent-skill", foreign)).status_code == 404
    assert (
        client.get(reverse("roll_panel", args=[pc.pk, "dad6-skill", foreign.pk])).status_code == 404
    )
    assert client.get(reverse("roll_panel", args=[pc.pk, "nonsense", 1])).status_code == 404
    assert client.post(reverse("roll_follow_up", args=[1, "nonsense"])).status_code == 404


def test_unknown_follow_up_is_a_404(client, party):
    pc, skill = party.pc, athletics(party.pc)
    client.force_login(party.player)
    client.post(roll_url(pc, "cogent-skill", skill), {"challenge_level": 1, "extra_penalty": 0})
    assert client.post(follow_url(RollEntry.objects.get(), "explode")).status_code == 404
