"""An entry's kind is any registered kind (log/models/kinds.py, settings.LOG_KINDS), not a
closed list: the field's choices come from the registry, and the database's two checks on the
kind hold the registered kinds (unchanged for the app's own sixteen; the tests register one more),
as migration 0019 did for contest kinds. Which kinds start a chain is each kind's ``starts_chain``.
The app's own kinds are written out here: a migration freezes what it made."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.operations.base import Operation
from django.db.migrations.state import ProjectState
from django.db.models import Q

import log.models.kinds
from log.models.kinds import KINDS
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


class KeepingSchemaObjects(Operation):
    """Run ``operations`` on the database, keeping the table's triggers and hand-made indexes.
    SQLite changes a check constraint by copying the table into a new one, which drops what the
    earlier migrations made by SQL on it (the append-only and trial triggers): they are read from
    ``sqlite_master`` first and made again after. PostgreSQL alters the constraint in place."""

    reduces_to_sql = False

    def __init__(self, table: str, operations: list[Operation]) -> None:
        self.table = table
        self.operations = operations

    def state_forwards(self, app_label: str, state: ProjectState) -> None:
        for operation in self.operations:
            operation.state_forwards(app_label, state)

    def database_forwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        states = self._states(app_label, from_state)
        kept = self._schema_objects(schema_editor)
        for i, operation in enumerate(self.operations):
            operation.database_forwards(app_label, schema_editor, states[i], states[i + 1])
        self._restore(schema_editor, kept)

    def database_backwards(
        self,
        app_label: str,
        schema_editor: BaseDatabaseSchemaEditor,
        from_state: ProjectState,
        to_state: ProjectState,
    ) -> None:
        states = self._states(app_label, to_state)
        kept = self._schema_objects(schema_editor)
        for i, operation in reversed(list(enumerate(self.operations))):
            operation.database_backwards(app_label, schema_editor, states[i + 1], states[i])
        self._restore(schema_editor, kept)

    def _states(self, app_label: str, state: ProjectState) -> list[ProjectState]:
        """The state before each operation, and after the last."""
        states = [state]
        for operation in self.operations:
            states.append(states[-1].clone())
            operation.state_forwards(app_label, states[-1])
        return states

    def _restore(self, schema_editor: BaseDatabaseSchemaEditor, kept: dict[str, str]) -> None:
        present = set(self._schema_objects(schema_editor))
        for name, sql in kept.items():
            if name not in present:
                schema_editor.execute(sql, params=None)

    def describe(self) -> str:
        return f"Change checks on {self.table}, keeping its triggers"

    def _schema_objects(self, schema_editor: BaseDatabaseSchemaEditor) -> dict[str, str]:
        if schema_editor.connection.vendor != "sqlite":
            return {}
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE tbl_name = %s"
                " AND type IN ('trigger', 'index') AND sql IS NOT NULL",
                [self.table],
            )
            return dict(cursor.fetchall())


class Migration(migrations.Migration):
    dependencies = [
        ("log", "0001_initial"),
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
                    field=models.CharField(choices=log.models.kinds.kind_choices, max_length=16),
                ),
            ],
            database_operations=[
                KeepingSchemaObjects(
                    "rolls_rollentry",
                    [
                        *registered_check(
                            "rollentry",
                            "kind",
                            "roll_entry_kind_valid",
                            sorted(KINDS),
                            THE_APPS_OWN,
                        ),
                        *_roots_check(
                            sorted(key for key, info in KINDS.items() if info.starts_chain)
                        ),
                    ],
                )
            ],
        ),
    ]
