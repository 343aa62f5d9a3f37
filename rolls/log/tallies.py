"""The statistics' figures as one SQL aggregate (rolls/models/trials.py): over the tallies
(``rolls_trial_tally``, a row per key of character, player, skill, outcome and audience) or, when a
date filter needs each trial's time, over the trials (``rolls_trial``, a row per trial). Counts
and sums per character, grouped in the database, then turned into the same
:class:`~rolls.log.statistics.Summary` the Python :class:`~rolls.log.statistics.Tally` gives.

The rows to add up come filtered by the caller (visibility with ``readable_by``, then the page's
filters), so the page costs one query whatever the log's length and never reads an entry's JSON.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q, Sum

from rolls.log.statistics import Summary, Tally
from rolls.models import RollEntry, Trial, TrialTally
from rolls.models.trials import face_column_names
from sheets.models import Membership


def _summed() -> dict[str, Any]:
    """A tally row's figures, added up."""
    names = ("rolls", "successes", "measured", "measured_successes", "expected", "variance")
    return {name: Sum(name) for name in names} | Trial.face_sums()


def _figures() -> dict[str, Any]:
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


def _tally(row: dict[str, Any]) -> Tally:
    faces: dict[str, dict[int, int]] = {}
    for kind, face, column in face_column_names():
        if row[column]:
            faces.setdefault(kind, {})[face] = row[column]
    return Tally(
        frozenset(RollEntry.SUCCESS_OUTCOMES),
        rolls=row["rolls"],
        successes=row["successes"],
        measured=row["measured"],
        measured_successes=row["measured_successes"],
        expected=row["expected"] or 0.0,
        variance=row["variance"] or 0.0,
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
    return total


def tally(rows: Any) -> tuple[Summary, list[tuple[int | None, str, Summary]]]:
    """The overall summary of ``rows`` (a ``TrialTally`` or ``Trial`` queryset, already filtered)
    and one per character, by name — in one query: a row per (character, name) as the entries
    recorded them. A character whose tallies all moved away (revealed, unlinked) is left out."""
    figures = _summed() if rows.model is TrialTally else _figures()
    grouped = rows.order_by().values("character_id", "character_name").annotate(**figures)
    per_character = [
        (row["character_id"] or None, row["character_name"], _tally(row))
        for row in grouped
        if row["rolls"]
    ]
    characters = sorted(
        ((pk, name, t.summary()) for pk, name, t in per_character),
        key=lambda row: (row[1].casefold(), row[0] or 0),
    )
    return _merged([t for _, _, t in per_character]).summary(), characters


def readable_rows(membership: Membership, *, dated: bool) -> Any:
    """What the statistics add up for the member: the tallies, or the trials when a date filter
    needs their times (a date range reads the trials inside it, by the (campaign, time) index)."""
    model = Trial if dated else TrialTally
    return model.objects.readable_by(membership)
