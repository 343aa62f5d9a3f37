"""An entry's kind is any registered kind (rolls/models/kinds.py, settings.LOG_KINDS), not a
closed list: the field's choices come from the registry, and the database's two checks on the
kind hold the registered kinds (unchanged for the app's own sixteen; the tests register one more),
as migration 0019 did for contest kinds. Which kinds start a chain is each kind's ``starts_chain``.
The app's own kinds are written out here: a migration freezes what it made."""

from django.db import migrations, models
from django.db.models import Q

import rolls.models.kinds
from rolls.models.kinds import KINDS
from sheets.models.base import registered_check

THE_APPS_OWN = [
    "assist",
    "auto_pass",
    "buy_boon",
    "choice",
    "contest",
    "correct",
    "destiny",
    "extra_boon",
    "message",
    "message_edit",
    "reveal",
    "roll",
    "scene",
    "session",
    "session_end",
    "skip",
]
THE_APPS_OWN_ROOTS = [
    "assist",
    "auto_pass",
    "contest",
    "message",
    "reveal",
    "roll",
    "scene",
    "session",
    "session_end",
    "skip",
]


def _follow_ups_follow(roots: list[str]) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(kind__in=roots, follows__isnull=True)
        | (~Q(kind__in=roots) & Q(follows__isnull=False)),
        name="roll_entry_follow_ups_follow",
    )


def _roots_check(roots: list[str]) -> list[migrations.operations.base.Operation]:
    if roots == THE_APPS_OWN_ROOTS:
        return []
    return [
        migrations.RemoveConstraint(model_name="rollentry", name="roll_entry_follow_ups_follow"),
        migrations.AddConstraint(model_name="rollentry", constraint=_follow_ups_follow(roots)),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0029_seen_heads"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="rollentry", name="roll_entry_kind_valid"),
                migrations.RemoveConstraint(
                    model_name="rollentry", name="roll_entry_follow_ups_follow"
                ),
                migrations.AlterField(
                    model_name="rollentry",
                    name="kind",
                    field=models.CharField(choices=rolls.models.kinds.kind_choices, max_length=16),
                ),
            ],
            database_operations=[
                *registered_check(
                    "rollentry", "kind", "roll_entry_kind_valid", sorted(KINDS), THE_APPS_OWN
                ),
                *_roots_check(sorted(key for key, info in KINDS.items() if info.starts_chain)),
            ],
        ),
    ]
