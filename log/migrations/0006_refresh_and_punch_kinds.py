"""Two new kinds of the app's own: ``refresh`` (the GM refreshed a character's resources, a root)
and ``punch`` (a DAD6 puncher's chance re-roll or its stop, a follow-up). The database's two checks
on the kind (``roll_entry_kind_valid``, and ``roll_entry_follow_ups_follow`` from
``starts_chain``) are made again to hold every registered kind. Migration 0002 made them from the
kinds registered when it ran, so a database migrated before these kinds existed refuses them until
they are made again; on a fresh database this makes the same checks again. The migration state
holds neither check (0002 left them to the database), so each is put into this operation's own
state first, then dropped and made again."""

import importlib

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState
from django.db.models import Q

from log.models.kinds import KINDS
from sheets.models.base import in_constraint

open_kinds = importlib.import_module("log.migrations.0002_open_log_kinds")

# What the checks hold from here on for the app's own kinds (tests/log/test_kinds.py compares).
THE_APPS_OWN = sorted([*open_kinds.THE_APPS_OWN, "punch", "refresh"])
THE_APPS_OWN_ROOTS = sorted([*open_kinds.THE_APPS_OWN_ROOTS, "refresh"])


class InStateOnly(migrations.AddConstraint):
    """Put a check the database already has into the state this migration's operations read."""

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        pass

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        pass


def _remade(name: str, constraint: models.BaseConstraint) -> list[Operation]:
    return [
        InStateOnly(model_name="rollentry", constraint=constraint),
        migrations.RemoveConstraint(model_name="rollentry", name=name),
        migrations.AddConstraint(model_name="rollentry", constraint=constraint),
    ]


def _operations() -> list[Operation]:
    roots = sorted(key for key, info in KINDS.items() if info.starts_chain)
    follow = Q(kind__in=roots, follows__isnull=True) | (
        ~Q(kind__in=roots) & Q(follows__isnull=False)
    )
    return [
        *_remade(
            "roll_entry_kind_valid", in_constraint("kind", sorted(KINDS), "roll_entry_kind_valid")
        ),
        *_remade(
            "roll_entry_follow_ups_follow",
            models.CheckConstraint(condition=follow, name="roll_entry_follow_ups_follow"),
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("log", "0005_head_counters"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[],
            database_operations=[open_kinds.KeepingSchemaObjects("rolls_rollentry", _operations())],
        ),
    ]
