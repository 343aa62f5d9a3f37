"""Messages on the live stream (docs/messages.md): each reaches the open logs of its audience —
live and replayed — and nobody else's, not even as an empty event; a sheet's stream and the GM
table's carry rolls only."""

import pytest
from django.test import Client

from tests.rolls.helpers import append, token
from tests.rolls.live_helpers import client_for, off_loop, open_stream, run, until
from tests.rolls.message_helpers import said

pytestmark = pytest.mark.django_db(transaction=True)

WATCHERS = ("gm", "player", "other_player", "observer")


def say(party, user, text, **fields):
    return off_loop(lambda: said(Client(), party, user, text, **fields))


def roll(party):
    return off_loop(lambda: append(party.pc)[0])


def test_each_message_reaches_its_audience_live_and_replayed(party):
    clients = {name: client_for(getattr(party, name)) for name in WATCHERS}

    async def scenario():
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        to_gm = await say(party, "player", "Zqtogm", audience="gm")
        whisper = await say(party, "player", "Zqwhisper", audience="whisper", to=["observer"])
        narration = await say(
            party, "gm", "Zqnarrate", speaker="narration", audience="whisper", to=["other_player"]
        )
        public = await say(party, "other_player", "Zqpublic", speaker=party.other_pc)
        expected = {
            "gm": [to_gm, whisper, narration, public],
            "player": [to_gm, whisper, public],
            "other_player": [narration, public],
            "observer": [whisper, public],
        }
        words = {to_gm: "Zqtogm", whisper: "Zqwhisper", narration: "Zqnarrate", public: "Zqpublic"}
        for name, stream in streams.items():
            got = await until(stream, public)
            assert [m.id for m in got] == [token(e) for e in expected[name]], name
            text = "\n".join(m.data for m in got)
            for entry, word in words.items():
                assert (word in text) is (entry in expected[name]), (name, word)
            # Announced politely: a toast from data-notice, the page's live region reads it.
            assert "data-notice=" in text
        # Replayed from the start, the same audiences.
        for name, client in clients.items():
            stream = await open_stream(client, party.campaign, last_id=0)
            replayed = [m.id for m in stream.pending if m.event == "entry"]
            assert replayed == [token(e) for e in expected[name]], name
            await stream.close()

    run(scenario)


def test_sheet_and_table_streams_carry_rolls_not_messages(party):
    gm, player = client_for(party.gm), client_for(party.player)

    async def scenario():
        sheet = await open_stream(player, party.campaign, character=party.pc.pk, table=1)
        table = await open_stream(gm, party.campaign, view="table")
        await say(party, "player", "Ada speaks", speaker=party.pc)
        rolled = await roll(party)
        for stream in (sheet, table):
            message = await stream.next_event()
            assert (message.event, message.id) == ("entry", token(rolled))
            assert "Ada speaks" not in message.data
        replayed = await open_stream(player, party.campaign, character=party.pc.pk, last_id=0)
        assert [m.id for m in replayed.pending if m.event == "entry"] == [token(rolled)]
        await replayed.close()

    run(scenario)
