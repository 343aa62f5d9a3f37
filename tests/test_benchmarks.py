"""The benchmarks are not run by the suite (docs/performance.md: `make bench`); this only checks
that each one imports, that their figures are computed right, that the log benchmarks' fill works
on a fresh database (at a small size), and that the bare baseline view stays out of the
production URLs."""

import asyncio
import importlib
import os
import resource
import socket

import pytest
from django.db import connection
from django.urls import NoReverseMatch, reverse

from benchmarks import click, common, http_rolls, recording, sse_fanout, statements


@pytest.mark.parametrize(
    "name",
    [
        "rules_odds",
        "click",
        "recording",
        "roll_path",
        "http_rolls",
        "log_page",
        "log_scale",
        "abandoned",
        "sse_fanout",
        "sse_client",
        "live_delivery",
        "dashboard",
        "instructions",
        "common",
        "delivery",
    ],
)
def test_each_benchmark_imports(name):
    module = importlib.import_module(f"benchmarks.{name}")
    helpers = ("common", "recording", "delivery", "sse_client")
    assert callable(getattr(module, "main", None)) or name in helpers


def test_one_requests_instructions_are_the_difference_of_two_runs():
    from benchmarks import instructions

    extra = instructions.MANY - instructions.FEW
    assert instructions.per_request(10_000, 10_000 + extra * 7_000) == 7_000
    assert instructions.per_request(5, 5) == 0


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert common.percentile(values, 50) == 50
    assert common.percentile(values, 95) == 95
    assert common.percentile(values, 99) == 99
    assert common.percentile(values, 100) == 100
    assert common.percentile([7.0], 99) == 7.0
    assert common.percentile([3, 1, 2], 50) == 2


def test_the_benchmark_views_are_not_production_urls(client):
    for name in ("bench_bare", "bench_statements"):
        with pytest.raises(NoReverseMatch):
            reverse(name)
    assert client.post("/bench/bare/").status_code == 404
    assert client.get("/bench/statements/").status_code == 404


@pytest.mark.django_db
def test_a_wrapped_connection_counts_each_statement_once_across_reconnects():
    from django.db import connections

    fresh = connections.create_connection("default")
    try:
        statements.wrap(None, fresh)
        statements.wrap(None, fresh)  # connection_created fires again on every reconnect
        before = statements.total()
        with fresh.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.execute("SELECT 2")
        assert statements.total() - before == 2
    finally:
        fresh.close()


def _recorded(*events):
    recorder = recording.Recorder("sheet", page=None)
    for kind, event in events:
        {
            "sent": recorder._sent,
            "data": recorder._data,
            "event": recorder._event,
            "done": recorder._finished,
        }[kind](event)
    return recorder


def test_the_recorder_counts_requests_and_stream_bytes_apart():
    get = {
        "url": "http://127.0.0.1:1/characters/1/",
        "method": "GET",
        "headers": {"HX-Request": "true"},
    }
    recorder = _recorded(
        ("sent", {"requestId": "s", "type": "EventSource", "request": {**get, "url": "/events/"}}),
        ("sent", {"requestId": "1", "type": "Fetch", "request": get}),
        ("data", {"requestId": "s", "dataLength": 40, "encodedDataLength": 0}),
        ("event", {"requestId": "s", "eventName": "entry"}),
        ("data", {"requestId": "1", "dataLength": 900, "encodedDataLength": 900}),
    )
    assert recorder.in_flight == {"1"}  # the stream is never "in flight": it stays open
    recorder._finished({"requestId": "1", "encodedDataLength": 1200})
    assert not recorder.in_flight
    [sent] = recorder.requests()
    assert (sent.method, sent.url, sent.size) == ("GET", get["url"], 1200)
    assert sent.headers == {"HX-Request": "true"}
    assert (recorder.stream_url, recorder.stream_bytes, recorder.events) == (
        "/events/",
        40,
        ["entry"],
    )
    recorder.reset()
    assert recorder.requests() == [] and recorder.stream_bytes == 0 and recorder.events == []


def _clicks(requests, answer_bytes, event_bytes=0):
    seen = click.Clicks()
    n = click.CLICKS
    for name, count in requests.items():
        seen.requests[name] = count * n
        seen.bytes[name] = answer_bytes.get(name, 0) * n
        seen.stream_bytes[name] = event_bytes * n
    return seen


def test_pages_are_judged_per_click_on_requests_and_the_gm_tables_bytes():
    met = _clicks({"roller's sheet": 1, "GM table": 1, "GM's log": 0}, {"GM table": 14_000}, 900)
    rows, ok = click.page_rows(met)
    assert ok and [row[-1] for row in rows] == ["met", "met", "met"]
    # The GM table: its event bytes count toward the 15 KB.
    _rows, ok = click.page_rows(_clicks({"GM table": 1}, {"GM table": 14_500}, 600))
    assert not ok
    rows, ok = click.page_rows(_clicks({"roller's sheet": 2, "GM's log": 1}, {}))
    assert not ok and [row[-1] for row in rows] == ["MISSED", "met"]
    # The roller's page makes exactly its one request: none would be a roll never sent.
    assert not click.page_rows(_clicks({"roller's sheet": 0}, {}))[1]


def test_the_report_judges_cpu_against_the_bare_view_and_the_htmx_share(capsys):
    roll = recording.Sent(
        "POST",
        "http://127.0.0.1:1/characters/1/roll/cogent-skill/2/roll/",
        {"HX-Request": "true", "HX-Target": "roll-panel", "X-CSRFToken": "secret-token"},
        b"csrfmiddlewaretoken=secret-token&challenge_level=3&action=roll",
    )
    seen = _clicks({"roller's sheet": 1, "GM table": 1}, {"GM table": 5000})
    seen.last = {"roller's sheet": [roll]}
    costs = {
        "bare view": click.Cost(cpu=0.2, statements=100, count=100),  # 2 ms a request
        "click, replayed": click.Cost(cpu=0.16, statements=90, count=10),  # 16 ms: 8×
    }
    assert click.report(seen, costs, {"htmx roll": (35, 100), "plain form": (10, 100)}) == 0
    out = capsys.readouterr().out
    assert "8.0× the bare view's request — target ≤ 8×: met" in out
    assert "HX-Target: roll-panel" in out and "secret-token" not in out
    assert "form: csrfmiddlewaretoken, challenge_level, action" in out
    assert "secondary (no JavaScript), no target" in out  # the plain form: 10%, not judged
    assert click.report(seen, costs, {"htmx roll": (34, 100)}) == 1
    costs["click, replayed"].cpu = 0.17
    assert click.report(seen, costs, {"htmx roll": (90, 100)}) == 1


def test_the_chromium_click_is_also_given_without_the_servers_idle_cpu(capsys):
    # 10 clicks over 15 s in all, 300 ms of CPU; idle, the server used 4 ms a second.
    chromium = click.Cost(cpu=0.3, statements=50, count=10, seconds=15.0)
    idle = click.Cost(cpu=0.02, count=1, seconds=5.0)
    out = click.less_idle(chromium, idle)
    assert (round(out.cpu, 6), out.statements, out.count) == (0.24, 50, 10)  # 300 - 15 × 4 ms
    assert click.less_idle(chromium, click.Cost()).cpu == 0.3  # no idle measured: as it was
    assert click.less_idle(click.Cost(cpu=0.01, count=1, seconds=5.0), idle).cpu == 0.0
    seen = _clicks({"roller's sheet": 1}, {})
    seen.last = {"roller's sheet": [recording.Sent("POST", "http://h/r/", {}, b"a=1")]}
    seen.idle = idle
    costs = {
        "bare view": click.Cost(cpu=0.2, count=100),
        "click, replayed": click.Cost(cpu=0.16, count=10),
        "click in Chromium": chromium,
    }
    click.report(seen, costs, {"htmx roll": (35, 100)})
    assert "a click's window lasted 1.5 s" in capsys.readouterr().out


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="The fill copies rows with PostgreSQL's generate_series: run with "
    "DATABASE_URL=postgres://…; .ci/run does.",
)
def test_the_log_benchmarks_fill_works_on_a_fresh_database(client):
    """`make bench-log` and `bench-log-scale` fill a campaign once and reuse it: the fill must
    work on a database that never had one (the test's own is fresh), every column it leaves
    out having a default — the verifiable dice's NOT NULL proof once had none."""
    from benchmarks import log_page
    from log.models import RollEntry

    size = 2 * log_page.SESSION + log_page.MESSAGES  # two sessions' markers and some messages
    campaign = log_page.fill(size)
    entries = RollEntry.objects.filter(campaign=campaign)
    assert entries.count() == size
    kinds = set(entries.values_list("kind", flat=True))
    assert {"roll", "session", "scene", "session_end", "message"} <= kinds
    assert all(entries.filter(kind="roll").values_list("proof", flat=True))
    assert log_page.fill(size) == campaign  # a later run reuses it
    for role in ("gm", "player"):
        client.force_login(campaign.memberships.filter(role=role).first().user)
        assert client.get(reverse("campaign_log", args=[campaign.pk])).status_code == 200


def test_benchmarks_skip_without_postgresql(monkeypatch, capsys):
    monkeypatch.setenv("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:1/poolside_bench")
    assert common.setup("A benchmark") is False
    assert "SKIPPED" in capsys.readouterr().out


def test_a_benchmark_loads_data_without_the_statement_timeout_but_its_servers_keep_it(
    monkeypatch,
):
    monkeypatch.setenv(common.TIMEOUT_VARIABLE, "0")  # what setup() sets for its own process
    monkeypatch.setattr(common, "CALLERS_TIMEOUT", None)
    assert common.TIMEOUT_VARIABLE not in common.server_environment({})  # production's default
    monkeypatch.setattr(common, "CALLERS_TIMEOUT", "750")
    env = common.server_environment({"LIVE_BACKEND": "memory"})
    assert env[common.TIMEOUT_VARIABLE] == "750" and env["LIVE_BACKEND"] == "memory"
    assert env["DEBUG"] == "0" and env["DJANGO_SETTINGS_MODULE"] == "benchmarks.settings"


def test_sse_messages_split_on_blank_lines_and_keep_the_rest():
    messages, rest = common.split_sse(
        ": keep-alive\n\nevent: entry\nid: 00ff\ndata: <li>\ndata: </li>\n\nretry: 2000\n\nevent: sh"
    )
    assert messages == [
        common.SSEMessage(None, None, None),
        common.SSEMessage("entry", "00ff", None),
        common.SSEMessage(None, None, 2000),
    ]
    assert rest == "event: sh"


def test_a_rolls_redirect_names_its_entry_token():
    assert common.entry_token_of("/rolls/0123456789abcdef/") == "0123456789abcdef"
    assert common.entry_token_of("/rolls/0123456789abcdef") == "0123456789abcdef"


def test_stream_problems_name_missing_repeated_unexpected_and_late_entries():
    assert common.stream_problems(["a", "b"], ["a", "b"]) == {
        "missing": [],
        "repeated": [],
        "unexpected": [],
        "out of order": [],
    }
    assert common.stream_problems(["a", "b", "c"], ["a", "a", "d"]) == {
        "missing": ["b", "c"],
        "repeated": ["a"],
        "unexpected": ["d"],
        "out of order": [],
    }
    # Each entry that came after one that follows it in the log is out of order; a repeat of an
    # earlier entry is a repeat, not a reordering.
    assert common.stream_problems(["a", "b", "c", "d"], ["c", "a", "b", "d", "a"]) == {
        "missing": [],
        "repeated": ["a"],
        "unexpected": [],
        "out of order": ["a", "b"],
    }


def test_the_subscriber_reads_a_chunked_event_stream():
    """A message split over two HTTP chunks still counts once; the retry hint means caught up."""

    async def scenario():
        async def serve(reader, writer):
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            for part in (b"retry: 2000\n\n", b"event: entry\nid: aa\nda", b"ta: x\n\n", b""):
                writer.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        subscriber = common.Subscriber()
        async with server:
            await asyncio.wait_for(subscriber.run(port, "/events/", "c=1"), 5)
        assert subscriber.caught_up.is_set() and subscriber.error == "the stream ended"
        assert subscriber.entries == ["aa"]
        assert await subscriber.wait_for("aa") > 0

    asyncio.run(scenario())


def _row(share, errors=0, latencies=(10.0,), checks=None, one_campaign=False):
    load = http_rolls.Load(list(latencies), errors, wall=1.0)
    return http_rolls.Row(
        "roll", "postgres", 1, load, share, checks=checks or {}, p99_target=one_campaign
    )


def test_roll_rows_are_judged_on_share_errors_p99_and_checks():
    assert http_rolls.failures(_row(0.60)) == []
    assert http_rolls.failures(_row(0.59)) == ["share 59% < 60%"]
    assert http_rolls.failures(_row(0.9, errors=2)) == ["2 errors"]
    slow = [100.0] * 98 + [400.0, 400.0]  # the p99 (nearest rank) is the 99th: 400 ms
    assert http_rolls.failures(_row(0.9, latencies=slow, one_campaign=True)) == ["p99 ≥ 300 ms"]
    assert http_rolls.failures(_row(0.9, latencies=slow)) == []  # p99 counts for 1 campaign
    assert http_rolls.failures(_row(0.9, checks={"chains": True, "streams": False})) == [
        "streams not right"
    ]
    # Two workers are judged on being right, not on their share.
    two = _row(0.3)
    two.workers = 2
    assert http_rolls.failures(two) == []
    two.checks = {"streams": False}
    assert http_rolls.failures(two) == ["streams not right"]
    # The bare view (no share) and a skipped row have no target of their own.
    assert http_rolls.failures(_row(None)) == []
    assert http_rolls.failures(http_rolls.Row("roll", "redis", 1, skipped="no Redis")) == []


def test_throughput_is_successes_per_wall_second():
    assert http_rolls.Load([1.0] * 30, errors=5, wall=2.0).rps == 15.0
    assert http_rolls.Load([], errors=0, wall=0.0).rps == 0.0


def test_memory_per_stream_and_the_file_descriptors_streams_need():
    assert sse_fanout.per_stream_kib(66_000, 194_000, 2000) == 64.0
    assert sse_fanout.fd_limit_for(2000) == 2256
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert sse_fanout.raise_fd_limit(1) == soft  # never lowered


def test_the_report_prints_every_kind_of_row_and_fails_on_a_miss(capsys):
    bare = http_rolls.Row("bare view", "—", 1, http_rolls.Load([5.0] * 10, 0, wall=1.0))
    rows = [bare, _row(0.85, checks={"chains": True}), http_rolls.Row("20 campaigns", "redis", 1)]
    rows[2].skipped = "Redis at redis://127.0.0.1:1/5 doesn't answer"
    assert http_rolls.report(rows) == 0
    out = capsys.readouterr().out
    assert "baseline" in out and "met (stretch 80% met)" in out
    assert "SKIPPED: 20 campaigns, redis, 1 worker(s) — Redis at" in out
    assert http_rolls.report([bare, _row(0.5)]) == 1
    assert "MISSED (share 50% < 60%)" in capsys.readouterr().out


@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="reads Linux /proc")
def test_connections_are_counted_per_process_holding_them():
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as _client:
            accepted, _ = server.accept()
            with accepted:
                # The accepted end is ours and on the port; the client's end is on another port.
                assert common.connections_held([os.getpid()], port) == {os.getpid(): 1}
    assert os.getpid() in common.children(os.getppid())


def test_abandoned_recovery_is_the_first_window_that_holds():
    from benchmarks import abandoned

    need = int(abandoned.HOLD / abandoned.WINDOW)
    dip = [10.0, 20.0, 90.0] + [10.0] * (need - 1) + [90.0] * need
    # The lone 90 doesn't hold; from the first of the last run of 90s the mean does.
    assert abandoned.recovered_after(dip, 75.0) == (len(dip) - need) * abandoned.WINDOW
    assert abandoned.recovered_after([90.0] * need, 75.0) == 0.0
    assert abandoned.recovered_after([10.0] * (need + 3), 75.0) is None


def test_the_load_client_process_parses_streams_and_reconnects_as_eventsource_does():
    """benchmarks/sse_client.py: entry ids and the retry hint read from chunked bytes split
    anywhere between messages; after the server drops them, streams come back after their own
    retry: time with Last-Event-ID, and the storm's answer says so."""
    from benchmarks import sse_client

    async def scenario():
        resumed = []
        connections = []

        async def serve(reader, writer):
            head = (await reader.readuntil(b"\r\n\r\n")).decode()
            resumed.extend(
                line.split(": ", 1)[1]
                for line in head.split("\r\n")
                if line.startswith("Last-Event-ID")
            )
            connections.append(writer)
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            for part in (b"event: entry\nid: aa\ndata: x\n\n", b"retry: 10\n\n"):
                writer.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            await writer.drain()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        client = sse_client.Client()
        async with server:
            opened = await client.open(port, "/events/", ["c=1"], 2, 1)
            assert opened["failed"] == 0
            assert [s.retry_ms for s in client.streams] == [10, 10]
            assert (await client.await_token("aa", 1))["last"] is not None
            storm = asyncio.ensure_future(client.storm(5))
            await asyncio.sleep(0.05)
            for writer in list(connections):
                writer.close()
            answer = await storm
            client.close()
            for writer in connections:
                writer.close()
        assert answer["back_count"] == 2 and answer["attempts"] == 2
        assert answer["back"] >= answer["dropped"]
        assert resumed == ["aa", "aa"]  # each came back from the last entry it had

    asyncio.run(scenario())
