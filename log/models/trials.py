"""The statistics' table: one row per trial (a ``roll`` or ``correct`` entry) with the figures the
statistics page adds up, so the page is one SQL aggregate over narrow, indexed rows instead of a walk
through every entry's JSON in Python (docs/log-tools.md, "Statistics").

The rows are written by the database itself, by triggers on the roll log (migration
0014_trials): an entry's row is inserted in the very statement, so the very transaction, that
appends the entry, and a reveal marks the rows it makes readable in its own. Nothing in Python
writes them, so no append path (the one-statement append included) can forget them; the trial
row is no part of the entry's hash. ``tests/rolls/test_log_stats_sql.py`` holds the SQL to
:class:`rolls.log.statistics.Tally` on random logs.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q, Value

from log.models import visibility
from log.models.entry import RollEntry
from sheets.models import Campaign, Character, Membership

# The die kinds with a face column each, and their sides: ``<kind>_<face>`` counts the entry's dice
# of that kind showing that face (before any DAD6 modifier). The triggers' SQL is written from this.
FACE_COLUMNS: dict[str, int] = {"d6": 6, "ability": 10, "skill": 10, "risk": 10}


def face_column_names() -> list[tuple[str, int, str]]:
    """(die kind, face, column) for every face column, in table order."""
    return [
        (kind, face, f"{kind}_{face}")
        for kind, sides in FACE_COLUMNS.items()
        for face in range(1, sides + 1)
    ]


# The statistics' rows hold only rolls and corrections, never a whisper; ``revealed`` is the
# column the reveal trigger keeps (migration 0015), which says what ``visibility.revealed_q`` says
# of the entry (tests/rolls/test_visibility_rule.py holds the two equal).
def _trial_revealed(as_of: visibility.AsOf) -> Q:
    if as_of is not visibility.AsOf.NOW:  # the column is the reveal as of now, nothing older
        raise ValueError("A trial knows only whether it is revealed now.")
    return Q(revealed=True)


TRIAL_ROWS = visibility.Rows(revealed=_trial_revealed, recipient=None)


def _readable(qs: Any, membership: Membership) -> Any:
    """The readable rule of ``RollEntryQuerySet.readable_by`` on a trial or tally queryset."""
    qs = qs.filter(campaign_id=membership.campaign_id)
    rule = visibility.readable_q(membership, rows=TRIAL_ROWS)
    if rule is not None:
        qs = qs.filter(rule)
    return qs.annotate(readable=Value(True))


class TrialQuerySet(models.QuerySet["Trial"]):
    def readable_by(self, membership: Membership) -> TrialQuerySet:
        """The member's campaign's trials whose figures the member may read: the rule of
        ``RollEntryQuerySet.readable_by``, on the columns copied from the entry (``revealed`` is
        kept by the reveal trigger). Each row carries ``readable`` (always true here), so the
        log's filter form applies to these rows as to entries."""
        return _readable(self, membership)


class Trial(models.Model):
    """A trial's figures, copied from its entry by a trigger (never by Python)."""

    # No foreign key in the database: the row is the trigger's copy of its entry, written with it,
    # and a deferred check of it would fail whichever transaction inserted it if entries were
    # ever removed behind the triggers (tests/rolls/test_integrity.py does, as a tamperer would).
    entry = models.OneToOneField(
        RollEntry,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        db_constraint=False,
    )
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    character = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, related_name="+", db_index=False
    )
    character_name = models.CharField(max_length=200)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        db_index=False,
    )
    roller = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        db_index=False,
    )
    root_id = models.BigIntegerField(null=True)  # the entry's root: a reveal of it opens this row
    kind = models.CharField(max_length=16)
    label = models.CharField(max_length=200)
    outcome = models.CharField(max_length=32)
    created_at = models.DateTimeField()
    visibility = models.CharField(max_length=16)
    hidden_character = models.BooleanField()
    revealed = models.BooleanField(default=False)  # the entry or its root has been revealed
    success = models.BooleanField()  # outcome in RollEntry.SUCCESS_OUTCOMES
    chance = models.FloatField(null=True)  # p: the success bands of odds_table; null without one
    d6_1 = models.PositiveSmallIntegerField(default=0)
    d6_2 = models.PositiveSmallIntegerField(default=0)
    d6_3 = models.PositiveSmallIntegerField(default=0)
    d6_4 = models.PositiveSmallIntegerField(default=0)
    d6_5 = models.PositiveSmallIntegerField(default=0)
    d6_6 = models.PositiveSmallIntegerField(default=0)
    ability_1 = models.PositiveSmallIntegerField(default=0)
    ability_2 = models.PositiveSmallIntegerField(default=0)
    ability_3 = models.PositiveSmallIntegerField(default=0)
    ability_4 = models.PositiveSmallIntegerField(default=0)
    ability_5 = models.PositiveSmallIntegerField(default=0)
    ability_6 = models.PositiveSmallIntegerField(default=0)
    ability_7 = models.PositiveSmallIntegerField(default=0)
    ability_8 = models.PositiveSmallIntegerField(default=0)
    ability_9 = models.PositiveSmallIntegerField(default=0)
    ability_10 = models.PositiveSmallIntegerField(default=0)
    skill_1 = models.PositiveSmallIntegerField(default=0)
    skill_2 = models.PositiveSmallIntegerField(default=0)
    skill_3 = models.PositiveSmallIntegerField(default=0)
    skill_4 = models.PositiveSmallIntegerField(default=0)
    skill_5 = models.PositiveSmallIntegerField(default=0)
    skill_6 = models.PositiveSmallIntegerField(default=0)
    skill_7 = models.PositiveSmallIntegerField(default=0)
    skill_8 = models.PositiveSmallIntegerField(default=0)
    skill_9 = models.PositiveSmallIntegerField(default=0)
    skill_10 = models.PositiveSmallIntegerField(default=0)
    risk_1 = models.PositiveSmallIntegerField(default=0)
    risk_2 = models.PositiveSmallIntegerField(default=0)
    risk_3 = models.PositiveSmallIntegerField(default=0)
    risk_4 = models.PositiveSmallIntegerField(default=0)
    risk_5 = models.PositiveSmallIntegerField(default=0)
    risk_6 = models.PositiveSmallIntegerField(default=0)
    risk_7 = models.PositiveSmallIntegerField(default=0)
    risk_8 = models.PositiveSmallIntegerField(default=0)
    risk_9 = models.PositiveSmallIntegerField(default=0)
    risk_10 = models.PositiveSmallIntegerField(default=0)

    objects = TrialQuerySet.as_manager()

    class Meta:
        db_table = "rolls_trial"
        indexes = [
            models.Index(fields=["campaign", "created_at"], name="trial_campaign_time"),
            models.Index(fields=["campaign", "character"], name="trial_campaign_character"),
            models.Index(fields=["root_id"], name="trial_root"),
        ]

    def __str__(self) -> str:
        return f"trial of entry {self.entry_id}"

    @classmethod
    def face_sums(cls) -> dict[str, Any]:
        """``Sum`` of every face column, by column name, for an aggregate."""
        return {column: models.Sum(column) for _, _, column in face_column_names()}


# The columns a tally is keyed by: every column the statistics filter on (but the time) and every
# column the visibility rule reads. 0 stands for "none" in the id columns, so that a unique key
# has no NULL (NULLs never conflict, and an upsert would make a row per trial).
TALLY_KEY = (
    "campaign_id",
    "character_id",
    "character_name",
    "user_id",
    "roller_id",
    "label",
    "outcome",
    "visibility",
    "hidden_character",
    "revealed",
)


class TrialTallyQuerySet(models.QuerySet["TrialTally"]):
    def readable_by(self, membership: Membership) -> TrialTallyQuerySet:
        """As ``TrialQuerySet.readable_by``, on the tallies (the same columns, the same rule)."""
        return _readable(self, membership)


class TallyFigures(models.Model):
    """A tally's figures: the sums of its trials' counts, p, p(1 − p) and face counters."""

    rolls = models.BigIntegerField(default=0)
    successes = models.BigIntegerField(default=0)
    measured = models.BigIntegerField(default=0)
    measured_successes = models.BigIntegerField(default=0)
    expected = models.FloatField(default=0.0)
    variance = models.FloatField(default=0.0)
    d6_1 = models.BigIntegerField(default=0)
    d6_2 = models.BigIntegerField(default=0)
    d6_3 = models.BigIntegerField(default=0)
    d6_4 = models.BigIntegerField(default=0)
    d6_5 = models.BigIntegerField(default=0)
    d6_6 = models.BigIntegerField(default=0)
    ability_1 = models.BigIntegerField(default=0)
    ability_2 = models.BigIntegerField(default=0)
    ability_3 = models.BigIntegerField(default=0)
    ability_4 = models.BigIntegerField(default=0)
    ability_5 = models.BigIntegerField(default=0)
    ability_6 = models.BigIntegerField(default=0)
    ability_7 = models.BigIntegerField(default=0)
    ability_8 = models.BigIntegerField(default=0)
    ability_9 = models.BigIntegerField(default=0)
    ability_10 = models.BigIntegerField(default=0)
    skill_1 = models.BigIntegerField(default=0)
    skill_2 = models.BigIntegerField(default=0)
    skill_3 = models.BigIntegerField(default=0)
    skill_4 = models.BigIntegerField(default=0)
    skill_5 = models.BigIntegerField(default=0)
    skill_6 = models.BigIntegerField(default=0)
    skill_7 = models.BigIntegerField(default=0)
    skill_8 = models.BigIntegerField(default=0)
    skill_9 = models.BigIntegerField(default=0)
    skill_10 = models.BigIntegerField(default=0)
    risk_1 = models.BigIntegerField(default=0)
    risk_2 = models.BigIntegerField(default=0)
    risk_3 = models.BigIntegerField(default=0)
    risk_4 = models.BigIntegerField(default=0)
    risk_5 = models.BigIntegerField(default=0)
    risk_6 = models.BigIntegerField(default=0)
    risk_7 = models.BigIntegerField(default=0)
    risk_8 = models.BigIntegerField(default=0)
    risk_9 = models.BigIntegerField(default=0)
    risk_10 = models.BigIntegerField(default=0)

    class Meta:
        abstract = True


class TrialTally(TallyFigures):
    """The trials of one key (``TALLY_KEY``) added up: kept by triggers on ``rolls_trial``
    (migration 0017), in the transaction that writes, reveals or unlinks a trial. The statistics
    read these instead of the trials unless a date filter needs the trials' times: their number
    grows with the campaign's characters, players, skills and outcomes, not with its log."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    character_id = models.BigIntegerField()  # 0: none (deleted)
    character_name = models.CharField(max_length=200)
    user_id = models.BigIntegerField()  # 0: none
    roller_id = models.BigIntegerField()  # 0: none
    label = models.CharField(max_length=200)
    outcome = models.CharField(max_length=32)
    visibility = models.CharField(max_length=16)
    hidden_character = models.BooleanField()
    revealed = models.BooleanField()
    objects = TrialTallyQuerySet.as_manager()

    class Meta:
        db_table = "rolls_trial_tally"
        constraints = [models.UniqueConstraint(fields=TALLY_KEY, name="trial_tally_key")]

    def __str__(self) -> str:
        return f"{self.rolls} trials of {self.character_name}: {self.label}"


class TrialDayTallyQuerySet(models.QuerySet["TrialDayTally"]):
    def readable_by(self, membership: Membership) -> TrialDayTallyQuerySet:
        """As ``TrialQuerySet.readable_by``, on the day tallies (the same columns, the same rule)."""
        return _readable(self, membership)


class TrialDayTally(TallyFigures):
    """The trials of one key (``TALLY_KEY``) and one UTC day (``created_at``'s date in UTC) added
    up: kept by triggers on ``rolls_trial`` (migration 0020) like ``TrialTally``. A date filter
    reads the whole UTC days of its range here and only the trials of its partial edges
    (rolls/log/tallies.py, ``day_parts``)."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    day = models.DateField()  # the trials' created_at, as a date in UTC
    character_id = models.BigIntegerField()  # 0: none (deleted)
    character_name = models.CharField(max_length=200)
    user_id = models.BigIntegerField()  # 0: none
    roller_id = models.BigIntegerField()  # 0: none
    label = models.CharField(max_length=200)
    outcome = models.CharField(max_length=32)
    visibility = models.CharField(max_length=16)
    hidden_character = models.BooleanField()
    revealed = models.BooleanField()

    objects = TrialDayTallyQuerySet.as_manager()

    class Meta:
        db_table = "rolls_trial_day_tally"
        constraints = [
            models.UniqueConstraint(
                fields=("campaign_id", "day", *TALLY_KEY[1:]), name="trial_day_tally_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.rolls} trials of {self.character_name} on {self.day}: {self.label}"
