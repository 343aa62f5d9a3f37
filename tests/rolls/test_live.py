"""The live-event hub: committed changes reach the streams of their campaign, and only those.

The same tests run on SQLite (in-memory hub fed by on_commit) and on PostgreSQL (NOTIFY/LISTEN over
a real second connection), whichever DATABASE_URL the suite runs with.
"""

import asyncio

import pytest
from django.db import transaction

import live
from tests.rolls.live_helpers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


def commit_event(campaign, kind, id):
    with transaction.atomic():
        live.publish(campaign, kind, id)


def test_a_committed_event_reaches_its_campaign_only():
    async def scenario():
        async with live.hub.subscribe(1) as mine, live.hub.subscribe(2) as other:
            await asyncio.to_thread(in_thread, lambda: commit_event(1, "entry", 42))
            assert await mine.get(timeout=5) == live.Event(campaign=1, kind="entry", id=42)
            assert await other.get(timeout=0.3) is None

    asyncio.run(scenario())


def test_a_rolled_back_event_is_never_delivered():
    class Abort(Exception):
        pass

    def publish_then_fail():
        with transaction.atomic():
            live.publish(1, "entry", 7)
            raise Abort

    def roll_back():
        with pytest.raises(Abort):
            publish_then_fail()

    async def scenario():
        async with live.hub.subscribe(1) as subscription:
            await asyncio.to_thread(in_thread, roll_back)
            await asyncio.to_thread(in_thread, lambda: commit_event(1, "entry", 8))
            # The committed event arrives; the rolled-back one never did.
            assert await subscription.get(timeout=5) == live.Event(1, "entry", 8)
            assert await subscription.get(timeout=0.3) is None

    asyncio.run(scenario())


def test_every_subscriber_hears_every_event_in_order():
    async def scenario():
        async with live.hub.subscribe(3) as a, live.hub.subscribe(3) as b:
            for n in range(1, 4):
                await asyncio.to_thread(in_thread, lambda n=n: commit_event(3, "entry", n))
            for subscription in (a, b):
                got = [await subscription.get(timeout=5) for _ in range(3)]
                assert [e.id for e in got] == [1, 2, 3]

    asyncio.run(scenario())


def test_subscriptions_end_with_their_stream():
    async def scenario():
        async with live.hub.subscribe(4):
            assert live.hub.subscriber_count == 1
        assert live.hub.subscriber_count == 0

    asyncio.run(scenario())


def test_a_stream_that_falls_behind_is_told_to_resync():
    async def scenario():
        async with live.hub.subscribe(5) as subscription:
            for n in range(live.QUEUE_SIZE + 1):
                subscription.deliver(live.Event(5, "entry", n))
            assert await subscription.get(timeout=1) is live.RESYNC
            assert await subscription.get(timeout=0.1) is None

    asyncio.run(scenario())


def test_events_round_trip_through_json():
    event = live.Event(campaign=9, kind="entry", id=123)
    assert live.Event.from_json(event.to_json()) == event


@pytest.mark.parametrize(
    ("value", "problem"),
    [("", None), ("memory", None), ("redis", None), ("nope", "rolls.E001")],
)
def test_the_live_backend_setting_is_checked(settings, value, problem):
    from live.checks import live_backend_check

    settings.LIVE_BACKEND = value
    assert [error.id for error in live_backend_check()] == ([problem] if problem else [])


def test_notify_needs_postgresql(settings):
    from django.db import connection

    from live.checks import live_backend_check

    settings.LIVE_BACKEND = "postgres"
    found = [error.id for error in live_backend_check()]
    assert found == ([] if connection.vendor == "postgresql" else ["rolls.E002"])


def test_an_event_before_the_keep_alive_comes_first_and_the_keep_alive_still_comes_on_time():
    """Subscription.get(until=…): the alarm for the next keep-alive stays set across events."""

    async def scenario():
        loop = asyncio.get_running_loop()
        async with live.hub.subscribe(41) as subscription:
            until = loop.time() + 0.3
            loop.call_later(0.05, subscription.deliver, live.Event(41, "entry", 1))
            assert await subscription.get(until=until) == live.Event(41, "entry", 1)
            assert await subscription.get(until=until) is None  # at the same keep-alive time
            assert loop.time() >= until - 0.01
            # Due while the stream was busy: the next wait for that time ends at once.
            subscription.deliver(live.Event(41, "entry", 2))
            later = loop.time() + 0.1
            await asyncio.sleep(0.15)
            assert await subscription.get(until=later) == live.Event(41, "entry", 2)
            assert await subscription.get(until=later) is None

    asyncio.run(scenario())


def test_the_channel_prefix_is_the_deployments_own(settings):
    """By default made from the database's identity (the test database has its own); set, it
    must name a PostgreSQL channel, and a bad one is a clear error, not a silent channel."""
    settings.LIVE_CHANNEL_PREFIX = ""  # the tests' sessions set their own (tests/conftest.py)
    default = live.channel_prefix()
    assert live.PREFIX_PATTERN.fullmatch(default) and default.startswith("poolside_")
    db = settings.DATABASES["default"]
    assert default == live.prefix_for("", f"{db['ENGINE']}|{db['HOST']}|{db['PORT']}|{db['NAME']}")
    assert live.prefix_for("", "django.db.backends.postgresql|db|5432|production") != default
    settings.LIVE_CHANNEL_PREFIX = "staging"
    assert live.channel_prefix() == "staging" and live.redis_channel(7) == "staging:7"
    from live.checks import live_backend_check

    for bad in ("Staging", "a b", "x*", "1st", "a" * 41):
        settings.LIVE_CHANNEL_PREFIX = bad
        with pytest.raises(ValueError, match="LIVE_CHANNEL_PREFIX"):
            live.channel_prefix()
        # …and the server doesn't start with it (the checks run at every start).
        assert [error.id for error in live_backend_check()] == ["rolls.E003"]
