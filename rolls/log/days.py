"""The log's day headings: which local day an entry belongs to and what its heading says.

Days are the viewer's, in the site's time zone (``TIME_ZONE``): a roll at 23:30 in Berlin belongs
to that evening's session, not to the next UTC day. Kept apart from the views so the log page, the
live stream (which renders one entry at a time) and the tests agree on the same words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from django.utils import timezone


@dataclass(frozen=True)
class Day:
    """A day heading: the local date, its words ("Today", "Yesterday", "Mon 30 Nov 2026") and the
    full date, which replaces "Today" when a page left open sees the next day begin."""

    date: date
    label: str
    full: str

    @property
    def iso(self) -> str:
        return self.date.isoformat()


def local_day(moment: datetime) -> date:
    """The date of ``moment`` in the current time zone."""
    return timezone.localdate(moment)


def full_label(day: date) -> str:
    # Built from parts rather than strftime's %-d, which is not portable, and never localized
    # into another language than the rest of the page.
    return f"{day:%a} {day.day} {day:%b %Y}"


def day_heading(moment: datetime, today: date | None = None) -> Day:
    """The heading of the day ``moment`` falls on, as seen on ``today`` (default: now)."""
    day = local_day(moment)
    today = today if today is not None else timezone.localdate()
    full = full_label(day)
    if day == today:
        label = "Today"
    elif day == today - timedelta(days=1):
        label = "Yesterday"
    else:
        label = full
    return Day(day, label, full)


def iso_moment(moment: datetime) -> str:
    """A ``<time datetime>`` value: UTC, at most millisecond precision. The HTML standard (and the
    Nu checker) accepts at most three fractional digits; stored times have six."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
