"""Session markers on the live stream (docs/sessions.md): every member's open log gets the marker
with its session heading, a roll after it comes under that heading, and a replay after a
reconnect draws the same."""

import pytest

from log.models import RollEntry
from rolls.sessions import actions
from tests.rolls.helpers import athletics, token
from tests.rolls.live_helpers import client_for, off_loop, open_stream, post_roll, run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("seeded")]


def roll(user, character):
    def go():
        assert post_roll(user, character, athletics(character)).status_code == 302
        return RollEntry.objects.filter(character=character).order_by("-pk").first()

    return off_loop(go)


def test_markers_and_rolls_arrive_under_their_session_heading(party):
    campaign = party.campaign
    readers = {name: client_for(getattr(party, name)) for name in ("gm", "other_player")}

    async def scenario():
        streams = {name: await open_stream(c, campaign) for name, c in readers.items()}
        await off_loop(lambda: actions.start_session(party.gm, campaign, "The heist"))
        await off_loop(lambda: actions.mark_scene(party.gm, campaign, "The docks"))
        entry = await roll(party.player, party.pc)
        for stream in streams.values():
            started, scene, rolled = [await stream.next_event() for _ in range(3)]
            assert '<li class="log-session" data-session="1"><h2>Session 1: The heist</h2>' in (
                started.data
            )
            assert "data-marker" in started.data and "Session started" in started.data
            assert 'data-session="1.1"' in scene.data and "The docks" in scene.data
            assert rolled.id == token(entry) and 'data-session="1.1"' in rolled.data
        # A stream opened later replays the same items, headings and all.
        late = await open_stream(readers["other_player"], campaign, last_id="0")
        replayed = [await late.next_event() for _ in range(3)]
        assert [m.data for m in replayed] == [started.data, scene.data, rolled.data]

    run(scenario)
    assert RollEntry.objects.markers().count() == 2
