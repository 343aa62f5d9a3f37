"""What the roll benchmarks check besides speed: every campaign's chain intact, and every open
stream heard every entry of its campaign exactly once, in log order (bench-http, bench-click,
bench-delivery)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from contextlib import suppress

from benchmarks import common


def chains_intact(campaign_ids: Sequence[int]) -> bool:
    from log.models import RollEntry

    broken = []
    for campaign_id in campaign_ids:
        report = RollEntry.objects.verify_chain(campaign_id)
        if not report.intact:
            broken.append(f"campaign {campaign_id}: {report.reason}")
    for problem in broken:
        print(f"  CHAIN BROKEN — {problem}")
    return not broken


def heads(campaign_ids: Sequence[int]) -> dict[int, int]:
    """The newest entry id of each campaign (0 for none)."""
    from django.db.models import Max

    from log.models import RollEntry

    found = dict(
        RollEntry.objects.filter(campaign_id__in=campaign_ids)
        .values("campaign_id")
        .annotate(top=Max("pk"))
        .values_list("campaign_id", "top")
    )
    return {c: found.get(c) or 0 for c in campaign_ids}


def made_since(before: dict[int, int]) -> dict[int, list[str]]:
    """Every entry each campaign gained after ``before`` (its head then), as tokens in log
    (chain) order: what the database says its streams must have heard, and in what order."""
    from log.models import RollEntry
    from log.tokens import entry_token

    return {
        campaign_id: [
            entry_token(pk)
            for pk in RollEntry.objects.filter(campaign_id=campaign_id, pk__gt=head)
            .order_by("seq")
            .values_list("pk", flat=True)
        ]
        for campaign_id, head in before.items()
    }


class Streams:
    """One SSE stream per campaign, held by an asyncio loop on a thread of its own while the
    load's threads run."""

    def __init__(
        self, port: int, streams: dict[int, str], paths: dict[int, str] | None = None
    ) -> None:
        """``streams``: cookie by campaign id (or any key, given each key's path in ``paths``)."""
        from django.urls import reverse

        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.subscribers = {c: common.Subscriber() for c in streams}
        self.paths = paths or {c: reverse("campaign_events", args=[c]) for c in streams}
        self.port, self.cookies = port, streams
        self.tasks: list[asyncio.Task[None]] = []

    def __enter__(self) -> Streams:
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self.loop).result(60)
        return self

    async def _open(self) -> None:
        for c, subscriber in self.subscribers.items():
            task = self.loop.create_task(subscriber.run(self.port, self.paths[c], self.cookies[c]))
            self.tasks.append(task)
        subscribers = self.subscribers.values()
        await asyncio.wait_for(asyncio.gather(*(s.caught_up.wait() for s in subscribers)), 30)
        failed = [s.error for s in subscribers if s.error]
        if failed:
            raise RuntimeError(f"{len(failed)} streams failed to open, e.g. {failed[0]}")

    def wait_for(self, expected: dict[int, list[str]], timeout: float) -> None:
        """Until every stream has heard every entry it should (or ``timeout``)."""

        async def everything() -> None:
            await asyncio.gather(
                *(self.subscribers[c].wait_for(t) for c, tokens in expected.items() for t in tokens)
            )

        with suppress(TimeoutError):  # the check reports what is missing
            asyncio.run_coroutine_threadsafe(
                asyncio.wait_for(everything(), timeout), self.loop
            ).result(timeout + 5)
        time.sleep(0.5)  # a repeat would come right behind: give it the chance to show

    def __exit__(self, *exc: object) -> None:
        async def close() -> None:
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def streams_right(
    streams: Streams, expected: dict[int, list[str]], posted: dict[int, list[str]]
) -> bool:
    """Every stream heard every entry of its campaign exactly once, in log order, and the rolls'
    own redirects named entries the database has."""
    right = True
    for campaign_id, tokens in expected.items():
        subscriber = streams.subscribers[campaign_id]
        problems = common.stream_problems(tokens, subscriber.entries)
        stray = sorted(set(posted.get(campaign_id, [])) - set(tokens))
        if stray:
            problems["redirected to entries not in the campaign"] = stray
        if subscriber.error:
            problems["stream error"] = [subscriber.error]
        wrong = {kind: found for kind, found in problems.items() if found}
        if wrong:
            right = False
            summary = "; ".join(f"{k}: {len(v)} (e.g. {v[0]})" for k, v in wrong.items())
            print(f"  STREAM of campaign {campaign_id} ({len(tokens)} entries): {summary}")
    if right:
        total = sum(len(tokens) for tokens in expected.values())
        print(
            f"  streams: {len(expected)} streams heard their {total} entries, each exactly once, "
            "in log order"
        )
    return right
