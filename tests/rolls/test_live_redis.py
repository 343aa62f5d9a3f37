"""The Redis transport (LIVE_BACKEND=redis, docs/live.md): events go out after commit and never
after a rollback, a lost subscription makes every stream resync, and a Redis that is down never
fails a roll that already committed. The other live tests run against Redis too in .ci/run's
Redis pass (`-m live` with LIVE_BACKEND=redis); these run in every pass where Redis answers."""

import asyncio
import logging

import pytest
from django.db import transaction

import live
from log.models import RollEntry
from tests.redis_available import kill_own_connections, require_redis
from tests.rolls.helpers import athletics, roll_url
from tests.rolls.live_helpers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def on_redis(settings):
    require_redis(settings.REDIS_URL)
    settings.LIVE_BACKEND = live.REDIS
    return settings


def commit_event(campaign, kind, id):
    with transaction.atomic():
        live.publish(campaign, kind, id)


def test_events_are_published_after_commit_only(on_redis):
    class Abort(Exception):
        pass

    def publish_then_fail():
        with transaction.atomic():
            live.publish(21, "entry", 1)
            raise Abort

    def roll_back():
        with pytest.raises(Abort):
            publish_then_fail()

    async def scenario():
        async with live.hub.subscribe(21) as mine, live.hub.subscribe(22) as other:
            await asyncio.to_thread(in_thread, roll_back)
            await asyncio.to_thread(in_thread, lambda: commit_event(21, "entry", 2))
            assert await mine.get(timeout=5) == live.Event(21, "entry", 2)
            assert await mine.get(timeout=0.3) is None
            assert await other.get(timeout=0.1) is None

    asyncio.run(scenario())


def test_a_burst_of_commits_arrives_once_each_in_commit_order(on_redis):
    # A burst of commits reaches a stream once each, in the order they committed.
    def burst():
        for n in range(100):
            commit_event(24, "entry", n)

    async def scenario():
        async with live.hub.subscribe(24) as subscription:
            await asyncio.to_thread(in_thread, burst)
            heard = [await subscription.get(timeout=5) for _ in range(100)]
            assert await subscription.get(timeout=0.3) is None
        assert heard == [live.Event(24, "entry", n) for n in range(100)]

    asyncio.run(scenario())


def test_a_lost_subscription_resyncs_every_stream(on_redis):
    async def scenario():
        async with live.hub.subscribe(23) as subscription:
            # Redis drops this process's pub/sub connections, as when it restarts (only ours:
            # other workers and runs share the Redis).
            killed = await asyncio.to_thread(kill_own_connections, on_redis.REDIS_URL, "pubsub")
            assert killed >= 1
            assert await subscription.get(timeout=10) is live.RESYNC
            # Subscribed again: events flow as before.
            await asyncio.to_thread(in_thread, lambda: commit_event(23, "entry", 5))
            assert await subscription.get(timeout=5) == live.Event(23, "entry", 5)

    asyncio.run(scenario())


def test_a_roll_commits_even_when_redis_is_down(client, party, seeded, settings, caplog):
    settings.LIVE_BACKEND = live.REDIS
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    client.force_login(party.player)
    with caplog.at_level(logging.WARNING, logger="live"):
        response = client.post(
            roll_url(party.pc, "cogent-skill", athletics(party.pc)),
            {"challenge_level": 2, "extra_penalty": 0},
        )
    assert response.status_code == 302
    assert RollEntry.objects.filter(character=party.pc).count() == 1
    assert "could not publish to Redis" in caplog.text


def test_a_publishing_connection_that_was_dropped_is_replaced_before_the_next_event(on_redis):
    # Publishes wait for no reply, so a connection Redis has closed (a restart, an idle
    # timeout, CLIENT KILL) must be noticed before writing, not after the event is lost.
    async def scenario():
        async with live.hub.subscribe(25) as subscription:
            await asyncio.to_thread(in_thread, lambda: commit_event(25, "entry", 1))
            assert await subscription.get(timeout=5) == live.Event(25, "entry", 1)
            # Every plain connection of this process's: the publisher's among them.
            killed = await asyncio.to_thread(kill_own_connections, on_redis.REDIS_URL, "normal")
            assert killed >= 1
            await asyncio.sleep(0.2)  # the close reaches this side
            for n in (2, 3):
                await asyncio.to_thread(in_thread, lambda n=n: commit_event(25, "entry", n))
            assert [await subscription.get(timeout=5) for _ in range(2)] == [
                live.Event(25, "entry", 2),
                live.Event(25, "entry", 3),
            ]

    asyncio.run(scenario())


def test_events_flow_again_once_redis_answers(on_redis, caplog):
    # A Redis that was down: its events are lost (streams catch up from the log), and the
    # first event after it answers again reaches the streams.
    good = on_redis.REDIS_URL

    async def scenario():
        async with live.hub.subscribe(26) as subscription:
            on_redis.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
            with caplog.at_level(logging.WARNING, logger="live"):
                await asyncio.to_thread(in_thread, lambda: commit_event(26, "entry", 1))
            assert "could not publish to Redis" in caplog.text
            on_redis.REDIS_URL = good
            await asyncio.to_thread(in_thread, lambda: commit_event(26, "entry", 2))
            assert await subscription.get(timeout=5) == live.Event(26, "entry", 2)

    asyncio.run(scenario())


def test_each_campaign_has_a_channel_under_the_deployments_prefix(on_redis):
    """Redis ignores database numbers for pub/sub: another deployment's events (another prefix,
    on the same Redis) are never heard, and each campaign publishes on a channel of its own."""
    import redis

    client = redis.Redis.from_url(on_redis.REDIS_URL)
    other = "poolside_someone_else"
    assert live.redis_channel(25) == f"{live.channel_prefix()}:25" != f"{other}:25"

    async def scenario():
        async with live.hub.subscribe(25) as mine:
            payload = live.Event(25, "entry", 9).to_json()
            await asyncio.to_thread(client.publish, f"{other}:25", payload)
            await asyncio.to_thread(client.publish, "poolside_events", payload)  # the old name
            assert await mine.get(timeout=0.5) is None
            watcher = client.pubsub()
            await asyncio.to_thread(watcher.subscribe, live.redis_channel(25))
            await asyncio.to_thread(in_thread, lambda: commit_event(25, "entry", 10))
            assert await mine.get(timeout=5) == live.Event(25, "entry", 10)
            heard = None
            for _ in range(20):
                message = await asyncio.to_thread(watcher.get_message, timeout=0.5)
                if message and message["type"] == "message":
                    heard = message["channel"].decode()
                    break
            watcher.close()
            assert heard == live.redis_channel(25)

    asyncio.run(scenario())
