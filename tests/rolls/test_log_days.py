"""The log's day headings (docs/roll-log.md#days), its folded filter bar's summary, and valid
``<time datetime>`` values on every page that shows an entry's time."""

import datetime as dt
import re
from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from log.models import Visibility
from tests.rolls.helpers import append, token

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 12, 1, 10, 0, tzinfo=dt.UTC)
HEADING = re.compile(
    r'<li class="log-day" data-day="([^"]+)"[^>]*><h2><time datetime="\1">([^<]+)<'
)


@contextmanager
def at(moment):
    """Entries appended (and pages rendered) as if the clock said ``moment``."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def rolled(character, moment, n=1, **extra):
    with at(moment):
        return append(character, n, **extra)


def log_page(client, campaign, **params):
    headers = {"HX-Request": "true"} if params.pop("htmx", False) else {}
    with at(NOW):
        response = client.get(reverse("campaign_log", args=[campaign.pk]), params, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def headings(page):
    return [(day, label) for day, label in HEADING.findall(page)]


def test_headings_follow_the_local_day_in_order(client, party, settings):
    settings.TIME_ZONE = "Europe/Berlin"
    # 22:30 and 23:30 UTC on the 29th are 23:30 on the 29th and 00:30 on the 30th in Berlin.
    late = rolled(party.pc, dt.datetime(2026, 11, 29, 22, 30, tzinfo=dt.UTC))[0]
    after_midnight = rolled(party.pc, dt.datetime(2026, 11, 29, 23, 30, tzinfo=dt.UTC))[0]
    today = rolled(party.pc, NOW - dt.timedelta(hours=1), 2)
    client.force_login(party.player)
    page = log_page(client, party.campaign)
    assert headings(page) == [
        ("2026-12-01", "Today"),
        ("2026-11-30", "Yesterday"),
        ("2026-11-29", "Sun 29 Nov 2026"),
    ]
    order = [page.index(s) for s in ('data-day="2026-12-01"', f'id="entry-{token(today[1])}"')]
    order += [page.index(f'id="entry-{token(today[0])}"'), page.index('data-day="2026-11-30"')]
    order += [
        page.index(f'id="entry-{token(after_midnight)}"'),
        page.index('data-day="2026-11-29"'),
    ]
    order += [page.index(f'id="entry-{token(late)}"')]
    assert order == sorted(order)
    # With the day shown above, an entry shows its time of day, in the site's time zone.
    assert ">00:30</time>" in page and ">23:30</time>" in page


def test_a_page_appended_below_continues_its_day(client, party):
    day1 = rolled(party.pc, NOW - dt.timedelta(days=2), 10)
    day2 = rolled(party.pc, NOW - dt.timedelta(hours=2), 20)
    client.force_login(party.player)
    first = log_page(client, party.campaign)
    assert [day for day, _ in headings(first)] == ["2026-12-01", "2026-11-29"]
    cursor = token(day1[5])  # the last entry of the first page (25 of 30)
    assert f"before={cursor}" in first
    # Infinite scroll appends the next page under the same day's heading: no repeat.
    more = log_page(client, party.campaign, before=cursor, htmx=True)
    assert "<html" not in more and more.count('class="entry ') == 5
    assert headings(more) == []
    # The no-JS "Older rolls" link opens a page of its own, which starts with its day.
    alone = log_page(client, party.campaign, before=cursor)
    assert headings(alone) == [("2026-11-29", "Sun 29 Nov 2026")]
    assert day2  # the newer day filled the rest of the first page


def test_a_page_that_begins_a_new_day_gets_its_heading(client, party):
    rolled(party.pc, NOW - dt.timedelta(days=3), 3)
    today = rolled(party.pc, NOW - dt.timedelta(hours=2), 25)
    client.force_login(party.player)
    first = log_page(client, party.campaign)
    assert [day for day, _ in headings(first)] == ["2026-12-01"]
    more = log_page(client, party.campaign, before=token(today[0]), htmx=True)
    assert headings(more) == [("2026-11-28", "Sat 28 Nov 2026")]
    assert more.count('class="entry ') == 3


def test_no_heading_for_a_day_a_member_sees_no_roll_of(client, party):
    rolled(party.pc, NOW - dt.timedelta(days=3))
    rolled(party.other_pc, NOW - dt.timedelta(days=2), visibility=Visibility.BLIND)
    rolled(party.pc, NOW - dt.timedelta(hours=1))
    client.force_login(party.player)  # not the blind roll's roller: it doesn't exist for them
    assert [day for day, _ in headings(log_page(client, party.campaign))] == [
        "2026-12-01",
        "2026-11-28",
    ]
    client.force_login(party.other_player)  # the roller sees its placeholder, under its day
    page = log_page(client, party.campaign)
    assert [day for day, _ in headings(page)] == ["2026-12-01", "2026-11-29", "2026-11-28"]
    assert "A blind roll was made." in page
    client.force_login(party.gm)
    assert len(headings(log_page(client, party.campaign))) == 3


def test_filter_summary_names_the_active_filters(client, party):
    rolled(party.pc, NOW - dt.timedelta(hours=1))
    client.force_login(party.player)
    page = log_page(client, party.campaign)
    assert '<span class="filter-summary" id="filter-summary">All entries</span>' in page
    assert "Clear filters" not in page
    assert '<details class="filter-box">' in page  # folded: the entries come first
    params = {"player": party.player.pk, "outcome": "success", "date_from": "2026-12-01"}
    page = log_page(client, party.campaign, **params)
    summary = f"Filtered: {party.player.username} · Success · from 1 Dec"
    assert f'id="filter-summary">{summary}</span>' in page
    assert '<span class="filter-clear" id="filter-clear"><a href="' in page
    # A filter change swaps the results; the summary and Clear follow, out of band.
    swapped = log_page(client, party.campaign, htmx=True, **params)
    assert f'id="filter-summary" hx-swap-oob="true">{summary}</span>' in swapped
    assert 'id="filter-clear" hx-swap-oob="true"><a href=' in swapped
    # Another year's date names its year; a field with an error opens the filters to show it.
    page = log_page(client, party.campaign, date_to="2025-03-02", date_from="2024-01-05", q="ada")
    assert "Filtered: “ada” · from 5 Jan 2024 · to 2 Mar 2025" in page
    page = log_page(client, party.campaign, date_from="not a date")
    assert '<details class="filter-box" open>' in page and "All entries" in page


VALID_TIME = re.compile(r"^\d{4}-\d\d-\d\d(T\d\d:\d\d:\d\d\.\d{3}Z)?$")


def test_time_elements_carry_valid_datetimes(client, party):
    entry = rolled(party.pc, dt.datetime(2026, 11, 30, 18, 5, 7, 123456, tzinfo=dt.UTC))[0]
    client.force_login(party.gm)
    pages = [
        log_page(client, party.campaign),
        client.get(entry.get_absolute_url()).content.decode(),
        client.get(reverse("campaign_dashboard", args=[party.campaign.pk])).content.decode(),
    ]
    for page in pages:
        values = re.findall(r'<time datetime="([^"]*)"', page)
        assert values and all(VALID_TIME.match(value) for value in values), values
        assert "2026-11-30T18:05:07.123Z" in values  # milliseconds, never microseconds


def test_day_headings_add_no_query(client, party):
    """A heading per day, on the first page and on one appended below, costs nothing: the page's
    six queries (tests/rolls/test_query_counts.py), the cursor's day read with the page's rows."""
    for days in range(30):
        rolled(party.pc, NOW - dt.timedelta(days=days, hours=1))
    client.force_login(party.player)
    with CaptureQueriesContext(connection) as first:
        page = log_page(client, party.campaign)
    assert len(headings(page)) == 25
    cursor = re.search(r'hx-get="[^"]*before=([\w-]+)"', page).group(1)
    with CaptureQueriesContext(connection) as more:
        rest = log_page(client, party.campaign, before=cursor, htmx=True)
    assert len(headings(rest)) == 5
    assert len(first.captured_queries) == len(more.captured_queries) == 6
