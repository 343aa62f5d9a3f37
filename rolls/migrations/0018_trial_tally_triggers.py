"""The database keeps ``rolls_trial_tally`` (log/models/trials.py) in step with ``rolls_trial``:
a trial's figures are added to its key's tally when its row is written, moved from the old key to
the new when the row changes (a reveal sets ``revealed``; deleting a character or user unlinks
it), and taken away when it is deleted — each in the statement, so the transaction, that changes
the trial. The tallies of the trials already written are added up here.

The keys hold 0 for a missing id: a unique key with a NULL never conflicts, and each trial would
make a row of its own.
"""

from django.db import migrations

KEY = [
    "campaign_id", "character_id", "character_name", "user_id", "roller_id", "label", "outcome",
    "visibility", "hidden_character", "revealed",
]  # fmt: skip
NULLABLE = ("character_id", "user_id", "roller_id")
FACES = [
    f"{kind}_{face}"
    for kind, sides in (("d6", 6), ("ability", 10), ("skill", 10), ("risk", 10))
    for face in range(1, sides + 1)
]
FIGURES = ["rolls", "successes", "measured", "measured_successes", "expected", "variance", *FACES]


def _key(row: str) -> list[str]:
    return [f"COALESCE({row}.{c}, 0)" if c in NULLABLE else f"{row}.{c}" for c in KEY]


def _figures(row: str) -> list[str]:
    """One trial's figures, from its row ``row`` (NEW or OLD)."""
    return [
        "1",
        f"CASE WHEN {row}.success THEN 1 ELSE 0 END",
        f"CASE WHEN {row}.chance IS NULL THEN 0 ELSE 1 END",
        f"CASE WHEN {row}.success AND {row}.chance IS NOT NULL THEN 1 ELSE 0 END",
        f"COALESCE({row}.chance, 0)",
        f"COALESCE({row}.chance * (1 - {row}.chance), 0)",
        *(f"{row}.{face}" for face in FACES),
    ]


def _add(vendor: str, row: str) -> str:
    table = "rolls_trial_tally." if vendor == "postgresql" else ""
    updates = ", ".join(f"{c} = {table}{c} + excluded.{c}" for c in FIGURES)
    return (
        f"INSERT INTO rolls_trial_tally ({', '.join(KEY + FIGURES)})"
        f" VALUES ({', '.join(_key(row) + _figures(row))})"
        f" ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET {updates}"
    )


def _take(row: str) -> str:
    """Take the trial away from its key's tally (a tally already gone stays gone)."""
    updates = ", ".join(f"{c} = {c} - {v}" for c, v in zip(FIGURES, _figures(row), strict=True))
    where = " AND ".join(f"{c} = {v}" for c, v in zip(KEY, _key(row), strict=True))
    return f"UPDATE rolls_trial_tally SET {updates} WHERE {where}"


BACKFILL = (
    f"INSERT INTO rolls_trial_tally ({', '.join(KEY + FIGURES)})"
    f" SELECT {', '.join(_key('t'))},"
    " count(*), sum(CASE WHEN t.success THEN 1 ELSE 0 END),"
    " sum(CASE WHEN t.chance IS NULL THEN 0 ELSE 1 END),"
    " sum(CASE WHEN t.success AND t.chance IS NOT NULL THEN 1 ELSE 0 END),"
    " COALESCE(sum(t.chance), 0), COALESCE(sum(t.chance * (1 - t.chance)), 0),"
    f" {', '.join(f'sum(t.{face})' for face in FACES)}"
    f" FROM rolls_trial t GROUP BY {', '.join(_key('t'))}"
)


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(
            f"""
            CREATE OR REPLACE FUNCTION rolls_trial_tally() RETURNS trigger AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    {_take("OLD")};
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    {_add(vendor, "NEW")};
                END IF;
                RETURN NULL;
            END;
            $$ LANGUAGE plpgsql;
            CREATE TRIGGER rolls_trial_tally AFTER INSERT OR UPDATE OR DELETE ON rolls_trial
                FOR EACH ROW EXECUTE FUNCTION rolls_trial_tally();
            """,
            params=None,
        )
    else:
        for name, event, body in (
            ("add", "INSERT", _add(vendor, "NEW")),
            ("move", "UPDATE", f"{_take('OLD')}; {_add(vendor, 'NEW')}"),
            ("take", "DELETE", _take("OLD")),
        ):
            schema_editor.execute(
                f"CREATE TRIGGER rolls_trial_tally_{name} AFTER {event} ON rolls_trial"
                f" BEGIN {body}; END",
                params=None,
            )
    schema_editor.execute(BACKFILL, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS rolls_trial_tally ON rolls_trial;"
            " DROP FUNCTION IF EXISTS rolls_trial_tally();",
            params=None,
        )
    else:
        for name in ("add", "move", "take"):
            schema_editor.execute(f"DROP TRIGGER IF EXISTS rolls_trial_tally_{name}", params=None)
    schema_editor.execute("DELETE FROM rolls_trial_tally", params=None)


class Migration(migrations.Migration):
    dependencies = [("rolls", "0017_trial_tallies")]

    operations = [migrations.RunPython(create, drop)]
