"""The statistics' figures as one SQL aggregate (log/models/trials.py): over the tallies
(``rolls_trial_tally``, a row per key of character, player, skill, outcome and audience) or, with
a date filter, over the day tallies (``rolls_trial_day_tally``, the same per UTC day) of the
range's whole days and the trials (``rolls_trial``, a row per trial) of its partial edges. Counts
and sums per character, grouped in the database, then turned into the same
:class:`~rolls.log.statistics.Summary` the Python :class:`~rolls.log.statistics.Tally` gives.

The rows to add up come filtered by the caller (visibility with ``readable_by``, then the page's
filters), so the page costs one query whatever the log's length and never reads an entry's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.db.models import Aggregate, Count, F, Model, Q, QuerySet, Sum, Value

from log.models import RollEntry, Trial, TrialDayTally, TrialTally
from log.models.trials import face_column_names
from rolls.log.filters import StatsFilterForm
from rolls.log.statistics import Summary, Tally
from sheets.models import Membership

# The longest edge of a date range read from the trials (rather than as its day minus the rest).
HALF_DAY = timedelta(hours=12)


@dataclass(frozen=True)
class Part:
    """A piece of a date range's figures: added (``sign`` 1) or taken away (-1); read from the
    day tallies (``source`` "days", ``start``/``end`` UTC dates) or from the trials ("trials",
    aware datetimes); [start, end), None for an open end."""

    sign: int
    source: str
    start: date | datetime | None
    end: date | datetime | None


def _summed() -> dict[str, Aggregate]:
    """A tally row's figures, added up."""
    names = ("rolls", "successes", "measured", "measured_successes", "expected", "variance")
    return {name: Sum(name) for name in names} | Trial.face_sums()


def _figures() -> dict[str, Aggregate]:
    """A trial row's figures, counted."""
    success = Q(success=True)
    return {
        "rolls": Count("pk"),
        "successes": Count("pk", filter=success),
        "measured": Count("chance"),
        "measured_successes": Count("pk", filter=success & Q(chance__isnull=False)),
        "expected": Sum("chance"),
        "variance": Sum(F("chance") * (1 - F("chance"))),
        **Trial.face_sums(),
    }


def _tally(row: dict[str, Any], sign: int = 1) -> Tally:
    faces: dict[str, dict[int, int]] = {}
    for kind, face, column in face_column_names():
        if row[column]:
            faces.setdefault(kind, {})[face] = sign * int(row[column])
    return Tally(
        frozenset(RollEntry.SUCCESS_OUTCOMES),
        rolls=sign * int(row["rolls"] or 0),
        successes=sign * int(row["successes"] or 0),
        measured=sign * int(row["measured"] or 0),
        measured_successes=sign * int(row["measured_successes"] or 0),
        expected=sign * float(row["expected"] or 0.0),
        variance=sign * float(row["variance"] or 0.0),
        faces=faces,
    )


def _merged(tallies: list[Tally]) -> Tally:
    total = Tally(frozenset(RollEntry.SUCCESS_OUTCOMES))
    for part in tallies:
        total.rolls += part.rolls
        total.successes += part.successes
        total.measured += part.measured
        total.measured_successes += part.measured_successes
        total.expected += part.expected
        total.variance += part.variance
        for kind, counts in part.faces.items():
            into = total.faces.setdefault(kind, {})
            for face, n in counts.items():
                into[face] = into.get(face, 0) + n
    for kind in list(total.faces):  # a part taken away again (a day's edge) leaves zeros
        total.faces[kind] = {face: n for face, n in total.faces[kind].items() if n}
        if not total.faces[kind]:
            del total.faces[kind]
    return total


def _grouped(rows: QuerySet[Model], sign: int) -> Any:
    """``rows`` (trials or tallies, filtered) summed per (character, name), each row with
    ``sign``: +1 adds the figures, -1 takes them away (a day tally's part outside the range)."""
    figures = _figures() if rows.model is Trial else _summed()
    grouped = rows.order_by().values("character_id", "character_name")
    return grouped.annotate(sign=Value(sign), **figures)


def _summaries(grouped: Any) -> tuple[Summary, list[tuple[int | None, str, Summary]]]:
    parts: dict[tuple[int | None, str], list[Tally]] = {}
    for row in grouped:
        key = (row["character_id"] or None, row["character_name"])
        parts.setdefault(key, []).append(_tally(row, row["sign"]))
    per_character = [(pk, name, _merged(tallies)) for (pk, name), tallies in parts.items()]
    per_character = [row for row in per_character if row[2].rolls]
    characters = sorted(
        ((pk, name, t.summary()) for pk, name, t in per_character),
        key=lambda row: (row[1].casefold(), row[0] or 0),
    )
    return _merged([t for _, _, t in per_character]).summary(), characters


def tally(rows: QuerySet[Model]) -> tuple[Summary, list[tuple[int | None, str, Summary]]]:
    """The overall summary of ``rows`` (a ``TrialTally``, ``TrialDayTally`` or ``Trial``
    queryset, already filtered) and one per character, by name — in one query: a row per
    (character, name) as the entries recorded them. A character whose tallies all moved away
    (revealed, unlinked) is left out."""
    return _summaries(_grouped(rows, 1))


def readable_rows(membership: Membership, *, dated: bool) -> QuerySet[Trial] | QuerySet[TrialTally]:
    """The tallies the member may read, or the trials (``dated``: rows with their times)."""
    model = Trial if dated else TrialTally
    return model.objects.readable_by(membership)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def day_parts(start: datetime | None, end: datetime | None) -> list[Part]:
    """The time range [start, end) (None: open) as whole UTC days, read from the day tallies,
    and partial edges read from the trials. An edge longer than half a day is read as its whole
    day minus the rest of that day, so no part reads more than 12 hours of trials — none at all
    when the range's ends are UTC midnights (dates in a UTC server)."""
    start = start.astimezone(UTC) if start is not None else None
    end = end.astimezone(UTC) if end is not None else None
    first = stop = None
    if start is not None:
        first = start.date() + timedelta(days=0 if start == _midnight(start.date()) else 1)
    if end is not None:
        stop = end.date()
    if first is not None and stop is not None and first > stop:
        return [Part(1, "trials", start, end)]  # inside one UTC day: its trials
    parts = []
    if start is not None and first is not None and start < _midnight(first):
        if _midnight(first) - start <= HALF_DAY:
            parts.append(Part(1, "trials", start, _midnight(first)))
        else:
            first -= timedelta(days=1)
            parts.append(Part(-1, "trials", _midnight(first), start))
    if end is not None and stop is not None and end > _midnight(stop):
        if end - _midnight(stop) <= HALF_DAY:
            parts.append(Part(1, "trials", _midnight(stop), end))
        else:
            parts.append(Part(-1, "trials", end, _midnight(stop + timedelta(days=1))))
            stop += timedelta(days=1)
    if first is None or stop is None or first < stop:
        parts.append(Part(1, "days", first, stop))
    return parts


def _part_rows(part: Part, form: StatsFilterForm, membership: Membership) -> Any:
    if part.source == "days":
        days = form.apply(TrialDayTally.objects.readable_by(membership), dates=False)
        if part.start is not None:
            days = days.filter(day__gte=part.start)
        if part.end is not None:
            days = days.filter(day__lt=part.end)
        return _grouped(days, part.sign)
    trials = form.apply(Trial.objects.readable_by(membership), dates=False)
    if part.start is not None:
        trials = trials.filter(created_at__gte=part.start)
    if part.end is not None:
        trials = trials.filter(created_at__lt=part.end)
    return _grouped(trials, part.sign)


def campaign_figures(
    form: StatsFilterForm, membership: Membership
) -> tuple[Summary, list[tuple[int | None, str, Summary]]]:
    """The statistics page's figures under the filter form ``form`` (a ``StatsFilterForm``), in
    one query: the tallies; with dates, the day tallies of the range's whole UTC days and the
    trials of its edges (``day_parts``), one ``UNION ALL``."""
    start, end = form.time_range()
    if start is None and end is None:
        return tally(form.apply(TrialTally.objects.readable_by(membership)))
    first, *rest = [_part_rows(part, form, membership) for part in day_parts(start, end)]
    return _summaries(first.union(*rest, all=True) if rest else first)
