"""The statistics' figures as one SQL aggregate over ``rolls_trial`` (rolls/models/trials.py):
counts and sums per character, grouped in the database, then turned into the same
:class:`~rolls.log.statistics.Summary` the Python :class:`~rolls.log.statistics.Tally` gives.

The rows to add up come filtered by the caller (visibility with ``Trial.objects.readable_by``, then
the page's filters), so the page costs one query whatever the log's length: the database reads
narrow rows and returns one row per character, never an entry's JSON.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q, Sum

from rolls.log.statistics import Summary, Tally
from rolls.models import RollEntry, Trial
from rolls.models.trials import face_column_names


def _figures() -> dict[str, Any]:
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


def tally(trials: Any) -> tuple[Summary, list[tuple[int | None, str, Summary]]]:
    """The overall summary of ``trials`` (a ``Trial`` queryset, already filtered) and one per
    character, by name — in one query: a row per (character, name) as the entries recorded them."""
    rows = trials.order_by().values("character_id", "character_name").annotate(**_figures())
    per_character = [(row["character_id"], row["character_name"], _tally(row)) for row in rows]
    characters = sorted(
        ((pk, name, t.summary()) for pk, name, t in per_character),
        key=lambda row: (row[1].casefold(), row[0] or 0),
    )
    return _merged([t for _, _, t in per_character]).summary(), characters
