"""One Roll click as a table sees it: every request the open pages make, their bytes, the
statements and the server CPU it causes — measured in Chromium, then replayed without it.

A server as ``make run`` serves it (uvicorn, benchmarks.asgi: config.asgi with the bare view added;
PostgreSQL; DEBUG off; ``BENCH_STATEMENTS=1`` counts its statements, benchmarks/statements.py).
One campaign, a GM table of CHARACTERS characters, each rolled once. Open as live pages in
Debian's Chromium (/usr/bin/chromium, never a downloaded browser), each context logged in as its
user: the roller's sheet, the GM table, two other players' sheets and the GM's log.

1. **Chromium.** The roller opens the roll panel, then clicks Roll, CLICKS times. Per click,
   from Chromium's DevTools protocol: the requests each page made (the event stream aside) and
   their bytes on the wire, plus the event bytes each page's stream received; from the server,
   its statements and its process CPU time (utime + stime, /proc/<pid>/stat: CPU time, which a
   loaded machine distorts less than wall time). A click is over once no page has a request in
   flight or an event arriving for a second (recording.QUIET): its window holds that second of
   the server idling, so the same figure is also given less the server's idle CPU over as long
   (measured for IDLE_SECONDS with the pages open after the clicks).
2. **Replay.** The last click's requests, exactly as Chromium sent them (headers, cookies, CSRF,
   body), are replayed without a browser: the htmx roll, then — once every page's stream (held
   open as a raw socket) has received the entry — every follow-up request the pages made.
   CLICKS × REPLAYS times: statements and server CPU per click, set against the bare view's
   (benchmarks/views.py: one INSERT, one small template, the same middleware) request.
3. **Throughput.** The htmx roll POST alone, replayed with its headers by CLIENTS client threads
   in this process, each in a campaign of its own, against the bare view in alternating slices
   (http_rolls.py's method); the plain-form roll (no JavaScript: a 302) as a secondary row.

Targets (issue 31): the roller's page 1 request per click; the GM table at most 1 request and
TABLE_BYTES per roll, event bytes included; every other page at most 1 request; the htmx roll's
throughput at least 35% of the bare view's; the server CPU of a click, all pages and events
together, at most 8× the bare view's request. Run with ``make bench-click``; ``BENCH_CLICKS``,
``BENCH_SECONDS`` and ``BENCH_WARMUP`` shorten it.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

if __package__ in (None, ""):
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))

from benchmarks import common, delivery, http_rolls, recording
from benchmarks.recording import Recorder, Sent, send, short

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext

CLICKS = int(os.environ.get("BENCH_CLICKS", "10"))
REPLAYS = 5  # the replay sends each click's requests this many times as often as Chromium did
CHARACTERS = 60
BARE_REQUESTS = 200
TABLE_BYTES = 15_000
TARGET_SHARE = 0.35
TARGET_CPU_RATIO = 8.0
IDLE_SECONDS = 5.0  # the open pages' idle cost, measured after the clicks


@dataclass
class Table:
    campaign_id: int
    sessions: dict[str, str]  # username → session key
    pages: dict[str, tuple[str, str]]  # page name → (username, path)
    roller_skill: int
    jobs: list[tuple[Any, Any]]  # the throughput clients: (character, skill)


def make_table() -> Table:
    """The campaign: a GM, CHARACTERS characters of as many players, each rolled once."""
    from django.test import Client
    from django.urls import reverse

    campaign = common.campaign("bench-click")
    gm = campaign.memberships.get().user
    heroes = []
    for n in range(CHARACTERS):
        hero = common.character(campaign, f"bench-click-p{n}", f"Hero {n}")
        player = Client(HTTP_HOST="127.0.0.1")
        player.force_login(hero.owner)
        skill = hero.cogent.skills.first()
        roll = reverse("roll_create", args=[hero.pk, "cogent-skill", skill.pk])
        assert player.post(roll, {"challenge_level": 3, "extra_penalty": 0}).status_code == 302
        heroes.append(hero)
    # A skill rated above 0: the sheet folds the others away, and the roller clicks this one.
    skill = heroes[0].cogent.skills.first()
    heroes[0].cogent.skills.filter(pk=skill.pk).update(rating=2)
    users = [gm] + [hero.owner for hero in heroes[:3]]
    sessions = {u.username: common.session_cookie(u) for u in users}
    pages = {
        "roller's sheet": (heroes[0].owner.username, heroes[0].get_absolute_url()),
        "GM table": (gm.username, reverse("campaign_dashboard", args=[campaign.pk])),
        "player 2's sheet": (heroes[1].owner.username, heroes[1].get_absolute_url()),
        "player 3's sheet": (heroes[2].owner.username, heroes[2].get_absolute_url()),
        "GM's log": (gm.username, reverse("campaign_log", args=[campaign.pk])),
    }
    jobs = []
    for n in range(http_rolls.CLIENTS):
        own = common.character(common.campaign(f"bench-click-{n}"), f"bench-click-c{n}", "Runner")
        jobs.append((own, own.cogent.skills.first()))
    return Table(campaign.pk, sessions, pages, skill.pk, jobs)


# ---------------------------------------------------------------------------------------------
# The server: process CPU and statements
# ---------------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far, all threads, user and system."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def statements(port: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", "/bench/statements/")
        return int(json.loads(conn.getresponse().read())["statements"])
    finally:
        conn.close()


@dataclass
class Cost:
    cpu: float = 0.0  # seconds
    statements: int = 0
    count: int = 0  # clicks or requests measured
    seconds: float = 0.0  # wall time measured over

    def per(self) -> tuple[float, float]:
        """CPU ms and statements per click (or request)."""
        n = self.count or 1
        return self.cpu * 1000 / n, self.statements / n


class Meter:
    """The server's CPU and statements between ``start()`` and ``stop()``, added up. The
    statement count is read outside the CPU window, so its own request costs nothing here."""

    def __init__(self, port: int, pid: int) -> None:
        self.port, self.pid, self.cost = port, pid, Cost()

    def start(self) -> None:
        self._statements = statements(self.port)
        self._cpu, self._started = cpu_seconds(self.pid), time.monotonic()

    def stop(self, count: int = 1) -> None:
        self.cost.cpu += cpu_seconds(self.pid) - self._cpu
        self.cost.seconds += time.monotonic() - self._started
        self.cost.statements += statements(self.port) - self._statements
        self.cost.count += count


# ---------------------------------------------------------------------------------------------
# 1. Chromium
# ---------------------------------------------------------------------------------------------


def open_pages(browser: Browser, base: str, table: Table) -> dict[str, Recorder]:
    from playwright.sync_api import expect

    contexts: dict[str, BrowserContext] = {}
    recorders = {}
    for name, (username, path) in table.pages.items():
        if username not in contexts:
            context = browser.new_context(base_url=base)
            context.set_default_timeout(20_000)
            cookie = {"name": "sessionid", "value": table.sessions[username], "url": base}
            context.add_cookies([cookie])
            contexts[username] = context
        page = contexts[username].new_page()
        recorder = Recorder(name, page)
        recorder.attach()
        page.goto(path)
        live = page.locator("[data-live-status]")
        expect(live).to_have_text("Live: new rolls appear as they happen.")
        recorders[name] = recorder
    return recorders


@dataclass
class Clicks:
    """Per page: requests and bytes (event bytes included) over all clicks; the last click's
    requests, for the replay; the server's cost."""

    requests: dict[str, int] = field(default_factory=dict)
    bytes: dict[str, int] = field(default_factory=dict)
    stream_bytes: dict[str, int] = field(default_factory=dict)
    last: dict[str, list[Sent]] = field(default_factory=dict)
    streams: dict[str, str] = field(default_factory=dict)  # page → its event stream's URL
    cookies: dict[str, str] = field(default_factory=dict)  # page → its Cookie header
    events: dict[str, list[str]] = field(default_factory=dict)  # page → the last click's events
    cost: Cost = field(default_factory=Cost)
    idle: Cost = field(default_factory=Cost)  # the server with the pages open, nobody clicking


def click_in_chromium(base: str, port: int, pid: int, table: Table) -> Clicks:
    from playwright.sync_api import expect, sync_playwright

    seen, meter = Clicks(), Meter(port, pid)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=recording.CHROMIUM, args=recording.CHROMIUM_ARGS
        )
        try:
            recorders = open_pages(browser, base, table)
            roller = recorders["roller's sheet"]
            page = roller.page
            for n in range(CLICKS + 1):  # the first click warms the server up: not counted
                if n:  # the result stays in the panel's dialog until it is closed
                    page.keyboard.press("Escape")
                    expect(page.locator("#roll-dialog")).to_be_hidden()
                page.locator(f"#skill-{table.roller_skill} .roll-button").click()
                expect(page.locator("#roll-action-roll")).to_be_visible()
                recording.settle(recorders)
                for recorder in recorders.values():
                    recorder.reset()
                meter.start()
                page.locator("#roll-action-roll").click()
                expect(page.locator("#roll-result .entry").first).to_be_visible()
                recording.settle(recorders)
                if n == 0:
                    continue
                meter.stop()
                for name, recorder in recorders.items():
                    made = recorder.requests()
                    seen.requests[name] = seen.requests.get(name, 0) + len(made)
                    seen.bytes[name] = seen.bytes.get(name, 0) + sum(s.size for s in made)
                    streamed = seen.stream_bytes.get(name, 0) + recorder.stream_bytes
                    seen.stream_bytes[name] = streamed
                    seen.last[name], seen.streams[name] = made, recorder.stream_url
                    seen.events[name] = recorder.events
            for name, recorder in recorders.items():
                jar = recorder.page.context.cookies()
                seen.cookies[name] = "; ".join(f"{c['name']}={c['value']}" for c in jar)
            seen.idle = idle_cost(port, pid, recorders)
        finally:
            browser.close()
    seen.cost = meter.cost
    return seen


def less_idle(cost: Cost, idle: Cost) -> Cost:
    """``cost`` less what the server spent idle over as long a time, at ``idle``'s rate."""
    rate = idle.cpu / idle.seconds if idle.seconds else 0.0
    return Cost(max(0.0, cost.cpu - rate * cost.seconds), cost.statements, cost.count, cost.seconds)


def idle_cost(port: int, pid: int, recorders: dict[str, Recorder]) -> Cost:
    """The server's CPU over IDLE_SECONDS with the pages open and nobody clicking (its event
    loop, the streams' and the pool's timers): a click's window in Chromium holds at least a
    second of it (recording.QUIET), which is not the click's work."""
    recording.settle(recorders)
    meter = Meter(port, pid)
    meter.start()
    time.sleep(IDLE_SECONDS)
    meter.stop()
    return meter.cost


# ---------------------------------------------------------------------------------------------
# 2. The replay: statements and server CPU without a browser beside the server
# ---------------------------------------------------------------------------------------------


def the_roll(seen: Clicks) -> Sent:
    """The htmx roll: the roller's POST (the rest of the roller's requests answer it)."""
    return next(s for s in seen.last["roller's sheet"] if s.method == "POST")


def replay_clicks(port: int, pid: int, seen: Clicks, cookies: dict[str, str]) -> Cost:
    """CLICKS × REPLAYS clicks: the roll, every stream hearing its entry, every follow-up."""
    roll = the_roll(seen)
    follow_ups = [(name, s) for name, made in seen.last.items() for s in made if s is not roll]
    paths = {
        name: urlsplit(url).path + "?" + urlsplit(url).query for name, url in seen.streams.items()
    }
    # The pages whose streams carried the entry in Chromium (a sheet's stream carries only its
    # character's): each replayed click waits until they have. Other events (sheet, call) are
    # not waited for; what they cost falls in the next click's window, or the last one's.
    hearing = [name for name, events in seen.events.items() if "entry" in events]
    meter = Meter(port, pid)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    with delivery.Streams(port, {n: cookies[n] for n in paths}, paths) as streams:
        for n in range(CLICKS * REPLAYS + 1):  # the first one warms up: not counted
            listening = [streams.subscribers[name] for name in hearing]
            before = [len(s.entries) for s in listening]
            meter.start()
            status, body = send(conn, roll, cookies["roller's sheet"])
            if status != 200:
                raise RuntimeError(f"the replayed roll answered {status}: {body[:300]!r}")
            heard(listening, before)
            for name, sent in follow_ups:
                status, body = send(conn, sent, cookies[name])
                if status != 200:
                    raise RuntimeError(f"{sent.method} {sent.url} answered {status}")
            quiet(pid)  # what the streams still do for this click belongs to it
            if n:
                meter.stop()
    conn.close()
    return meter.cost


def quiet(pid: int, limit: float = 2.0) -> None:
    """Until the server has used no CPU tick for 50 ms (or ``limit`` seconds): the work a click
    set off on the streams' threads is done."""
    deadline = time.monotonic() + limit
    last, since = cpu_seconds(pid), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < 0.05:
        time.sleep(0.01)
        now = cpu_seconds(pid)
        if now != last:
            last, since = now, time.monotonic()


def heard(subscribers: list[common.Subscriber], before: list[int]) -> None:
    """Until each of ``subscribers`` has received more entries than ``before`` (its count when
    the roll was sent): the roll's own, whatever its answer looks like. Polled: the streams run
    on another thread, and the wait is this process's CPU, not the server's."""
    deadline = time.monotonic() + 30
    while any(len(s.entries) <= n for s, n in zip(subscribers, before, strict=True)):
        if time.monotonic() > deadline:
            raise RuntimeError("a stream never received the replayed roll")
        time.sleep(0.002)


def one_request_cost(
    port: int, pid: int, sent: Sent, cookie: str, expect: int, repeats: int = BARE_REQUESTS
) -> Cost:
    """``repeats`` of one request back to back on one connection, after a few to warm up."""
    meter = Meter(port, pid)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(10):
        send(conn, sent, cookie)
    meter.start()
    for _ in range(repeats):
        status, body = send(conn, sent, cookie)
        if status != expect:
            raise RuntimeError(f"{sent.method} {sent.url} answered {status}: {body[:300]!r}")
    meter.stop(repeats)
    conn.close()
    return meter.cost


def bare_request(base: str) -> Sent:
    return Sent(
        "POST",
        f"{base}/bench/bare/",
        {"Content-Type": "application/x-www-form-urlencoded"},
        f"csrfmiddlewaretoken={common.CSRF_SECRET}".encode(),
    )


# ---------------------------------------------------------------------------------------------
# 3. Throughput: the htmx roll alone, the plain form, the bare view
# ---------------------------------------------------------------------------------------------


def htmx_jobs(table: Table, roll: Sent) -> list[http_rolls.Job]:
    """The recorded htmx roll, sent by each throughput client for its own character: the same
    headers and form, its own session, CSRF token and page."""
    from urllib.parse import urlencode

    from django.urls import reverse

    form = [
        (k, common.CSRF_SECRET if k == "csrfmiddlewaretoken" else v)
        for k, v in parse_qsl(roll.body.decode())
    ]
    jobs = []
    for character, skill in table.jobs:
        headers = {k: v for k, v in roll.headers.items() if k.lower() not in recording.HOP_HEADERS}
        headers = {
            k: v for k, v in headers.items() if k.lower() not in ("x-csrftoken", "hx-current-url")
        }
        page = urlsplit(roll.url)._replace(path=character.get_absolute_url()).geturl()
        headers |= {"X-CSRFToken": common.CSRF_SECRET, "HX-Current-URL": page}
        jobs.append(
            http_rolls.Job(
                reverse("roll_create", args=[character.pk, "cogent-skill", skill.pk]),
                urlencode(form).encode(),
                common.cookies(common.session_cookie(character.owner)),
                headers=tuple(headers.items()),
            )
        )
    return jobs


def throughput(table: Table, roll: Sent) -> dict[str, tuple[float, float]]:
    """req/s of the htmx roll and of the plain form, each with the bare view's beside it."""
    token = {"csrfmiddlewaretoken": common.CSRF_SECRET}
    htmx = htmx_jobs(table, roll)
    plain = [http_rolls.roll_job(character, token) for character, _skill in table.jobs]
    bare = [
        http_rolls.Job(
            "/bench/bare/", f"csrfmiddlewaretoken={common.CSRF_SECRET}".encode(), job.cookie
        )
        for job in htmx
    ]
    rows = {}
    with common.uvicorn() as (port, _server):
        http_rolls.load(port, bare, 200, http_rolls.WARMUP)
        for name, jobs, expect in (("htmx roll", htmx, 200), ("plain form", plain, 302)):
            beside, rolls = http_rolls.measure_against_bare(port, jobs, bare, expect)
            if rolls.errors or beside.errors:
                raise RuntimeError(f"{name}: {rolls.errors} errors, bare view {beside.errors}")
            rows[name] = (rolls.rps, beside.rps)
    return rows


# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------


def page_rows(seen: Clicks) -> tuple[list[tuple[object, ...]], bool]:
    rows, met = [], True
    for name in seen.requests:
        requests = seen.requests[name] / CLICKS
        answers, events = seen.bytes[name] / CLICKS, seen.stream_bytes[name] / CLICKS
        if name == "roller's sheet":
            target, ok = "1 request", requests == 1
        elif name == "GM table":
            target = f"≤ 1 request, ≤ {TABLE_BYTES // 1000} KB"
            ok = requests <= 1 and answers + events <= TABLE_BYTES
        else:
            target, ok = "≤ 1 request", requests <= 1
        met &= ok
        kinds = ", ".join(sorted(set(seen.events.get(name, [])))) or "—"
        rows.append(
            (
                name,
                kinds,
                f"{requests:g}",
                f"{answers:,.0f}",
                f"{events:,.0f}",
                f"{answers + events:,.0f}",
                target,
                common.verdict(ok),
            )
        )
    return rows, met


def describe(roll: Sent) -> str:
    """The htmx roll as Chromium sent it: what the replay and the throughput rows send."""
    hx = [f"{k}: {v}" for k, v in sorted(roll.headers.items()) if k.lower().startswith("hx-")]
    csrf = [k for k in roll.headers if k.lower() == "x-csrftoken"]
    fields = ", ".join(dict.fromkeys(k for k, _ in parse_qsl(roll.body.decode())))
    return (
        f"The htmx roll, as Chromium sent it: {roll.method} {urlsplit(roll.url).path}; "
        f"{'; '.join(hx + csrf)}; form: {fields}"
    )


def report(seen: Clicks, costs: dict[str, Cost], rates: dict[str, tuple[float, float]]) -> int:
    print(f"\nPer click, in Chromium ({CLICKS} clicks; bytes on the wire, headers included):")
    rows, met = page_rows(seen)
    common.table(
        ("page", "events", "requests", "answer bytes", "event bytes", "bytes", "target", ""), rows
    )
    print(describe(the_roll(seen)))
    bare_cpu = costs["bare view"].per()[0]
    print("\nServer cost (process CPU time of the uvicorn process; statements it ran):")
    lines = []
    for name, cost in costs.items():
        cpu, count = cost.per()
        lines.append((name, cost.count, f"{cpu:.2f}", f"{count:.1f}", f"{cpu / bare_cpu:.1f}×"))
    common.table(("what", "measured", "CPU ms each", "statements each", "of bare CPU"), lines)
    alone = [c.per()[0] for n, c in costs.items() if n == "htmx roll alone" or n.startswith("  ")]
    click_cpu = costs["click, replayed"].per()[0]
    print(
        f"of a replayed click's {click_cpu:.1f} ms, its requests alone take {sum(alone):.1f} ms; "
        f"the rest, {click_cpu - sum(alone):.1f} ms, is the streams' work (the entry read and "
        "rendered for each page) and the spread between the runs set side by side"
    )
    if (chromium := costs.get("click in Chromium")) and seen.idle.seconds:
        print(
            f"in Chromium a click's window lasted {chromium.seconds / (chromium.count or 1):.1f} s "
            f"(it ends after a quiet second); with the pages open and nobody clicking the server "
            f"used {seen.idle.cpu * 1000 / seen.idle.seconds:.1f} ms of CPU a second"
        )
    ratio = click_cpu / bare_cpu
    cpu_met = ratio <= TARGET_CPU_RATIO
    print(
        f"a click's server CPU, all pages and events (replayed): {ratio:.1f}× the bare view's "
        f"request — target ≤ {TARGET_CPU_RATIO:g}×: {common.verdict(cpu_met)}"
    )
    print(
        f"\nThroughput ({http_rolls.CLIENTS} clients, each in a campaign of its own, "
        "alternating slices with the bare view):"
    )
    lines = []
    share_met = True
    for name, (rps, bare) in rates.items():
        share = rps / bare if bare else 0.0
        if name == "htmx roll":
            ok = share >= TARGET_SHARE
            share_met &= ok
            target = f"≥ {TARGET_SHARE:.0%}: {common.verdict(ok)}"
        else:
            target = "secondary (no JavaScript), no target"
        lines.append((name, f"{rps:.0f}", f"{bare:.0f}", f"{share:.0%}", target))
    common.table(("request", "req/s", "bare view req/s", "of bare", "target"), lines)
    overall = met and cpu_met and share_met
    print(f"Overall: {common.verdict(overall)}")
    return 0 if overall else 1


def server_costs(base: str, port: int, pid: int, table: Table, seen: Clicks) -> dict[str, Cost]:
    """The bare view's request; the htmx roll and each of the click's other requests, alone
    (GETs of partials: sent again and again they change nothing); the whole click replayed;
    and as Chromium made it."""
    roll = the_roll(seen)
    # The bare form carries the unmasked secret as its token: the session with that cookie.
    bare_cookie = common.cookies(table.sessions[table.pages["roller's sheet"][0]])
    costs = {
        "bare view": one_request_cost(port, pid, bare_request(base), bare_cookie, 200),
        "htmx roll alone": one_request_cost(port, pid, roll, seen.cookies["roller's sheet"], 200),
    }
    for name, made in seen.last.items():
        for sent in made:
            if sent is not roll:
                what = f"  {name}: {sent.method} {short(sent.url)}, alone"
                costs[what] = one_request_cost(port, pid, sent, seen.cookies[name], 200, 50)
    costs["click, replayed"] = replay_clicks(port, pid, seen, seen.cookies)
    costs["click in Chromium"] = seen.cost
    costs["the same, idle CPU out"] = less_idle(seen.cost, seen.idle)
    return costs


def main() -> int:
    if not common.setup("Click benchmark"):
        return common.SKIPPED
    if not Path(recording.CHROMIUM).exists():
        print(
            f"Click benchmark: SKIPPED — no Chromium at {recording.CHROMIUM} (Debian: apt-get install chromium)."
        )
        return common.SKIPPED
    # Playwright's sync API runs an event loop in this thread; the ORM here runs outside it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    print(
        f"Poolside, one Roll click — {CHARACTERS} characters at the table, {CLICKS} clicks in Chromium"
    )
    print(common.machine())
    table = make_table()
    with common.uvicorn(env={"BENCH_STATEMENTS": "1"}) as (port, server):
        base = f"http://127.0.0.1:{port}"
        seen = click_in_chromium(base, port, server.pid, table)
        costs = server_costs(base, port, server.pid, table, seen)
    rates = throughput(table, the_roll(seen))
    return report(seen, costs, rates)


if __name__ == "__main__":
    sys.exit(main())
