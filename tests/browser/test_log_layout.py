"""The compact log in a real browser: 8+ entries on a laptop screen, the newest entry in view on a
phone without scrolling, nothing wider than the screen, pills on one line, the pool and odds one
click away, and the folded filters summing themselves up after a change."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from log.models import Visibility
from sheets.models import System
from tests.factories import CharacterFactory
from tests.rolls.helpers import append

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

LAPTOP, PHONE = (1280, 800), (390, 844)
LONG_NAME = "Bartholomew" * 8  # one unbroken word: it must wrap, not widen the page


def fully_in_view(page, height):
    return page.evaluate(
        """height => [...document.querySelectorAll('#log-entries article.entry')]
        .filter(e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= height; })
        .length""",
        height,
    )


@pytest.fixture
def busy_log():
    character = CharacterFactory(campaign__system=System.COGENT, name="Ada")
    long = CharacterFactory(campaign=character.campaign, owner=character.owner, name=LONG_NAME)
    append(long, 1)  # the oldest: the page must not grow wider for it
    append(character, 12, outcome="failure", outcome_label="Failure")
    append(character, 2, visibility=Visibility.GM_ONLY)
    return character


def test_eight_entries_fit_a_laptop_screen(page, log_in, busy_log):
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    log_in(busy_log.owner)
    page.goto(reverse("campaign_log", args=[busy_log.campaign_id]))
    assert fully_in_view(page, LAPTOP[1]) >= 8
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP[0]
    # The pool and the odds are one click away.
    first = page.locator("#log-entries article.entry").first
    breakdown = first.locator(".breakdown")
    expect(breakdown).to_be_hidden()
    first.locator("summary").click()
    expect(breakdown).to_be_visible()
    expect(first.locator(".entry-more")).to_contain_text("chance of this outcome 87.5%")


def test_a_phone_shows_the_newest_entry_first(page, log_in, busy_log):
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    log_in(busy_log.owner)
    page.goto(reverse("campaign_log", args=[busy_log.campaign_id]))
    newest = page.locator("#log-entries article.entry").first
    box = newest.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    # Pills never break across lines.
    tags = page.locator("#log-entries .tag")
    assert tags.count() >= 2
    assert page.evaluate(
        "[...document.querySelectorAll('#log-entries .tag')].every(t => t.getClientRects().length === 1)"
    )
    # The filters are folded; a change sums them up in the one line left showing.
    filters = page.locator(".log-filters details.filter-box")
    expect(filters).not_to_have_attribute("open", "")
    expect(page.locator("#id_outcome")).to_be_hidden()
    page.locator(".log-filters summary").click()
    page.select_option("#id_outcome", "failure")
    expect(page.locator("#filter-summary")).to_have_text("Filtered: Failure")
    expect(page.locator("#filter-clear a")).to_have_text("Clear filters")
    expect(page.locator("#log-entries article.entry")).to_have_count(12)
    expect(page.locator("#filter-summary")).to_be_in_viewport()


def test_the_fairness_charts_labels_are_readable_on_a_phone(page, log_in, busy_log):
    """An SVG scales its text with it: the axis labels must still be 12 px or more at 390 px."""
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    log_in(busy_log.owner)
    page.goto(reverse("campaign_stats", args=[busy_log.campaign_id]))
    sizes = page.evaluate(
        """[...document.querySelectorAll('.fairness-chart .chart-axis')].map(t =>
        parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""
    )
    assert sizes and min(sizes) >= 12, sizes
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    # The figures are also a table, for anyone who can't read the chart.
    expect(page.locator("table.faces").first).to_be_visible()
