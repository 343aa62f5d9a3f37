"""On PostgreSQL, an index for search words of one or two letters (rolls/log/filters.py,
docs/log-tools.md), which the trigram index of 0016 can't narrow (they hold no trigram).

``rolls_search_grams(text)`` is the set of the text's distinct one- and two-character pieces (none
with a space: a word has none); a GIN index holds it for each entry's joined search text
(``SEARCH_TEXT``, as in 0016). A word of one or two letters lies in the joined text only if every
piece of it is in that set, so ``grams @> rolls_search_grams(UPPER(word))`` is a necessary
condition the index answers — a probe instead of a scan of the campaign for a word no entry
holds — and the exact rule (which columns, for which readers) decides as before. SQLite keeps
the scan (docs/log-tools.md).
"""

from django.db import migrations

# Kept identical to rolls.log.filters.SEARCH_TEXT: PostgreSQL uses the index only for the same
# expression.
SEARCH_TEXT = (
    "UPPER(character_name || ' ' || username || ' ' || label || ' ' || breakdown"
    " || ' ' || detail || ' ' || outcome_label)"
)

GRAMS = """
CREATE OR REPLACE FUNCTION rolls_search_grams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT COALESCE(array_agg(DISTINCT g), '{}') FROM (
        SELECT substr(t, i, n) AS g
        FROM generate_series(1, length(t)) AS i, (VALUES (1), (2)) AS sizes(n)
        WHERE i + n - 1 <= length(t)
    ) AS pieces
    WHERE strpos(g, ' ') = 0
$$
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(GRAMS, params=None)
        schema_editor.execute(
            "CREATE INDEX IF NOT EXISTS roll_entry_short_search ON rolls_rollentry"
            f" USING gin (rolls_search_grams({SEARCH_TEXT}))",
            params=None,
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP INDEX IF EXISTS roll_entry_short_search", params=None)
        schema_editor.execute("DROP FUNCTION IF EXISTS rolls_search_grams(text)", params=None)


class Migration(migrations.Migration):
    dependencies = [("rolls", "0020_trial_day_tallies")]

    operations = [migrations.RunPython(create, drop)]
