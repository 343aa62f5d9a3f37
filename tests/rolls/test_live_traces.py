"""The live stream tells a member nothing about an entry they may not know of: no message, no id,
no event of a call or contest it answered, not even a change in the keep-alive rhythm."""

import asyncio

import pytest
from django.test import Client

import live
from log.models import RollEntry
from rolls.live import stream as live_stream
from tests.factories import RollCallFactory
from tests.rolls.helpers import athletics, follow_url, token
from tests.rolls.live_helpers import client_for, off_loop, open_stream, post_roll, run

# The visibility tests' party: ana's Ada rolls Athletics at 6d6 (tests/rolls/conftest.py).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("rulebook_athletics"),
]


def roll(party, user, visibility, **data):
    def go():
        response = post_roll(
            getattr(party, user), party.pc, athletics(party.pc), visibility=visibility, **data
        )
        assert response.status_code == 302, response.content.decode()
        return RollEntry.objects.order_by("-pk").first()

    return off_loop(go)


async def events_until(stream, entry):
    """(event, id or data) of every message up to and including ``entry``'s."""
    got = []
    while True:
        message = await stream.next_event()
        if message.event == "entry":
            got.append(("entry", message.id))
            if message.id == token(entry):
                return got
        else:
            got.append((message.event, message.data))


def test_a_call_answered_by_a_hidden_roll_is_heard_only_by_those_who_know_the_roll(party):
    call = RollCallFactory(campaign=party.campaign, targets=[party.pc], skill="Athletics")
    clients = {
        name: client_for(getattr(party, name))
        for name in ("gm", "player", "other_player", "observer")
    }

    async def scenario():
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        answer = await roll(party, "player", "gm_only", call=call.pk, challenge_level=2)
        assert answer.call_id == call.pk
        marker = await roll(party, "player", "public")
        got = {name: await events_until(stream, marker) for name, stream in streams.items()}
        for name in ("gm", "player"):
            # The call's event names the roll that answered it (a sheet that had the roll has
            # the prompts it changed): only for members who know of that roll.
            assert ("call", f"call {token(answer)}") in got[name], name
        for name in ("other_player", "observer"):
            assert got[name] == [("entry", token(marker))], name

    run(scenario)


def test_the_blind_roller_hears_nothing_of_the_rolls_follow_ups(party):
    clients = {name: client_for(getattr(party, name)) for name in ("gm", "player")}

    async def scenario():
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        blind = await roll(party, "player", "blind")

        def follow_up():
            client = Client()
            client.force_login(party.gm)
            assert client.post(follow_url(blind, "destiny")).status_code == 302
            return RollEntry.objects.get(follows=blind)

        hidden = await off_loop(follow_up)
        marker = await roll(party, "player", "public")
        got = {name: await events_until(stream, marker) for name, stream in streams.items()}
        assert got["gm"] == [("entry", token(e)) for e in (blind, hidden, marker)]
        assert got["player"] == [("entry", token(e)) for e in (blind, marker)]
        # Replayed from the start, the same.
        stream = await open_stream(clients["player"], party.campaign, last_id=0)
        assert [m.id for m in stream.pending if m.event == "entry"] == [
            token(blind),
            token(marker),
        ]

    run(scenario)


def test_entries_a_member_may_not_know_of_leave_the_keep_alive_rhythm_alone(party, monkeypatch):
    """Were the keep-alive wait restarted by every event, a steady run of hidden rolls would
    silence a player's keep-alives — telling them rolls are being made."""
    monkeypatch.setattr(live_stream, "KEEPALIVE", 0.3)
    ben = client_for(party.other_player)

    async def scenario():
        hidden = await roll(party, "gm", "secret")
        stream = await open_stream(ben, party.campaign)
        loop = asyncio.get_running_loop()
        stop = loop.time() + 1.5

        async def wake_every_stream():
            # The event a hidden entry sends to every stream of the campaign (as append does).
            while loop.time() < stop:
                await off_loop(lambda: live.publish(party.campaign.pk, "entry", hidden.pk))
                await asyncio.sleep(0.05)

        waker = asyncio.create_task(wake_every_stream())
        beats, events = 0, []
        try:
            while (left := stop - loop.time()) > 0:
                try:
                    message = await stream.next(timeout=left)
                except TimeoutError:
                    break
                if message.comments == ["keep-alive"]:
                    beats += 1
                else:
                    events.append(message)
        finally:
            await waker
        assert events == []
        # 1.5 s at one keep-alive each 0.3 s: about five, however busy the campaign is.
        assert beats >= 3

    run(scenario)


def test_stream_ids_are_tokens_not_database_ids(party):
    ben = client_for(party.other_player)

    async def scenario():
        first = await roll(party, "player", "public")
        stream = await open_stream(ben, party.campaign, last_id=0)
        second = await roll(party, "player", "public")
        ids = [m.id for m in stream.pending if m.event == "entry"]
        stream.pending.clear()
        ids.append((await stream.next_event()).id)
        assert ids == [token(first), token(second)]
        assert str(first.pk) not in ids and str(second.pk) not in ids
        # The browser resumes from the token it was last sent.
        resumed = await open_stream(ben, party.campaign, headers={"Last-Event-ID": ids[0]})
        assert [m.id for m in resumed.pending if m.event == "entry"] == [token(second)]

    run(scenario)
