"""The GM table's events on the stream: a call or contest reaches a member only when they may read
it (through a character they may read), and no message a player receives names a database id."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from rolls.models import Contest, RollCall
from sheets.models import Character
from tests.factories import CharacterFactory, ContestFactory
from tests.rolls.helpers import athletics, token
from tests.rolls.live_helpers import client_for, off_loop, open_stream, post_roll, run

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("rulebook_athletics"),
]

NAMES = ("gm", "player", "other_player", "observer")


def as_gm(party, name, data):
    client = Client()
    client.force_login(party.gm)
    response = client.post(reverse(name, args=[party.campaign.pk]), data)
    assert response.status_code == 302, response.content.decode()


def call_for(party, characters):
    as_gm(
        party,
        "call_create",
        {
            "call-characters": [c.pk for c in characters],
            "call-skill": "Athletics",
            "call-difficulty": 2,
            "call-note": "",
        },
    )
    return RollCall.objects.latest("pk")


def contest_between(party, a, b):
    as_gm(
        party,
        "contest_create",
        {
            "contest-kind": "cogent_conflict",
            "contest-character_a": a.pk,
            "contest-character_b": b.pk,
            "contest-skill_a": "Athletics",
            "contest-skill_b": "Athletics",
        },
    )
    return Contest.objects.latest("pk")


def marker(party):
    """A public roll: every stream hears it, so what came before it is all there was."""

    def go():
        response = post_roll(party.player, party.pc, athletics(party.pc), visibility="public")
        assert response.status_code == 302, response.content.decode()
        return RollEntry.objects.latest("pk")

    return off_loop(go)


async def messages_until(stream, entry):
    """(event, id, data) of every message up to and including ``entry``'s."""
    got = []
    while True:
        message = await stream.next_event()
        got.append((message.event, message.id, message.data))
        if message.event == "entry" and message.id == token(entry):
            return got


def kinds(got):
    return [event for event, _, _ in got]


def test_a_call_aimed_only_at_a_hidden_npc_reaches_the_gm_alone(party):
    clients = {name: client_for(getattr(party, name)) for name in NAMES}

    async def scenario():
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        hidden = await off_loop(lambda: call_for(party, [party.hidden_npc]))
        seen = await off_loop(lambda: call_for(party, [party.pc, party.hidden_npc]))
        last = await marker(party)
        got = {name: await messages_until(s, last) for name, s in streams.items()}
        assert kinds(got["gm"]) == ["call", "call", "entry"]
        for name in NAMES[1:]:
            # Only the call that also targets Ada, whom every member may read.
            assert kinds(got[name]) == ["call", "entry"], name
        for name in NAMES:
            for event, _, data in got[name]:
                if event == "call":
                    assert data == "call"
                    assert str(hidden.pk) not in data and str(seen.pk) not in data

    run(scenario)


def test_a_contest_between_hidden_npcs_reaches_the_gm_alone(party):
    """A contest can't start with a hidden NPC, but the GM may hide one afterwards: from then on
    a contest whose sides are both hidden is the GM's alone; one with a side players may read
    still reaches them."""
    clients = {name: client_for(getattr(party, name)) for name in NAMES}

    def contests():
        mole = CharacterFactory(campaign=party.campaign, owner=party.gm, name="Mole", is_npc=True)
        hidden = ContestFactory(campaign=party.campaign, character_a=party.npc, character_b=mole)
        mixed = ContestFactory(campaign=party.campaign, character_a=party.pc, character_b=party.npc)
        Character.objects.filter(pk__in=[party.npc.pk, mole.pk]).update(hidden_from_players=True)
        return hidden, mixed

    def cancel(contest):
        client = Client()
        client.force_login(party.gm)
        response = client.post(reverse("contest_cancel", args=[contest.pk]))
        assert response.status_code == 302, response.content.decode()

    async def scenario():
        hidden, mixed = await off_loop(contests)
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        await off_loop(lambda: cancel(hidden))
        await off_loop(lambda: cancel(mixed))
        last = await marker(party)
        got = {name: await messages_until(s, last) for name, s in streams.items()}
        assert kinds(got["gm"]) == ["contest", "contest", "entry"]
        for name in NAMES[1:]:
            assert kinds(got[name]) == ["contest", "entry"], name

    run(scenario)


def test_no_message_a_player_receives_carries_a_database_id(party):
    """Every kind a player's stream sends: entries (named by token) and the table's events (named
    by kind) — never a bare number."""
    client = client_for(party.player)

    def edit_notes():
        c = Client()
        c.force_login(party.player)
        response = c.post(
            reverse("character_basics", args=[party.pc.pk]),
            {"basics-name": party.pc.name, "basics-notes": "Edited live."},
        )
        assert response.status_code == 302

    async def scenario():
        stream = await open_stream(client, party.campaign)
        await off_loop(lambda: call_for(party, [party.pc]))
        await off_loop(lambda: contest_between(party, party.pc, party.other_pc))
        await off_loop(edit_notes)
        last = await marker(party)
        got = await messages_until(stream, last)
        assert kinds(got) == ["call", "contest", "sheet", "entry"]
        for event, id, data in got:
            if event == "entry":
                assert re.fullmatch(r"[0-9a-f]{16}", id)
            else:
                assert (id, data) == (None, event)

    run(scenario)
