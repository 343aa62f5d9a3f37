"""The campaign event stream (rolls/live/stream.py) over Django's ASGI handler: who may open it, what
each member receives, resuming, filtering to one character, shared reads and removed members.

Runs on SQLite (in-memory hub) and PostgreSQL (NOTIFY/LISTEN), whichever the suite runs on."""

import asyncio

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

import live
from log.models import RollEntry
from rolls.live import shared as live_shared
from rolls.live import stream as live_stream
from sheets.models import Role
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ContestFactory,
    MembershipFactory,
    RollCallFactory,
    UserFactory,
)
from tests.fuzz import UNICODE_DIGITS
from tests.rolls.helpers import athletics, token
from tests.rolls.live_helpers import client_for, events_url, off_loop, open_stream, post_roll, run

# Repeatable dice for every roll of the party (tests/rolls/conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("seeded")]


def roll(user, character):
    """Roll as ``user`` through the real POST; returns the new entry."""

    def go():
        response = post_roll(user, character, athletics(character))
        assert response.status_code == 302
        return RollEntry.objects.filter(character=character).order_by("-pk").first()

    return off_loop(go)


# --- who may open it ---------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(client, party):
    campaign = party.campaign
    response = client.get(events_url(campaign))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_non_members_and_unknown_campaigns_are_a_404(client, party):
    campaign = party.campaign
    client.force_login(UserFactory(username="stranger"))
    assert client.get(events_url(campaign)).status_code == 404
    client.force_login(party.gm)
    assert client.get(reverse("campaign_events", args=[campaign.pk + 1000])).status_code == 404


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        ({"last_id": "abc"}, {}),
        ({"last_id": "-1"}, {}),
        ({}, {"Last-Event-ID": "x1"}),
        # A pk is no resume point any more (tokens only); nor are non-ASCII digits.
        ({"last_id": "12"}, {}),
        ({"last_id": "١٢٣"}, {}),
        ({"last_id": "0" * 17}, {}),
    ],
)
def test_a_bad_resume_point_is_a_400_with_a_message(client, party, query, headers):
    campaign = party.campaign
    client.force_login(party.player)
    response = client.get(events_url(campaign), query, headers=headers)
    assert response.status_code == 400
    assert b"must be an entry's id" in response.content


def test_the_character_filter_takes_only_readable_characters_of_the_campaign(client, party):
    campaign = party.campaign
    client.force_login(party.player)
    assert client.get(events_url(campaign, character="x")).status_code == 400
    elsewhere = CharacterFactory(campaign=CampaignFactory(gm=party.player))
    assert client.get(events_url(campaign, character=elsewhere.pk)).status_code == 404
    npc = party.hidden_npc  # Spy, hidden from players
    assert client.get(events_url(campaign, character=npc.pk)).status_code == 404


@pytest.mark.parametrize("value", [*UNICODE_DIGITS, "1" * 19, "-1", " 1"])
def test_a_character_that_is_no_number_is_a_400_with_a_message(client, party, value):
    """ "²" and "①" pass str.isdigit() but not int(): they were a 500."""
    client.force_login(party.player)
    response = client.get(events_url(party.campaign), {"character": value})
    assert response.status_code == 400
    assert "must be a character number" in response.content.decode()


def test_under_wsgi_the_stream_says_it_needs_asgi(client, party):
    campaign = party.campaign
    client.force_login(party.player)  # the sync client goes through the WSGI handler
    response = client.get(events_url(campaign))
    assert response.status_code == 501 and b"ASGI" in response.content


def test_only_get(client, party):
    campaign = party.campaign
    client.force_login(party.player)
    assert client.post(events_url(campaign)).status_code == 405


# --- what arrives ------------------------------------------------------------------------------


def test_a_roll_reaches_every_member_as_the_log_item(party):
    campaign, pc = party.campaign, party.pc
    readers = {
        name: client_for(getattr(party, name)) for name in ("gm", "other_player", "observer")
    }

    async def scenario():
        streams = {name: await open_stream(c, campaign) for name, c in readers.items()}
        entry = await roll(party.player, pc)
        for stream in streams.values():
            message = await stream.next_event()
            assert message.event == "entry" and message.id == token(entry)
            # The log's item: the entry's day heading, then the entry (live.js keeps one
            # heading per day).
            assert message.data.startswith('<li class="log-day" data-day="')
            # Only the GM's item names its character (the GM table refreshes that one card).
            item = (
                f'<li class="log-item" data-character="{pc.pk}">'
                if stream is streams["gm"]
                else '<li class="log-item">'
            )
            assert item in message.data and message.data.endswith("</li>")
            assert f'id="entry-{token(entry)}"' in message.data
            assert entry.outcome_label in message.data
            await stream.close()

    run(scenario)


def test_a_stream_without_resume_point_starts_at_the_newest_entry(party):
    campaign, pc = party.campaign, party.pc
    old = RollEntry.objects.count()
    in_thread_entry = post_roll(party.player, pc, athletics(pc))
    assert in_thread_entry.status_code == 302 and RollEntry.objects.count() == old + 1
    client = client_for(party.gm)

    async def scenario():
        stream = await open_stream(client, campaign)
        assert await stream.silent(0.5)  # the roll made before connecting is not replayed

    run(scenario)


def test_each_stream_is_told_a_reconnect_delay_of_its_own(party):
    # After a restart every open page reconnects: each after its own delay, not all at once.
    low, high = live_stream.RETRY_MS, live_stream.RETRY_MS + live_stream.RETRY_JITTER_MS
    client = client_for(party.player)

    async def scenario():
        for _ in range(3):
            stream = await open_stream(client, party.campaign)
            assert low <= stream.retry <= high
            await stream.close()

    run(scenario)
    delays = [int(live_stream.retry_hint().split()[1]) for _ in range(200)]
    assert all(low <= delay <= high for delay in delays)
    quarter = live_stream.RETRY_JITTER_MS / 4
    assert min(delays) < low + quarter and max(delays) > high - quarter  # spread over the range


def test_resuming_replays_what_was_missed_in_order(party):
    campaign, pc, other_pc = party.campaign, party.pc, party.other_pc
    first = roll_sync(party.player, pc)
    second = roll_sync(party.other_player, other_pc)
    third = roll_sync(party.player, pc)
    client = client_for(party.observer)

    async def scenario():
        stream = await open_stream(client, campaign, headers={"Last-Event-ID": token(first)})
        assert [(await stream.next_event()).id for _ in range(2)] == [
            token(second),
            token(third),
        ]
        # Then live entries follow, without repeating the replayed ones.
        fourth = await roll(party.other_player, other_pc)
        assert (await stream.next_event()).id == token(fourth)
        await stream.close()
        # ?last_id= does the same (htmx re-created the EventSource); the header wins over it.
        stream = await open_stream(client, campaign, last_id=token(third))
        assert (await stream.next_event()).id == token(fourth)
        await stream.close()
        stream = await open_stream(
            client, campaign, headers={"Last-Event-ID": token(third)}, last_id=0
        )
        assert (await stream.next_event()).id == token(fourth)
        assert await stream.silent(0.3)

    run(scenario)


def roll_sync(user, character):
    assert post_roll(user, character, athletics(character)).status_code == 302
    return RollEntry.objects.filter(character=character).order_by("-pk").first()


def test_catch_up_reads_in_batches(party, monkeypatch):
    campaign, pc = party.campaign, party.pc
    monkeypatch.setattr(live_stream, "REPLAY_BATCH", 2)
    entries = [roll_sync(party.player, pc) for _ in range(5)]
    client = client_for(party.gm)

    async def scenario():
        stream = await open_stream(client, campaign, last_id=0)
        got = [(await stream.next_event()).id for _ in range(5)]
        assert got == [token(e) for e in entries]
        assert await stream.silent(0.3)

    run(scenario)


def test_a_resync_re_reads_from_the_last_entry_sent(party, monkeypatch):
    campaign, pc = party.campaign, party.pc
    client = client_for(party.gm)

    def roll_unannounced():
        # An entry whose event was lost (e.g. the LISTEN connection dropped).
        monkeypatch.setattr(live, "publish", lambda *args: None)
        try:
            return roll_sync(party.player, pc)
        finally:
            monkeypatch.undo()

    async def scenario():
        stream = await open_stream(client, campaign)
        missed = await off_loop(roll_unannounced)
        assert await stream_silent_briefly(stream)
        live.hub.dispatch(live.RESYNC)
        message = await stream.next_event()
        assert message.event == "entry" and message.id == token(missed)

    async def stream_silent_briefly(stream):
        # Not silent() — that would cancel the stream; peek at the buffer instead.
        await asyncio.sleep(0.3)
        return "\n\n" not in stream.buffer

    run(scenario)


def test_a_failed_read_keeps_the_stream_and_its_cursor_and_is_read_again(party, monkeypatch):
    # The database restarting, or the pool exhausted past its timeout: the stream must neither
    # end nor skip the entry whose read failed (bench-delivery saw both under load).
    campaign, pc = party.campaign, party.pc
    client = client_for(party.gm)
    monkeypatch.setattr(live_stream, "REREAD", 0.2)
    load = live_stream._load_entry
    failures = []

    def fail_once(pk):
        if not failures:
            failures.append(pk)
            raise OperationalError("couldn't get a connection after 10.00 sec")
        return load(pk)

    monkeypatch.setattr(live_stream, "_load_entry", fail_once)

    async def scenario():
        stream = await open_stream(client, campaign)
        first = await roll(party.player, pc)
        message = await stream.next_event(timeout=5)  # re-read from the cursor, not lost
        assert message.event == "entry" and message.id == token(first)
        second = await roll(party.player, pc)
        message = await stream.next_event()
        assert message.event == "entry" and message.id == token(second)
        assert failures and await stream.silent(0.5)  # each once

    run(scenario)


def test_the_sheet_stream_carries_only_its_character(party):
    campaign, pc, other_pc = party.campaign, party.pc, party.other_pc
    client = client_for(party.player)

    async def scenario():
        stream = await open_stream(client, campaign, character=pc.pk)
        await roll(party.other_player, other_pc)
        mine = await roll(party.gm, pc)
        message = await stream.next_event()
        assert (message.event, message.id) == ("entry", token(mine))
        # Sheet edits: this character's come through (named by kind only), another's do not.
        await off_loop(lambda: edit_notes(party.other_player, other_pc))
        await off_loop(lambda: edit_notes(party.player, pc))
        message = await stream.next_event()
        assert (message.event, message.data) == ("sheet", "sheet")
        await stream.close()

    run(scenario)


def edit_notes(user, character):
    client = Client()
    client.force_login(user)
    response = client.post(
        reverse("character_basics", args=[character.pk]),
        {"basics-name": character.name, "basics-notes": "Edited live."},
    )
    assert response.status_code == 302


def test_other_kinds_are_forwarded_without_ids_and_hidden_npcs_stay_hidden(party):
    campaign, pc = party.campaign, party.pc
    npc = party.hidden_npc  # Spy, hidden from players
    player, gm = client_for(party.player), client_for(party.gm)

    def publish(kind, id):
        from django.db import transaction

        with transaction.atomic():
            live.publish(campaign.pk, kind, id)

    async def scenario():
        player_stream, gm_stream = (
            await open_stream(player, campaign),
            await open_stream(gm, campaign),
        )
        call = await off_loop(lambda: RollCallFactory(campaign=campaign, targets=[pc]).pk)
        contest = await off_loop(
            lambda: ContestFactory(campaign=campaign, character_a=pc, character_b=npc).pk
        )
        for kind, id in (("sheet", npc.pk), ("call", call), ("contest", contest), ("sheet", pc.pk)):
            await off_loop(lambda kind=kind, id=id: publish(kind, id))
        # No database id in a player's data: it names the kind, the component re-fetches its
        # part. The GM, who reads every character, is told which character a sheet event is
        # about (the GM table fetches that one card).
        got = [(m.event, m.data, m.id) for m in [await gm_stream.next_event() for _ in range(4)]]
        assert got == [
            ("sheet", str(npc.pk), None),
            ("call", "call", None),
            ("contest", "contest", None),
            ("sheet", str(pc.pk), None),
        ]
        got = [(m.event, m.data) for m in [await player_stream.next_event() for _ in range(3)]]
        assert got == [("call", "call"), ("contest", "contest"), ("sheet", "sheet")]

    run(scenario)


def test_a_quiet_stream_sends_keep_alives(party, monkeypatch):
    campaign = party.campaign
    monkeypatch.setattr(live_stream, "KEEPALIVE", 0.1)
    client = client_for(party.player)

    async def scenario():
        stream = await open_stream(client, campaign)
        message = await stream.next(timeout=2)
        assert message.comments == ["keep-alive"]

    run(scenario)


def test_a_removed_member_stops_receiving(party):
    campaign = party.campaign
    client = client_for(party.other_player)
    membership = campaign.memberships.get(user=party.other_player)

    def remove():
        gm = Client()
        gm.force_login(party.gm)
        response = gm.post(reverse("member_remove", args=[campaign.pk, membership.pk]))
        assert response.status_code == 302

    async def scenario():
        stream = await open_stream(client, campaign)
        await off_loop(remove)
        assert await stream.ended()
        response = await client.get(events_url(campaign))
        assert response.status_code == 404

    run(scenario)


def test_a_membership_gone_unannounced_is_noticed_at_the_next_check(party, monkeypatch):
    campaign = party.campaign
    monkeypatch.setattr(live_stream, "KEEPALIVE", 0.05)
    monkeypatch.setattr(live_stream, "RECHECK", 0.1)
    client = client_for(party.observer)

    async def scenario():
        stream = await open_stream(client, campaign)
        await off_loop(lambda: campaign.memberships.filter(user=party.observer).delete())
        assert await stream.ended()

    run(scenario)


def _raw(sql, params):
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.parametrize(
    "unannounced",
    [
        # What the red team did (issue 50): no save(), so no signal and no `user` event.
        lambda user: type(user).objects.filter(pk=user.pk).update(is_active=False),
        lambda user: type(user).objects.filter(pk=user.pk).update(password="!replaced"),
        lambda user: _raw("DELETE FROM sheets_session WHERE user_id = %s", [user.pk]),
    ],
    ids=["deactivated-by-update", "password-by-update", "session-deleted-by-sql"],
)
def test_a_login_ended_unannounced_ends_the_stream_at_the_next_check(
    party, monkeypatch, unannounced
):
    campaign = party.campaign
    monkeypatch.setattr(live_stream, "KEEPALIVE", 0.05)
    monkeypatch.setattr(live_stream, "RECHECK", 0.1)
    client, gm = client_for(party.player), client_for(party.gm)

    async def scenario():
        stream, gm_stream = await open_stream(client, campaign), await open_stream(gm, campaign)
        await off_loop(lambda: unannounced(party.player))
        assert await stream.ended()
        # Only that user's: the GM's stream, re-checked by the same read, goes on.
        entry = await roll(party.gm, party.pc)
        assert (await gm_stream.next_event()).id == token(entry)
        await gm_stream.close()

    run(scenario)


def test_one_event_is_read_once_and_rendered_once_per_audience(party):
    campaign, pc = party.campaign, party.pc
    extra = [UserFactory(username=f"watcher{n}") for n in range(4)]
    for user in extra:
        MembershipFactory(campaign=campaign, user=user, role=Role.OBSERVER)
    watchers = [party.gm, party.player, party.other_player, *extra]
    clients = [client_for(user) for user in watchers]

    async def scenario():
        streams = [await open_stream(c, campaign) for c in clients]
        shared = live_stream.shared_reads()
        before = shared.reads
        entry = await roll(party.player, pc)
        messages = [await s.next_event() for s in streams]
        assert {m.id for m in messages} == {token(entry)}
        # One read of the entry, one render each for the GM, the roller and everyone else.
        assert shared.reads - before == 4
        for s in streams:
            await s.close()

    run(scenario)


def test_a_stream_that_closes_mid_read_does_not_cancel_the_read_for_the_others():
    """Shared reads (rolls/live/stream.py): each waiter's cancellation is its own."""

    async def scenario():
        shared = live_shared.SharedReads(asyncio.get_running_loop())
        release = asyncio.Event()

        async def slow_read():
            await release.wait()
            return "card"

        first = asyncio.create_task(shared.get(("card", 1), slow_read))
        second = asyncio.create_task(shared.get(("card", 1), slow_read))
        await asyncio.sleep(0)
        first.cancel()
        await asyncio.sleep(0)
        release.set()
        assert await second == "card"
        assert first.cancelled() and shared.reads == 1
        # A later stream takes the finished read as it is.
        assert await shared.get(("card", 1), slow_read) == "card" and shared.reads == 1

    asyncio.run(scenario())


def test_a_failed_shared_read_fails_its_waiters_and_is_read_again():
    async def scenario():
        shared = live_shared.SharedReads(asyncio.get_running_loop())
        calls = []

        async def flaky():
            calls.append(1)
            await asyncio.sleep(0)
            if len(calls) == 1:
                raise RuntimeError("database went away")
            return "ok"

        waiters = [asyncio.create_task(shared.get(("entry", 9), flaky)) for _ in range(3)]
        results = await asyncio.gather(*waiters, return_exceptions=True)
        assert all(isinstance(r, RuntimeError) for r in results)
        assert await shared.get(("entry", 9), flaky) == "ok" and len(calls) == 2

    asyncio.run(scenario())
