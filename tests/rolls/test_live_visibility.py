"""Visibility on the live stream: a player's stream never carries a hidden roll's dice, outcome or
pool size — live or replayed — and reveals arrive for everyone."""

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry
from tests.rolls.helpers import follow_url, token
from tests.rolls.live_helpers import (
    client_for,
    off_loop,
    open_stream,
    roll,
    run,
    secrets_of,
    until,
    words,
)

# The pages' visibility tests' party (ana's Ada rolls Athletics at 6d6), live.
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("rulebook_athletics"),
]


WATCHERS = ("gm", "player", "other_player", "observer")


def reveal(party, entry):
    def go():
        client = Client()
        client.force_login(party.gm)
        assert client.post(reverse("roll_reveal", args=[entry.pk])).status_code == 302
        return RollEntry.objects.get(kind=Kind.REVEAL, reveals=entry)

    return off_loop(go)


def follow_up(party, entry, action="destiny", who="gm"):
    def go():
        client = Client()
        client.force_login(getattr(party, who))
        assert client.post(follow_url(entry, action)).status_code == 302
        return RollEntry.objects.filter(follows=entry).order_by("-pk").first()

    return off_loop(go)


def test_hidden_rolls_on_the_stream_follow_the_visibility_rules(party):
    clients = {name: client_for(getattr(party, name)) for name in WATCHERS}

    async def scenario():
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        gm_only = await roll(party, "player", "gm_only")
        blind = await roll(party, "player", "blind")
        secret = await roll(party, "gm", "secret")
        marker = await roll(party, "player", "public")
        hidden = (gm_only, blind, secret)
        got = {name: await until(stream, marker) for name, stream in streams.items()}
        ids = {name: [m.id for m in messages] for name, messages in got.items()}
        # (The marker is left out: seeded dice make its figures the same as the hidden rolls'.)
        text = {
            name: words("\n".join(m.data for m in messages if m.id != token(marker)))
            for name, messages in got.items()
        }

        everything = [token(e) for e in (*hidden, marker)]
        assert ids["gm"] == everything
        assert ids["player"] == [token(gm_only), token(blind), token(marker)]
        assert ids["other_player"] == ids["observer"] == [token(marker)]

        for entry in hidden:
            assert all(secret in text["gm"] for secret in secrets_of(entry))
        assert all(secret in text["player"] for secret in secrets_of(gm_only))
        # Alice's blind roll: a placeholder that it was made, none of its figures.
        blind_card = words(next(m.data for m in got["player"] if m.id == token(blind)))
        assert "A blind roll was made." in blind_card and "Ada" in blind_card
        leaks = [s for s in secrets_of(blind) if s in blind_card]
        assert not leaks and blind.odds_display not in blind_card
        for name in ("other_player", "observer"):
            for entry in hidden:
                assert not [s for s in secrets_of(entry) if s in text[name]], name

        # Replayed (a reconnect from the start) the same rules hold.
        for name, expected in (("other_player", [marker]), ("player", [gm_only, blind, marker])):
            stream = await open_stream(clients[name], party.campaign, last_id=0)
            replayed = [m for m in stream.pending if m.event == "entry"]
            assert [m.id for m in replayed] == [token(e) for e in expected]
            for message in replayed:
                if message.id == token(blind):
                    assert "A blind roll was made." in message.data
                    assert not [s for s in secrets_of(blind) if s in message.data]
            await stream.close()

    run(scenario)


def test_a_reveal_reaches_every_member_live(party):
    clients = {name: client_for(getattr(party, name)) for name in WATCHERS}

    async def scenario():
        blind = await roll(party, "player", "blind")
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        revealed = await reveal(party, blind)
        for name, stream in streams.items():
            message = await stream.next_event()
            assert (message.event, message.id) == ("entry", token(revealed)), name
            # The reveal card carries the roll's figures for everyone now.
            figures = [blind.breakdown, f"outcome-{blind.outcome}", *(d.label for d in blind.dice)]
            assert all(figure in message.data for figure in figures), name
            assert "The GM revealed a blind roll." in message.data

    run(scenario)


def test_a_follow_up_goes_live_hidden_before_its_roll_is_revealed_and_readable_after(party):
    """Whether a roll's chain is revealed is read with each entry the stream sends: a follow-up
    of a blind roll is as hidden as the roll until the GM reveals it, then everyone reads it."""
    clients = {name: client_for(getattr(party, name)) for name in WATCHERS}

    async def scenario():
        blind = await roll(party, "player", "blind")
        streams = {name: await open_stream(c, party.campaign) for name, c in clients.items()}
        before = await follow_up(party, blind)
        assert before.root_id == blind.pk
        assert (await streams["gm"].next_event()).id == token(before)
        revealed = await reveal(party, blind)
        # Readable now by its player, whose choice the next spend is (RULES.md §8).
        after = await follow_up(party, before, who="player")
        assert after.root_id == blind.pk
        for name, stream in streams.items():
            # Only the GM heard of the follow-up made before the reveal (the blind roller too
            # knows nothing of the GM's follow-up); after it, everyone reads the next one.
            got = await until(stream, after)
            assert [m.id for m in got] == [token(revealed), token(after)], name
            assert all(secret in got[1].data for secret in secrets_of(after)), name

    run(scenario)
