"""Hash version 6: free text committed, not bound (docs/roll-log.md). Entries gain
``commitments`` (null on every earlier entry, outside its hash: adding it updates no row, so the
append-only trigger is not asked; nullable and without a default, so SQLite adds it in place
instead of remaking the table, which would drop the table's triggers), and the text and salt go to ``EntryText``,
which no trigger guards: it may be emptied.

On PostgreSQL the texts get a trigram index like the entries' search text (0016): the log's
search asks it for a message's words."""

import django.db.models.deletion
from django.db import migrations, models


def create_search(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm", params=None)
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS entry_text_search ON log_entrytext"
            ' USING gin ((UPPER("text"::text)) gin_trgm_ops)',
            params=None,
        )


def drop_search(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS entry_text_search", params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("log", "0002_open_log_kinds"),
    ]

    operations = [
        migrations.AddField(
            model_name="rollentry",
            name="commitments",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.CreateModel(
            name="EntryText",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "field",
                    models.CharField(
                        help_text="The entry's field the text stands in.", max_length=16
                    ),
                ),
                ("text", models.TextField(blank=True)),
                ("salt", models.CharField(help_text="64 hex digits.", max_length=64)),
                (
                    "entry",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="texts",
                        to="log.rollentry",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("entry", "field"), name="entry_text_unique")
                ],
            },
        ),
        migrations.RunPython(create_search, drop_search),
    ]
