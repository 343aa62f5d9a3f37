"""Reading a campaign's SSE stream in tests: AsyncClient under asyncio.run, writers on threads."""

import asyncio
import re
import threading
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient, Client
from django.urls import reverse

from log.models import RollEntry
from tests.rolls.helpers import athletics, roll_url, token


@dataclass
class Message:
    event: str = "message"
    id: str | None = None
    data: str = ""
    comments: list[str] = field(default_factory=list)
    retry: int | None = None


def parse(block: str) -> Message:
    message, data = Message(), []
    for line in block.split("\n"):
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "":
            message.comments.append(value)
        elif name == "event":
            message.event = value
        elif name == "id":
            message.id = value
        elif name == "data":
            data.append(value)
        elif name == "retry":
            message.retry = int(value)
    message.data = "\n".join(data)
    return message


OPEN: list["Reader"] = []


def run(scenario) -> None:
    """asyncio.run(scenario()), then close every stream it left open (as a disconnect would)."""

    async def main():
        try:
            await scenario()
        finally:
            while OPEN:
                await OPEN.pop().close()
            # The async ORM calls of the views (session, user) ran on asgiref's shared thread:
            # give its connection back, or the test database can't be dropped at the end.
            await sync_to_async(connections.close_all)()

    asyncio.run(main())


class Reader:
    """Messages of one open stream, one at a time."""

    def __init__(self, response) -> None:
        OPEN.append(self)
        self.response = response
        self.content = aiter(response.streaming_content)
        self.buffer = ""
        self.pending: list[Message] = []  # replayed before the stream said it was caught up
        self.retry: int | None = None  # the reconnect delay (ms) the stream sent once caught up

    async def next(self, timeout: float = 5) -> Message:
        if self.pending:
            return self.pending.pop(0)
        while "\n\n" not in self.buffer:
            chunk = await asyncio.wait_for(anext(self.content), timeout)
            self.buffer += chunk.decode()
        block, self.buffer = self.buffer.split("\n\n", 1)
        return parse(block)

    async def next_event(self, timeout: float = 5) -> Message:
        """The next message that is an event (keep-alive comments skipped)."""
        while True:
            message = await self.next(timeout)
            if not message.comments and message.retry is None:
                return message

    async def silent(self, timeout: float = 0.5) -> bool:
        """True when no event arrives within ``timeout`` (the stream is unusable afterwards)."""
        try:
            await self.next_event(timeout)
        except TimeoutError:
            return True
        return False

    async def ended(self, timeout: float = 5) -> bool:
        """True when the server ends the stream (keep-alives before that are fine)."""
        try:
            while not (await self.next(timeout)).data:
                pass
        except StopAsyncIteration:
            return True
        return False

    async def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
        # Innermost first — the view's own generator, which leaves the hub — as a disconnect
        # would; closing only the outer wrappers leaves it to the loop's shutdown, out of order.
        await self.response._iterator.aclose()
        await self.content.aclose()


def events_url(campaign, **params) -> str:
    url = reverse("campaign_events", args=[campaign.pk])
    if params:
        url += "?" + "&".join(f"{k}={v}" for k, v in params.items())
    return url


async def open_stream(client, campaign, *, headers=None, **params) -> Reader:
    response = await client.get(events_url(campaign, **params), headers=headers or {})
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    reader = Reader(response)
    # The stream replays what was missed, then sends its retry hint: from then on it is live.
    replayed = []
    while (message := await reader.next()).retry is None:
        replayed.append(message)
    reader.pending = replayed
    reader.retry = message.retry  # the reconnect delay this stream was told
    return reader


def in_thread(function):
    """Run blocking ORM work as a sync view would: on another thread with its own connection."""
    result, errors = [], []

    def target():
        try:
            result.append(function())
        except Exception as error:  # re-raised below, in the test
            errors.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


async def off_loop(function):
    return await asyncio.to_thread(in_thread, function)


def post_roll(user, character, skill, **data):
    """The roll POST a browser makes (no HTMX): returns the response."""
    client = Client()
    client.force_login(user)
    return client.post(
        roll_url(character, "cogent-skill", skill),
        {"challenge_level": 1, "extra_penalty": 0, **data},
    )


def client_for(user) -> AsyncClient:
    client = AsyncClient()
    client.force_login(user)
    return client


# A roll made off the event loop and what only its readers may see (test_live_visibility.py,
# test_live_table.py).
def roll(party, user, visibility):
    def go():
        response = post_roll(
            getattr(party, user), party.pc, athletics(party.pc), visibility=visibility
        )
        assert response.status_code == 302, response.content.decode()
        return RollEntry.objects.order_by("-pk").first()

    return off_loop(go)


# An entry's token is 16 random-looking hex digits, repeated in its card's ids and links: a short
# secret such as the pool's "6d6" turns up inside one now and then. Look for leaks in a card's
# words, with the tokens taken out (``words``).
_TOKENS = re.compile(r"[0-9a-f]{16}")


def words(html: str) -> str:
    return _TOKENS.sub("", html)


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
