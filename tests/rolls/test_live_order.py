"""Live delivery exactly once and in chain order, whatever order the transport delivers events
in (docs/live.md#exactly-once-in-order): an event that skips ahead makes the stream read the gap
from the database first; a late or repeated event sends nothing. Streams filter by visibility and
by character as ever, across the gap too.

Runs on SQLite (in-memory hub) and PostgreSQL (NOTIFY/LISTEN), whichever the suite runs on."""

import pytest

import live
from log.models import RollEntry, Visibility
from tests.rolls.helpers import athletics, token
from tests.rolls.live_helpers import client_for, off_loop, open_stream, post_roll, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("seeded")]


def unannounced(monkeypatch, rolls):
    """Make ``rolls`` — (user, character, visibility) — with their events held back, as a
    transport that has not delivered them yet; returns the entries, oldest first."""

    def make():
        monkeypatch.setattr(live, "publish", lambda *args, **kwargs: None)
        try:
            made = []
            for user, character, visibility in rolls:
                response = post_roll(user, character, athletics(character), visibility=visibility)
                assert response.status_code == 302, response.content
                made.append(RollEntry.objects.filter(character=character).latest("pk"))
            return made
        finally:
            monkeypatch.undo()

    return off_loop(make)


def deliver(entry):
    live.hub.dispatch(live.Event(campaign=entry.campaign_id, kind="entry", id=entry.pk))


def test_an_event_that_overtakes_an_earlier_one_sends_both_in_order_once(party, monkeypatch):
    public = Visibility.PUBLIC
    client = client_for(party.other_player)

    async def scenario():
        stream = await open_stream(client, party.campaign)
        first, second, third = await unannounced(
            monkeypatch, [(party.player, party.pc, public)] * 3
        )
        deliver(third)  # the newest arrives first …
        got = [(await stream.next_event()).id for _ in range(3)]
        assert got == [token(first), token(second), token(third)]
        deliver(first)  # … the older ones late, and one twice: nothing more is sent
        deliver(second)
        deliver(third)
        assert await stream.silent(0.4)

    run(scenario)


def test_the_gap_read_keeps_every_visibility(party, monkeypatch):
    """A player's stream reads the gap as the member it is: the GM-only roll of another player
    and the GM's secret roll are never sent, not even as a placeholder; their own blind roll is
    its placeholder only."""
    client = client_for(party.other_player)

    async def scenario():
        stream = await open_stream(client, party.campaign)
        rolls = [
            (party.player, party.pc, Visibility.GM_ONLY),
            (party.gm, party.hidden_npc, Visibility.SECRET),
            (party.other_player, party.other_pc, Visibility.BLIND),
            (party.player, party.pc, Visibility.PUBLIC),
        ]
        gm_only, secret, blind, public = await unannounced(monkeypatch, rolls)
        deliver(public)
        got = [await stream.next_event() for _ in range(2)]
        assert [message.id for message in got] == [token(blind), token(public)]
        assert "Blind roll" in got[0].data or "blind" in got[0].data.lower()
        assert blind.detail not in got[0].data
        for entry in (gm_only, secret):  # late events of what the player may not know of
            deliver(entry)
        assert await stream.silent(0.4)

    run(scenario)


def test_a_sheet_stream_reads_the_gap_for_its_character_only(party, monkeypatch):
    client = client_for(party.player)

    async def scenario():
        stream = await open_stream(client, party.campaign, character=party.pc.pk)
        public = Visibility.PUBLIC
        mine, other, mine_again = await unannounced(
            monkeypatch,
            [
                (party.player, party.pc, public),
                (party.other_player, party.other_pc, public),
                (party.player, party.pc, public),
            ],
        )
        deliver(mine_again)
        got = [(await stream.next_event()).id for _ in range(2)]
        assert got == [token(mine), token(mine_again)]
        deliver(other)
        assert await stream.silent(0.4)

    run(scenario)
