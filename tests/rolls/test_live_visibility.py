"""Visibility on the live stream: a player's stream never carries a hidden roll's dice, outcome or
pool size — live or replayed — and reveals arrive for everyone."""

import pytest
from django.test import Client
from django.urls import reverse

from rolls.models import Kind, RollEntry
from tests.rolls.helpers import token
from tests.rolls.live_helpers import off_loop, open_stream, post_roll, run
from tests.rolls.test_live_stream import client_for

# The pages' visibility tests' table (GM, alice playing Rob, bob, an observer): the same people
# at the same table, live. Imported, pytest registers it here as the fixture "visibility_table".
from tests.rolls.test_visibility import table as visibility_table  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(request):
    return request.getfixturevalue("visibility_table")


WATCHERS = ("gm", "alice", "bob", "observer")


def roll(table, user, visibility):
    def go():
        response = post_roll(table[user], table["rob"], table["athletics"], visibility=visibility)
        assert response.status_code == 302, response.content.decode()
        return RollEntry.objects.order_by("-pk").first()

    return off_loop(go)


def reveal(table, entry):
    def go():
        client = Client()
        client.force_login(table["gm"])
        assert client.post(reverse("roll_reveal", args=[entry.pk])).status_code == 302
        return RollEntry.objects.get(kind=Kind.REVEAL, reveals=entry)

    return off_loop(go)


def secrets_of(entry):
    """What only a reader may see: pool in words (with its size), outcome in words, each die."""
    pool = f"{entry.pool['dice']}d6"
    assert pool in entry.breakdown
    return [entry.breakdown, pool, entry.detail, f"outcome-{entry.outcome}"] + [
        die.label for die in entry.dice
    ]


async def until(stream, entry):
    """Every entry message up to and including ``entry``'s."""
    got = []
    while True:
        message = await stream.next_event()
        if message.event == "entry":
            got.append(message)
            if message.id == token(entry):
                return got


def test_hidden_rolls_on_the_stream_follow_the_visibility_rules(table):
    clients = {name: client_for(table[name]) for name in WATCHERS}

    async def scenario():
        streams = {name: await open_stream(c, table["campaign"]) for name, c in clients.items()}
        gm_only = await roll(table, "alice", "gm_only")
        blind = await roll(table, "alice", "blind")
        secret = await roll(table, "gm", "secret")
        marker = await roll(table, "alice", "public")
        hidden = (gm_only, blind, secret)
        got = {name: await until(stream, marker) for name, stream in streams.items()}
        ids = {name: [m.id for m in messages] for name, messages in got.items()}
        # (The marker is left out: seeded dice make its figures the same as the hidden rolls'.)
        text = {
            name: "\n".join(m.data for m in messages if m.id != token(marker))
            for name, messages in got.items()
        }

        everything = [token(e) for e in (*hidden, marker)]
        assert ids["gm"] == everything
        assert ids["alice"] == [token(gm_only), token(blind), token(marker)]
        assert ids["bob"] == ids["observer"] == [token(marker)]

        for entry in hidden:
            assert all(secret in text["gm"] for secret in secrets_of(entry))
        assert all(secret in text["alice"] for secret in secrets_of(gm_only))
        # Alice's blind roll: a placeholder that it was made, none of its figures.
        blind_card = next(m.data for m in got["alice"] if m.id == token(blind))
        assert "A blind roll was made." in blind_card and "Rob" in blind_card
        leaks = [s for s in secrets_of(blind) if s in blind_card]
        assert not leaks and blind.odds_display not in blind_card
        for name in ("bob", "observer"):
            for entry in hidden:
                assert not [s for s in secrets_of(entry) if s in text[name]], name

        # Replayed (a reconnect from the start) the same rules hold.
        for name, expected in (("bob", [marker]), ("alice", [gm_only, blind, marker])):
            stream = await open_stream(clients[name], table["campaign"], last_id=0)
            replayed = [m for m in stream.pending if m.event == "entry"]
            assert [m.id for m in replayed] == [token(e) for e in expected]
            for message in replayed:
                if message.id == token(blind):
                    assert "A blind roll was made." in message.data
                    assert not [s for s in secrets_of(blind) if s in message.data]
            await stream.close()

    run(scenario)


def test_a_reveal_reaches_every_member_live(table):
    clients = {name: client_for(table[name]) for name in WATCHERS}

    async def scenario():
        blind = await roll(table, "alice", "blind")
        streams = {name: await open_stream(c, table["campaign"]) for name, c in clients.items()}
        revealed = await reveal(table, blind)
        for name, stream in streams.items():
            message = await stream.next_event()
            assert (message.event, message.id) == ("entry", token(revealed)), name
            # The reveal card carries the roll's figures for everyone now.
            figures = [blind.breakdown, f"outcome-{blind.outcome}", *(d.label for d in blind.dice)]
            assert all(figure in message.data for figure in figures), name
            assert "The GM revealed a blind roll." in message.data

    run(scenario)
