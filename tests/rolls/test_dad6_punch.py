"""DAD6 puncher's chance through the pages (RULES.md §8, Book dad6_skill.md): the GM allows it (on
a roll the GM makes, or in a call), each natural six banks a boon, the scoring dice are re-rolled
as linked entries with their own proven dice until the player stops or loses everything; before
each re-roll the card shows the exact chance it scores. And a roll beyond the character says so
rather than "Almost!"."""

import html

import pytest
from django.urls import reverse

from log.models import LogHead, RollEntry
from log.models.keys import keys_by_id
from proofs import protocol
from rolls.models import RollCall
from rolls.rolling.punch import card_headline
from rules import dad6
from tests.rolls.helpers import (
    dad6_opposed,
    follow_url,
    gm_of,
    latest,
    panel_url,
    roll_url,
    seed_where,
)

pytestmark = pytest.mark.django_db

DEFAULTS = {
    "difficulty": 1,
    "task": "mundane",
    "tools": 0,
    "helpers": 0,
    "advantages": 0,
    "time": 0,
    "traded_boons": 0,
}
PUNCH = DEFAULTS | {"punchers_chance": "on"}


@pytest.fixture
def system():
    return "dad6"


def _skill(character, level=3, name="Surgery"):
    character.dad6.level = level
    character.dad6.save()
    skill, _ = character.dad6.skills.get_or_create(name=name, defaults={"competence": "familiar"})
    return skill


def _seed(dice, predicate):
    """A seed (ROLLS_RNG_SEED) whose ``dice`` d6 satisfy ``predicate``."""
    return seed_where(predicate, lambda rng: dad6.punch_roll(dice, rng))


def text(response) -> str:
    return html.unescape(response.content.decode())


def _follow(client, entry, value, headers=None, **extra):
    return client.post(follow_url(entry, "punch"), {"value": value} | extra, headers=headers)


def test_a_player_takes_no_punchers_chance_without_the_gm_s_leave(client, party):
    skill = _skill(party.pc)
    client.force_login(party.player)
    panel = text(client.get(panel_url(party.pc, "dad6-skill", skill)))
    assert 'name="punchers_chance"' in panel and "Only with the GM's leave" in panel
    refused = client.post(roll_url(party.pc, "dad6-skill", skill), PUNCH)
    assert refused.status_code == 400
    assert "hasn't allowed a puncher's chance" in text(refused)
    assert not RollEntry.objects.exists()


def test_the_gm_s_punchers_chance_banks_boons_re_rolls_them_and_stops(client, party, settings):
    skill = _skill(party.npc)  # 3 dice, Familiar: only natural sixes count anyway
    client.force_login(party.gm)
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: f.count(6) == 2)
    response = client.post(
        roll_url(party.npc, "dad6-skill", skill), PUNCH | {"difficulty": 3, "task": "expert"}
    )
    assert response.status_code == 302
    first = latest()
    assert first.options["punchers_chance"] is True
    assert (first.result["banked"], first.result["scored"], first.outcome) == (2, 2, "failure")
    assert [die["reading"] for die in first.faces].count("boon") == 2
    # The first throw's odds: at least 3 natural sixes on 3 dice, whatever the −2 per die.
    assert first.odds_table == {"success": "1/216", "failure": "215/216"}
    page = text(client.get(first.get_absolute_url()))
    # The exact chance that re-rolling the 2 scoring dice scores a boon: 1 − (5/6)² = 11/36.
    assert "Re-roll 2 dice: 11/36 (30.6%) chance of a boon; none loses all 2" in page
    assert "Stop: 2 boons count against Difficulty 3" in page
    assert "Buy a boon" not in page and "Extra boon" not in page

    settings.ROLLS_RNG_SEED = _seed(2, lambda f: f == (6, 3))
    assert _follow(client, first, "reroll").status_code == 302
    again = latest()
    assert (again.kind, again.follows, again.root) == ("punch", first, first)
    assert [die["face"] for die in again.faces] == [6, 3]
    assert (again.result["banked"], again.result["throws"], again.outcome) == (3, 2, "success")
    # A re-roll of 2 dice with 2 banked against 3 succeeds on at least one six: 11/36.
    assert again.odds == "11/36"
    page = text(client.get(again.get_absolute_url()))
    assert "Re-roll 1 die: 1/6 (16.7%) chance of a boon; none loses all 3" in page

    assert _follow(client, again, "stop").status_code == 302
    stopped = latest()
    assert (stopped.kind, stopped.follows, stopped.faces) == ("punch", again, [])
    assert (stopped.outcome, stopped.result["banked"], stopped.result["stopped"]) == (
        "success",
        3,
        True,
    )
    assert "3 boons of 3 needed counted: success" in stopped.detail
    # Over: nothing more follows, and a crafted request is refused with the reason.
    refused = _follow(client, stopped, "reroll")
    assert refused.status_code == 409 and "stopped" in text(refused)
    assert RollEntry.objects.count() == 3


def test_a_re_roll_without_a_boon_loses_every_banked_boon(client, party, settings):
    skill = _skill(party.npc)
    client.force_login(party.gm)
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: f.count(6) == 3)
    client.post(roll_url(party.npc, "dad6-skill", skill), PUNCH | {"difficulty": 2})
    first = latest()
    assert (first.result["banked"], first.outcome) == (3, "success")
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: 6 not in f)
    assert _follow(client, first, "reroll").status_code == 302
    lost = latest()
    assert (lost.outcome, lost.result["banked"], lost.result["lost"]) == ("failure", 0, True)
    assert "every banked boon is lost" in lost.detail
    page = text(client.get(lost.get_absolute_url()))
    assert "every banked boon is lost" in page and "Re-roll" not in page
    assert _follow(client, lost, "stop").status_code == 409


def test_a_call_allows_it_and_only_the_player_chooses(client, party, settings):
    skill = _skill(party.pc)
    client.force_login(party.gm)
    created = client.post(
        reverse("call_create", args=[party.campaign.pk]),
        {
            "call-characters": [party.pc.pk],
            "call-skill": "Surgery",
            "call-difficulty": 2,
            "call-note": "",
            "call-punchers_chance": "on",
        },
    )
    assert created.status_code in (200, 302)
    call = RollCall.objects.get()
    assert call.punchers_chance
    client.force_login(party.player)
    panel = text(client.get(panel_url(party.pc, "dad6-skill", skill), {"call": call.pk}))
    assert "a puncher's chance allowed" in panel and "Only with the GM's leave" not in panel
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: f.count(6) == 1)
    rolled = client.post(
        roll_url(party.pc, "dad6-skill", skill), PUNCH | {"difficulty": 2, "call": call.pk}
    )
    assert rolled.status_code == 302
    first = latest()
    assert first.call == call and first.result["banked"] == 1
    # The GM can't make Ada's player's choice: refused, nothing written.
    client.force_login(party.gm)
    refused = _follow(client, first, "reroll")
    assert refused.status_code == 403 and "Waiting for Ada's player" in text(refused)
    assert RollEntry.objects.count() == 1
    # Ada's player re-rolls, with htmx: the result comes back in the panel's place.
    client.force_login(party.player)
    settings.ROLLS_RNG_SEED = _seed(1, lambda f: f == (6,))
    answer = _follow(client, first, "reroll", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert "Re-roll 1 die: 1/6 (16.7%) chance of a boon; none loses all 2" in text(answer)
    assert latest().result["banked"] == 2


def test_the_gm_chooses_for_an_npc_and_the_player_cannot(client, party, settings):
    skill = _skill(party.npc)
    client.force_login(party.gm)
    settings.ROLLS_RNG_SEED = _seed(3, lambda f: 6 in f)
    client.post(roll_url(party.npc, "dad6-skill", skill), PUNCH)
    first = latest()
    client.force_login(party.player)  # Warden isn't Ada's player's to roll at all
    assert _follow(client, first, "stop").status_code == 403
    assert RollEntry.objects.count() == 1


def test_a_re_roll_s_dice_are_proven_like_every_roll_s(client, party, settings):
    skill = _skill(party.npc, level=20)  # 20 dice: a first throw without a six is rare
    client.force_login(party.gm)
    settings.ROLLS_RNG_SEED = None
    for _ in range(20):
        client.post(roll_url(party.npc, "dad6-skill", skill), PUNCH | {"nonce": "nonce-first-1"})
        first = latest()
        if first.result["scored"]:
            break
    scored = first.result["scored"]
    assert _follow(client, first, "reroll", nonce="nonce-again-2").status_code == 302
    again = latest()
    assert again.proof["alpha"]["pool"] == [["d6", scored, 6]]
    assert again.proof["alpha"]["nonce"] == "nonce-again-2"
    record = {"label": again.label, "faces": again.faces, "proof": again.proof}
    protocol.check_proof(record, keys_by_id())
    # The re-roll is the GM's second proven roll in the campaign: number 2 of the GM's count.
    head = LogHead.objects.get(campaign_id=again.campaign_id)
    secret = protocol.roller_secret(head.position_secret, again.campaign_id, party.gm.pk)
    assert protocol.counter_n(again.proof["alpha"], party.gm.pk, secret, 10) == 2


def test_a_punchers_chance_trades_no_dice_and_keeps_rolled_forward_boons(client, party, settings):
    skill = _skill(party.npc, level=9)
    client.force_login(party.gm)
    refused = client.post(roll_url(party.npc, "dad6-skill", skill), PUNCH | {"traded_boons": 1})
    assert refused.status_code == 400 and "trade no dice" in text(refused)
    assert not RollEntry.objects.exists()
    sheet = party.npc.dad6
    sheet.forward_boons = 2
    sheet.save()
    settings.ROLLS_RNG_SEED = 1
    assert client.post(roll_url(party.npc, "dad6-skill", skill), PUNCH).status_code == 302
    entry = latest()
    assert entry.options["forward_boons"] == 0 and entry.resource_changes == {}
    sheet.refresh_from_db()
    assert sheet.forward_boons == 2  # kept for a normal roll
    assert entry.result["banked"] == [d["face"] for d in entry.faces].count(6)


def test_a_contest_s_roll_takes_no_punchers_chance(client):
    campaign, kim, climb, contest = dad6_opposed(1)
    client.force_login(gm_of(campaign))
    refused = client.post(roll_url(kim, "dad6-skill", climb), PUNCH | {"contest": contest.pk})
    assert refused.status_code == 400 and "hasn't allowed" in text(refused)
    assert not RollEntry.objects.exists()


def test_a_roll_beyond_the_character_says_so_and_not_almost(client, party, settings):
    """Issue 48: a Familiar character on an Expert task (−2 a die) rolled a 6, and the card said
    "Close!" — a miss by 2 on a roll that could never succeed."""
    skill = _skill(party.pc, level=1)
    client.force_login(party.player)
    settings.ROLLS_RNG_SEED = seed_where(lambda f: f == (6,), lambda rng: dad6.roll(1, rng))
    client.post(roll_url(party.pc, "dad6-skill", skill), DEFAULTS | {"task": "expert"})
    entry = latest()
    assert entry.outcome == "failure" and entry.result["beyond"] is True
    assert entry.result["severity"] is None and entry.result["margin_of_failure"] is None
    assert "beyond the character" in entry.detail
    page = text(client.get(entry.get_absolute_url()))
    assert "Beyond the character" in page
    assert "Almost!" not in page and "Close!" not in page and "missed by" not in page


def test_an_older_entry_beyond_reach_reads_beyond_from_its_odds(client, party, settings):
    """Entries written before the figure existed say "Close!" in their hashed detail; their card's
    headline reads the odds table, which had no success band."""
    skill = _skill(party.pc, level=1)
    client.force_login(party.player)
    settings.ROLLS_RNG_SEED = seed_where(lambda f: f == (6,), lambda rng: dad6.roll(1, rng))
    client.post(roll_url(party.pc, "dad6-skill", skill), DEFAULTS | {"task": "expert"})
    entry = latest()
    del entry.result["beyond"]
    assert card_headline(entry).meaning.startswith("Beyond the character")
    entry.odds_table = {"success": "1/6", "failure": "5/6"}  # a possible roll's: not beyond
    assert not card_headline(entry).meaning.startswith("Beyond")
