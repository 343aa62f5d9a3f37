"""The table's rolls on an open sheet (?character=<pk>&table=1): another character's roll comes as
a ``table`` event holding the card the log would send this member — nothing at all for a roll
they may not know of — with no id, so the sheet's resume point stays its own."""

import pytest

from tests.rolls.helpers import token
from tests.rolls.live_helpers import client_for, open_stream, roll, run, secrets_of, words

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("rulebook_athletics"),
    pytest.mark.live,
]


async def table_events(stream, marker):
    """The table events up to the one of ``marker``'s card; own-sheet entries are kept apart."""
    got, own = [], []
    while True:
        message = await stream.next_event()
        assert message.id is None or message.event == "entry"
        if message.event == "table":
            got.append(message.data)
            if f'id="entry-{token(marker)}"' in message.data:
                return got, own
        elif message.event == "entry":
            own.append(message)


def test_each_visibility_reaches_exactly_the_sheets_that_may_know_of_it(party):
    """Ana rolls for Ada; the sheets open elsewhere hear it as the log would."""
    watchers = {
        "gm": party.npc,  # the GM on Warden's sheet
        "other_player": party.other_pc,  # Ben on his own Bo
        "observer": party.other_pc,
        "player": party.npc,  # Ana herself, on Warden's sheet
    }
    clients = {name: client_for(getattr(party, name)) for name in watchers}

    async def scenario():
        streams = {
            name: await open_stream(
                clients[name], party.campaign, character=watchers[name].pk, table=1
            )
            for name in watchers
        }
        gm_only = await roll(party, "player", "gm_only")
        blind = await roll(party, "player", "blind")
        secret = await roll(party, "gm", "secret")
        marker = await roll(party, "player", "public")
        got = {name: await table_events(stream, marker) for name, stream in streams.items()}
        cards = {name: events for name, (events, _) in got.items()}
        assert all(not own for _, own in got.values())  # none of these is the watched sheet's
        ids = {
            name: [e for e in (gm_only, blind, secret, marker) if f"entry-{token(e)}" in "".join(c)]
            for name, c in cards.items()
        }
        assert ids["gm"] == [gm_only, blind, secret, marker]
        assert ids["player"] == [gm_only, blind, marker]
        assert ids["other_player"] == ids["observer"] == [marker]
        # Ana's own blind roll: the placeholder, none of its figures.
        blind_card = next(c for c in cards["player"] if f"entry-{token(blind)}" in c)
        assert "A blind roll was made." in blind_card
        assert not [s for s in secrets_of(blind) if s in words(blind_card)]
        for name in ("other_player", "observer"):
            text = "".join(cards[name][:-1])
            assert text == ""  # nothing before the marker: no trace of the hidden rolls
        for stream in streams.values():
            await stream.close()

    run(scenario)


def test_without_table_a_sheet_hears_only_its_own_rolls(party):
    client = client_for(party.other_player)

    async def scenario():
        stream = await open_stream(client, party.campaign, character=party.other_pc.pk)
        await roll(party, "player", "public")
        assert await stream.silent()

    run(scenario)


def test_the_sheets_own_roll_stays_an_entry_event_with_its_id(party):
    client = client_for(party.player)

    async def scenario():
        stream = await open_stream(client, party.campaign, character=party.pc.pk, table=1)
        mine = await roll(party, "player", "public")
        message = await stream.next_event()
        assert (message.event, message.id) == ("entry", token(mine))
        await stream.close()

    run(scenario)
