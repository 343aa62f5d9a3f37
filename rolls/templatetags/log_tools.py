"""Number formatting for the statistics page: always a dot decimal, whatever the locale, because SVG
coordinates need one and the figures should read the same in the table and the chart. Also the
log's times: valid ``<time datetime>`` values and day headings."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from django import template

from log.models import RollEntry
from rolls.log.days import Day, day_heading, iso_moment
from rolls.rolling.display import decimal_text
from rolls.sessions.state import SessionState, marker_name, state_of

register = template.Library()


@register.filter
def pct(value: float | None, places: int = 1) -> str:
    """0.625 → "62.5%"; None → "—". Rounded half up as every chance is (``decimal_text``), on
    the decimal the float is written as: 0.7155 → "71.6%"."""
    if value is None:
        return "—"
    return f"{decimal_text(Fraction(repr(float(value))) * 100, places)}%"


@register.filter
def fixed(value: float | None, places: int = 2) -> str:
    """A number with a fixed count of decimals; None → "—"."""
    if value is None:
        return "—"
    return f"{value:.{places}f}"


@register.filter
def signed(value: float | None, places: int = 1) -> str:
    """+1.5, −2.0 (a real minus sign), 0.0; None → "—"."""
    if value is None:
        return "—"
    text = f"{abs(value):.{places}f}"
    if float(text) == 0:
        return text
    return ("+" if value > 0 else "−") + text


@register.filter
def p_value(value: float | None) -> str:
    """A p-value as people read it: 0.0512, 0.0003, "< 0.0001"."""
    if value is None:
        return "—"
    if value < 0.0001:
        return "< 0.0001"
    return f"{value:.4f}"


@register.filter
def iso_time(value: datetime | None) -> str:
    """A ``<time datetime>`` value with at most millisecond precision (rolls/log/days.py)."""
    if value is None:
        return ""
    return iso_moment(value)


@register.filter
def log_day(value: datetime) -> Day:
    """The log's day heading for a moment: the same words on the page and in the live stream."""
    return day_heading(value)


@register.filter
def log_session(entry: RollEntry) -> SessionState | None:
    """The session (and scene) an entry listed ``with_session`` belongs to, for its heading; None
    outside every session."""
    return state_of(entry)


@register.filter
def marker_named(entry: RollEntry) -> str:
    """A session marker's name as its card shows it (rolls/sessions/state.py ``marker_name``)."""
    return marker_name(entry)
