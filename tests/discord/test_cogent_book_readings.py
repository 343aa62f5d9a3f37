"""Cogent as the Book says it (RULES.md §8) through Discord's ``/roll`` and buttons: a group
assist's helpers roll with the assist, dual wielding by the secondary weapon (refused in words
without a point in both skills), and destiny after an assist roll."""

import pytest

from log.models import Kind, RollEntry
from rolls.models import Assist
from rules import cogent
from tests.discord.helpers import buttons, is_private, post, press, roll, target_value

pytestmark = pytest.mark.django_db


def _athletics(character):
    return character.cogent.skills.get(name="Athletics")


def _assist(client, key, table, **values):
    party = table.party
    value = target_value(party.pc, "cogent-skill", _athletics(party.pc))
    fields = {"challenge_level": "3", "assist_for": str(party.other_pc.pk), "action": "assist"}
    return roll(client, key, table, target=value, **(fields | values))


def test_a_group_assists_helpers_roll_with_the_assist(client, key, table):
    pool = _athletics(table.party.pc).pool
    answer = _assist(client, key, table, further_helpers=2)
    assert not is_private(answer), answer
    entry = RollEntry.objects.get()
    assert entry.kind == Kind.ASSIST and entry.pool["dice"] == len(entry.faces) == pool + 2
    faces = [die["face"] for die in entry.faces]
    assert Assist.objects.get().wins == cogent.assist(faces, challenge_level=3)


def test_dual_wielding_from_discord(client, key, table):
    party = table.party
    vocation = party.pc.cogent.vocations.create(name="Duellist", attribute="reflex", rating=2)
    rapier = vocation.subskills.create(
        slot=1, kind="combat", name="Medium", rating=1, weapon="Medium"
    )
    value = target_value(party.pc, "cogent-subskill", rapier)
    refused = roll(client, key, table, target=value, weapon="Medium", secondary_weapon="Small")
    assert is_private(refused) and "point in the Small combat skill" in str(refused)
    assert not RollEntry.objects.exists()
    vocation.subskills.create(slot=2, kind="combat", name="Small", rating=1)
    roll(client, key, table, target=value, weapon="Medium", secondary_weapon="Small")
    entry = RollEntry.objects.get()
    assert entry.options["secondary_weapon"] == "Small"
    assert entry.pool["dice"] == rapier.pool + 2


def test_destiny_after_an_assist_roll_from_its_button(client, key, table):
    sheet = table.party.pc.cogent
    sheet.destiny_points = 3
    sheet.save()
    answer = _assist(client, key, table, challenge_level="8")
    before = Assist.objects.get().wins
    found = [b for b in buttons(answer) if ":destiny:" in b["custom_id"]]
    assert found and "on the assist" in found[0]["label"], buttons(answer)
    post(client, key, press(table.id("player"), found[0]["custom_id"]))
    spent = RollEntry.objects.latest("pk")
    assert spent.kind == Kind.DESTINY and spent.result["assist"] == before + 1
    assert Assist.objects.get().wins == before + 1
