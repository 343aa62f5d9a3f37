"""On PostgreSQL, a trigram index for the log's search (rolls/log/filters.py, docs/log-tools.md).

One GIN index over the six searched columns joined by spaces (``SEARCH_TEXT``): a search word has
no space, so it lies inside the joined text exactly when it lies inside one of the columns. The
search asks the index first (``LIKE '%word%'``, which pg_trgm's operator class answers) and then
applies the exact rule (which columns, for which readers), so a word that no entry holds costs an
index probe instead of a scan of the campaign. pg_trgm is a trusted extension: the database's
owner may create it. SQLite has no trigram index; its search stays the scan (docs/log-tools.md).
"""

from django.db import migrations

# Kept identical to rolls.log.filters.SEARCH_TEXT: PostgreSQL uses the index only for the same
# expression.
SEARCH_TEXT = (
    "UPPER(character_name || ' ' || username || ' ' || label || ' ' || breakdown"
    " || ' ' || detail || ' ' || outcome_label)"
)


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm", params=None)
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS roll_entry_search ON rolls_rollentry"
            f" USING gin (({SEARCH_TEXT}) gin_trgm_ops)",
            params=None,
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS roll_entry_search", params=None)


class Migration(migrations.Migration):
    dependencies = [("rolls", "0015_trial_triggers")]

    operations = [migrations.RunPython(create, drop)]
