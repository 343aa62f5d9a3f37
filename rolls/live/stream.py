"""The campaign's live stream: Server-Sent Events from an async view, served under ASGI.

``GET /campaigns/<pk>/events/`` streams, for one member, every change of the campaign they may know
of (docs/live.md):

* ``event: entry`` with ``id: <entry token>`` (log/tokens.py: never the pk, whose gaps would
  count hidden rolls) and, as data, the entry's log item (``<li>`` + card) rendered for that
  member through ``card_for`` — nothing at all for an entry they may not know exists;
* ``event: sheet`` / ``call`` / ``contest`` with ``data: <id>`` only: components re-fetch their own
  permission-checked partial.

Resuming: ``Last-Event-ID`` (the browser's own reconnects) or ``?last_id=`` (the page's newest entry,
or live.js after htmx re-created the EventSource) replays every entry after that id the member may
see, then streams new ones. A ``RESYNC`` from the hub re-reads from the last id sent, so a stream
never skips an entry: events only make delivery fast, the database decides what is sent.

Efficiency: a stream holds no database connection while idle — every read runs on a worker thread
that closes its connection when done. When one event wakes many streams of a campaign in a process,
the entry is read once and each audience's card (GM, roller, other members) rendered once, in
:class:`SharedReads`, not once per subscriber.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator, Callable, Coroutine

from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.db.models import Max, Q
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

import live
from log.models import HiddenEntry, RollEntry
from log.tokens import entry_token
from rolls.live.logins import Login, Roster
from rolls.live.pages import VIEWS, resume_point, what_to_stream
from rolls.live.shared import shared_reads
from rolls.models import Contest, RollCallTarget
from sheets.models import Character, Membership
from web.http import AuthenticatedHttpRequest

logger = logging.getLogger(__name__)

KEEPALIVE = 15.0  # seconds between comment lines on a quiet stream (proxies drop silent ones)
# The browser's reconnect delay after a dropped connection: each stream is told a time of its own
# between RETRY_MS and RETRY_MS + RETRY_JITTER_MS, so that after a restart every open page does not
# come back in the same instant (a reconnect storm), but spread over those seconds.
RETRY_MS = 1000
RETRY_JITTER_MS = 4000
RECHECK = 15.0  # seconds between membership re-checks (removals also announce themselves)
REPLAY_BATCH = 100  # entries read per query while catching up
REREAD = 1.0  # seconds between attempts to re-read after a failed read
FORWARDED = frozenset({"sheet", "call", "contest"})  # kinds sent as ``data: <kind>``, no id
KEEPALIVE_COMMENT = b": keep-alive\n\n"


def retry_hint() -> bytes:
    """The ``retry:`` line a stream sends once caught up: its own reconnect delay, jittered."""
    # Jitter spreads reconnects; nothing guessable rides on it.
    jitter = random.randrange(RETRY_JITTER_MS + 1)  # noqa: S311
    return f"retry: {RETRY_MS + jitter}\n\n".encode()


# ---------------------------------------------------------------------------------------------
# Database access off the event loop
# ---------------------------------------------------------------------------------------------


def _db[**P, R](function: Callable[P, R]) -> Callable[P, Coroutine[object, object, R]]:
    """Run ``function`` on a worker thread and close that thread's connection afterwards.

    A stream may stay open for hours; it must not pin a database connection while it waits.
    ``thread_sensitive=False``: reads shared between streams must not depend on the thread of
    the request that happened to start them (it may end first)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    return sync_to_async(run, thread_sensitive=False)


def _member_and_character(
    campaign_id: int, user_id: int, character_id: int | None
) -> tuple[Membership | None, Character | None]:
    """On the request's own thread, after the login check: the membership, the character asked
    for (if any), and then that thread's connection given back."""
    try:
        membership = _membership(campaign_id, user_id)
        if membership is None or character_id is None:
            return membership, None
        return membership, _load_character(character_id)
    finally:
        connection.close()  # looked up here: ``connection`` is the calling thread's own


def _membership(campaign_id: int, user_id: int) -> Membership | None:
    return Membership.objects.filter(campaign_id=campaign_id, user_id=user_id).first()


def _position(campaign_id: int, resume_pk: int | None) -> tuple[int, int]:
    """Where a stream starts in the campaign's chain, as ``seq`` numbers: the newest entry's,
    and the one of the resume point — the last entry at or before the entry the browser last
    had (its newest, when there is no resume point or it lies beyond the newest)."""
    found = RollEntry.objects.filter(campaign_id=campaign_id).aggregate(
        head=Max("seq"),
        resume=Max("seq", filter=Q(pk__lte=resume_pk)) if resume_pk is not None else Max("seq"),
    )
    return found["head"] or 0, found["resume"] or 0


def _head(campaign_id: int) -> int:
    """The newest ``seq`` of the campaign's chain: what a catch-up reads up to."""
    return _position(campaign_id, None)[0]


def render_item(card: RollEntry | HiddenEntry, membership: Membership, view: str = "log") -> str:
    """One entry as the page of ``view`` lists it — exactly what that page's list holds (chain
    numbers for the GM only, as there). ``viewer``: whose stream it is — only ever compared with
    the entry's roller, which is its own audience (``audience``), so one render still serves a
    whole audience."""
    context = {"entry": card, "show_seq": membership.is_gm, "viewer": membership.user_id}
    return render_to_string(VIEWS[view], context)


def _replay(
    membership: Membership, after: int, upto: int, character_id: int | None, view: str = "log"
) -> list[tuple[int, int, str]]:
    """Up to REPLAY_BATCH entries the member may know exist with ``after < seq <= upto``, in
    chain order, as (pk, seq, item) drawn for ``view``."""
    qs = RollEntry.objects.visible_to(membership).filter(seq__gt=after, seq__lte=upto)
    if character_id is not None:
        qs = qs.filter(character_id=character_id)
    if character_id is not None or view == "table":  # rolls lists: never a message
        qs = qs.rolls()
    return [
        (entry.pk, entry.seq, render_item(entry.card_for(membership), membership, view))
        for entry in qs.for_cards().with_session().order_by("seq")[:REPLAY_BATCH]
    ]


def _load_entry(pk: int) -> RollEntry | None:
    """One entry with everything visibility and the card need, shared by every audience: one
    statement, with whether a reveal has opened it (which visibility and the card read). Every
    stream that is not the only one of its campaign in its process shares the read."""
    found = (
        RollEntry.objects.for_cards()
        .select_related("character")
        .with_revealed()
        .with_session()  # the log item's session heading
        .filter(pk=pk)
    )
    return next(iter(found), None)


def _render_for(entry: RollEntry, membership: Membership, view: str = "log") -> str | None:
    """The item for this member's audience, or None when they may not know the entry exists."""
    if not entry.is_known_to(membership):
        return None
    return render_item(entry.card_for(membership), membership, view)


def _load_character(pk: int) -> Character | None:
    return Character.objects.only("pk", "campaign_id", "hidden_from_players").filter(pk=pk).first()


def _readable_by_players(kind: str, pk: int) -> bool:
    """May a player read the call or contest? Only through a character they may read: a call
    that targets, or a contest whose sides are, only hidden NPCs is the GM's alone."""
    if kind == "call":
        if pk == 0:  # an assist request asked or answered: never a hidden NPC's (assist_ask)
            return True
        return RollCallTarget.objects.filter(
            call_id=pk, character__hidden_from_players=False
        ).exists()
    return (
        Contest.objects.filter(pk=pk)
        .filter(
            Q(character_a__hidden_from_players=False) | Q(character_b__hidden_from_players=False)
        )
        .exists()
    )


def audience(entry: RollEntry, membership: Membership) -> str:
    """Members who see an entry the same way (docs/permissions.md): the GM, the roller (who
    alone reads their GM-only roll and sees their blind roll's placeholder), a whisper's
    recipients, everyone else."""
    if membership.is_gm:
        return "gm"
    if entry.roller_id is not None and entry.roller_id == membership.user_id:
        return "roller"
    if membership.user_id in entry.recipient_ids:  # a whisper's: never shared with "member"
        return "recipient"
    return "member"


# ---------------------------------------------------------------------------------------------
# The stream
# ---------------------------------------------------------------------------------------------


def sse(kind: str, data: str, id: str | None = None) -> bytes:
    """One SSE message, encoded as the stream sends it (UTF-8); multi-line data becomes one
    ``data:`` line per line."""
    lines = [f"event: {kind}"]
    if id is not None:
        lines.append(f"id: {id}")
    lines += [f"data: {line}" for line in (data.splitlines() or [""])]
    return ("\n".join(lines) + "\n\n").encode()


# Each forwarded kind's message, the same for every stream: its data names the kind, nothing else.
FORWARDED_MESSAGES = {kind: sse(kind, kind) for kind in FORWARDED}


class Stream:
    def __init__(
        self,
        membership: Membership,
        last_id: int | None,
        character_id: int | None,
        login: Login | None = None,
        table: bool = False,
        view: str = "log",
    ) -> None:
        self.membership = membership
        self.table = table  # a sheet's stream that also shows the table's rolls (?table=1)
        self.view = view  # how entries are drawn: VIEWS' key (the GM table's stream: "table")
        self.login = login  # None: not bound to a session (tests that build a Stream)
        self.campaign_id = membership.campaign_id
        self.user_id = membership.user_id
        self.resume_after = last_id  # an entry's pk; None: from the newest entry on
        # The cursor: the chain position (``seq``) of the newest entry sent or passed over, set
        # from resume_after once subscribed. Positions, not pks: a campaign's entries commit in
        # ``seq`` order under its log head's lock, so every entry up to a committed one's
        # position is committed too, and a stream that reads up to it misses none.
        self.last_seq = 0
        self.character_id = character_id

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async with live.hub.subscribe(self.campaign_id, user=self.user_id) as subscription:
            loop = asyncio.get_running_loop()
            # Subscribed first, then read: a logout from here on is heard, and one before is
            # seen in the session's row. Likewise for entries. A resume point beyond the
            # newest entry (a token from before SECRET_KEY changed) would silence the stream
            # until some entry overtook it: it starts at the newest instead.
            # Everything a stream needs to start is read in one go, on one connection: its
            # session, where it starts, and its first replay batch. A reconnect storm (a
            # restart: every open page at once) is then one borrowed connection per stream.
            start = await _db(self.start)()
            if start is None:
                return
            left, head, first = start
            async for message in self.catch_up(upto=head, first=first):
                yield message
            # Caught up: from here on events drive the stream.
            yield retry_hint()
            async for message in self.events(subscription, loop, loop.time() + left):
                yield message

    async def events(
        self, subscription: live.Subscription, loop: asyncio.AbstractEventLoop, expires: float
    ) -> AsyncIterator[bytes]:
        """The stream once caught up: events, keep-alives, login and membership checks. A read
        that fails (the database restarting, the pool exhausted for longer than its timeout)
        doesn't end the stream: its cursor stays where it was, and the stream re-reads from it
        every REREAD seconds until a read succeeds, so nothing is lost and nothing is sent
        twice (issue 32's bench-delivery found streams ending that way under load)."""
        checked = loop.time()
        # Keep-alives keep their own clock: were the wait restarted by every event, a member
        # would see the rhythm break when an entry they may not know of woke their stream.
        beat = loop.time() + KEEPALIVE
        behind = False
        while True:
            until = beat if beat <= expires else expires
            wake = min(until, loop.time() + REREAD) if behind else until
            event = await subscription.get(until=wake)
            try:
                if behind:
                    async for message in self.catch_up():
                        yield message
                    behind = False
                    if event is None and wake != until:
                        continue  # woken only to re-read
                if (event is None and until == expires) or (
                    event is not None and event.kind == live.USER
                ):
                    # The session's end is due, or a change to this user's login was announced:
                    # only then is the session read again.
                    if (renewed := await self.logged_in(loop)) is None:
                        return  # logged out: the stream ends; reconnects are sent to log in
                    expires = renewed
                    if event is not None or until != beat:
                        continue
                mine = event is not None and event.kind == "member" and event.id == self.user_id
                if mine or loop.time() - checked >= RECHECK:
                    membership = await self.recheck(fresh=mine)
                    if membership is None:
                        return  # removed: the stream ends; reconnects get a 404
                    self.membership, checked = membership, loop.time()
                if event is None:
                    beat += KEEPALIVE
                    yield KEEPALIVE_COMMENT
                else:
                    async for message in self.on_event(event):
                        yield message
            except DatabaseError as error:
                logger.warning("Live stream: a read failed (%s); re-reading shortly", error)
                behind = True

    async def on_event(self, event: live.Event) -> AsyncIterator[bytes]:
        if event is live.RESYNC:
            async for message in self.catch_up():
                yield message
        elif event.kind == "entry":
            card = await self.entry(event.id)
            if card:
                yield card
        elif event.kind in FORWARDED and await self.forwards(event):
            yield self.forwarded(event)

    def start(self) -> tuple[float, int, list[tuple[int, int, str]]] | None:
        """On a worker thread, once subscribed: seconds until the session expires, the chain's
        head, and the first batch of the catch-up from the resume point; None when the session
        no longer logs its user in."""
        left = float("inf") if self.login is None else self.login.expiry()
        if left is None:
            return None
        head, resumed = _position(self.campaign_id, self.resume_after)
        self.last_seq = head if self.resume_after is None else resumed
        first = []
        if self.last_seq < head:
            first = _replay(self.membership, self.last_seq, head, self.character_id, self.view)
        return left, head, first

    async def logged_in(self, loop: asyncio.AbstractEventLoop) -> float | None:
        """The loop time at which the stream's session expires (re-checked then), or None
        when it no longer logs its user in."""
        if self.login is None:
            return float("inf")
        left = await _db(self.login.expiry)()
        return None if left is None else loop.time() + left

    async def recheck(self, *, fresh: bool) -> Membership | None:
        """This member's membership as it is now (None: gone, or the login no longer valid).
        The periodic re-check is one read
        per campaign and RECHECK window, shared by the process's streams of that campaign — at
        thousands of streams, one query each every RECHECK seconds was a steady load of its own
        — so a change noticed this way shows within two windows; a ``member`` event about this
        member (``fresh``) reads at once."""
        if fresh:
            return await _db(_membership)(self.campaign_id, self.user_id)
        shared = shared_reads()
        window = int(shared.loop.time() // RECHECK)
        campaign_id = self.campaign_id
        roster = await shared.get(
            ("members", campaign_id, window), lambda: _db(Roster)(campaign_id)
        )
        if self.login is not None and not roster.logs_in(self.login):
            return None  # deactivated, logged out or a new password, unannounced: it ends
        return roster.members.get(self.user_id)

    async def catch_up(
        self, upto: int | None = None, first: list[tuple[int, int, str]] | None = None
    ) -> AsyncIterator[bytes]:
        """Every entry this member may know of after the cursor, up to position ``upto`` (the
        chain's head, read first: an entry committed during the catch-up comes by its event).
        ``first``: the first batch, read already (by :meth:`start`)."""
        if upto is None:
            upto = await _db(_head)(self.campaign_id)
        while self.last_seq < upto:
            if first is not None:
                batch, first = first, None
            else:
                batch = await _db(_replay)(
                    self.membership, self.last_seq, upto, self.character_id, self.view
                )
            for pk, seq, html in batch:
                self.last_seq = seq
                yield sse("entry", html, id=entry_token(pk))
            if len(batch) < REPLAY_BATCH:
                self.last_seq = upto  # the rest up to it: entries this member may not know of
                return

    async def entry(self, pk: int) -> bytes | None:
        """The message(s) an entry event brings: nothing when the cursor is past it (sent
        already); the entry, when it is the next one; and when it skips ahead (its event
        overtook an earlier one's, as events sent after commit from several threads or
        processes may), everything up to it read from the database first — so every stream
        sends each entry once, in chain order, whatever order the transport delivers in."""
        cursor = self.last_seq
        try:
            return await self._entry(pk)
        except DatabaseError:
            self.last_seq = cursor  # nothing was sent: the stream re-reads from here
            raise

    async def _entry(self, pk: int) -> bytes | None:
        shared = shared_reads()
        entry = await shared.get(("entry", pk), lambda: _db(_load_entry)(pk))
        if entry is None or entry.campaign_id != self.campaign_id:
            return None
        if entry.seq <= self.last_seq:
            return None  # already sent, or passed over, by a catch-up
        if entry.seq > self.last_seq + 1:
            messages = [message async for message in self.catch_up(upto=entry.seq)]
            return b"".join(messages) or None
        self.last_seq = entry.seq
        if not entry.info.on_roll_lists and (self.character_id is not None or self.view == "table"):
            return None  # a sheet and the table list rolls: a message is the log's
        if self.character_id is not None and entry.character_id != self.character_id:
            return await self.table_entry(entry) if self.table else None
        membership, view = self.membership, self.view

        async def message() -> bytes | None:
            html = await _db(_render_for)(entry, membership, view)
            return None if html is None else sse("entry", html, id=entry_token(pk))

        # The whole message, encoded, once per audience and view: with thousands of streams,
        # formatting it per stream (the token's eight BLAKE2b rounds, a data: line per line of
        # the card, the encoding) was a share of the fan-out that grew with every stream.
        return await shared.get(("card", pk, audience(entry, membership), view), message)

    async def table_entry(self, entry: RollEntry) -> bytes | None:
        """Another character's roll on a sheet that shows the table's: a ``table`` event with
        the card the log would get (nothing for a roll this member may not know of), without
        an id, so the stream's resume point stays the sheet's own. Live only: a catch-up sends
        the sheet's own rolls alone."""
        membership = self.membership

        async def message() -> bytes | None:
            html = await _db(_render_for)(entry, membership)
            return None if html is None else sse("table", html)

        key = ("table", entry.pk, audience(entry, membership))
        return await shared_reads().get(key, message)

    def forwarded(self, event: live.Event) -> bytes:
        """The kind alone: components re-fetch their own partial, and an id would be a database
        id in a player's hands. The GM, who reads every character, is told which character a
        sheet event is about: the GM table fetches that one card, not the whole table. A call or
        contest a roll answered names that roll's token (sent only to members who know of it):
        a sheet that had the roll already has the prompts it changed."""
        if event.kind == "sheet" and self.membership.is_gm:
            return sse("sheet", str(event.id))
        if event.cause is not None:
            return sse(event.kind, f"{event.kind} {entry_token(event.cause)}")
        return FORWARDED_MESSAGES[event.kind]

    async def knows(self, pk: int) -> bool:
        """May this member know the entry exists? (The GM knows every entry.)"""
        if self.membership.is_gm:
            return True
        entry = await shared_reads().get(("entry", pk), lambda: _db(_load_entry)(pk))
        return entry is not None and entry.is_known_to(self.membership)

    async def forwards(self, event: live.Event) -> bool:
        if event.cause is not None and not await self.knows(event.cause):
            return False
        if event.kind != "sheet":
            if self.membership.is_gm:
                return True
            kind, pk = event.kind, event.id
            return bool(
                await shared_reads().get(
                    ("readable", kind, pk), lambda: _db(_readable_by_players)(kind, pk)
                )
            )
        if self.character_id is not None and event.id != self.character_id:
            return False
        if self.membership.is_gm:
            return True
        character = await shared_reads().get(
            ("character", event.id), lambda: _db(_load_character)(event.id)
        )
        return character is not None and character.can_read(self.membership)


class EventStreamResponse(StreamingHttpResponse):
    """A stream of messages that are bytes already, handed to the server as they are.

    ``StreamingHttpResponse`` passes each part of an async stream through two generators of its
    own and ``make_bytes`` (which, for a ``str``, reads the charset from the headers and the
    settings): with one event sent to thousands of streams, that was a tenth of the fan-out's
    time (docs/performance.md). The stream here yields only ``bytes``, so the server takes its
    iterator directly. Set ``streaming_content`` (as a middleware may) and the new content is
    what is sent: it, too, must be an async iterator of bytes."""

    events: AsyncIterator[bytes]

    @property
    def streaming_content(self) -> AsyncIterator[bytes]:
        return self.events

    @streaming_content.setter
    def streaming_content(self, value: AsyncIterator[bytes]) -> None:
        # Django's setter first: it marks the response async and closes the stream at the end.
        StreamingHttpResponse.streaming_content.fset(self, value)  # type: ignore[union-attr]
        self.events = aiter(value)

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self.events


@login_required
@require_GET
def campaign_events(
    request: AuthenticatedHttpRequest, pk: int
) -> HttpResponse | StreamingHttpResponse:
    # A sync view answering with an async stream: its checks run in the request's thread with the
    # middleware (web/stack.py), and only the stream itself runs on the event loop.
    try:
        last_id = resume_point(request)
        character_pk, table, view = what_to_stream(request)
    except ValueError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain")
    user = request.user
    # The login check read the session and the user on this request's thread: the membership
    # (and the character) are read there too, on the same connection, which is then given back.
    # Django would only give it back when the request finishes — never, for a stream: every
    # open stream would pin a connection, and a burst of new streams deadlock the pool.
    membership, found = _member_and_character(pk, user.pk, character_pk)
    if membership is None:
        raise Http404("No such campaign.")
    if view == "table" and not membership.is_gm:
        raise PermissionDenied("The table's stream is the GM's.")
    character_id = None
    if character_pk is not None:
        if found is None or not found.can_read(membership):
            raise Http404("No such character.")
        character_id = found.pk
    if not isinstance(request, ASGIRequest):
        # Under WSGI a never-ending response would pin a worker thread (and its database
        # connection) for good; pages still work, they just don't update live.
        return HttpResponse(
            "Live updates need the ASGI server: uvicorn config.asgi:application.",
            status=501,
            content_type="text/plain",
        )
    # The stream lives as long as this login: the session it came with, and the session hash
    # (the password) its user had (docs/live.md#a-stream-ends-with-its-login).
    login = Login(request.session.session_key, user.pk, user.get_session_auth_hash())
    response = EventStreamResponse(
        Stream(membership, last_id, character_id, login, table=table, view=view),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response
