"""The app's own kinds gain ``punch``: a DAD6 puncher's chance re-roll, or its stop, follows the
roll (rolls/rolling/followups/dad6.py). The database's check on an entry's kind is made again to
hold every registered kind, as 0002 made it; a database made by 0002 since the kind exists holds
it already, and gets the same check again.

The project state holds neither of 0002's checks (the models declare no closed list), so the
database operations first put both back into their own state: SQLite changes a check by copying
the table from that state, and would otherwise drop the follow-ups' check along the way."""

import importlib

from django.db import migrations

from log.models.kinds import KINDS
from sheets.models.base import in_constraint

_open_kinds = importlib.import_module("log.migrations.0002_open_log_kinds")
ROOTS = sorted(key for key, info in KINDS.items() if info.starts_chain)

# What the checks hold from here on for the app's own kinds (tests/log/test_kinds.py compares).
THE_APPS_OWN = sorted([*_open_kinds.THE_APPS_OWN, "punch"])
THE_APPS_OWN_ROOTS = _open_kinds.THE_APPS_OWN_ROOTS  # a follow-up: no new root


def _kind_check(kinds: list[str]) -> object:
    return in_constraint("kind", kinds, "roll_entry_kind_valid")


class Migration(migrations.Migration):
    dependencies = [
        ("log", "0003_entry_texts"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                _open_kinds.KeepingSchemaObjects(
                    "rolls_rollentry",
                    [
                        # The two checks as the database holds them (state only: nothing runs).
                        migrations.SeparateDatabaseAndState(
                            state_operations=[
                                migrations.AddConstraint(
                                    model_name="rollentry",
                                    constraint=_kind_check(_open_kinds.THE_APPS_OWN),
                                ),
                                migrations.AddConstraint(
                                    model_name="rollentry",
                                    constraint=_open_kinds._follow_ups_follow(ROOTS),
                                ),
                            ]
                        ),
                        migrations.RemoveConstraint(
                            model_name="rollentry", name="roll_entry_kind_valid"
                        ),
                        migrations.AddConstraint(
                            model_name="rollentry", constraint=_kind_check(sorted(KINDS))
                        ),
                    ],
                )
            ]
        )
    ]
