"""The database keeps ``rolls_trial`` (log/models/trials.py) in step with the roll log: a trigger
inserts a trial's row in the statement that appends its entry, another marks rows revealed in the
statement that appends a reveal; the entries already written get their rows here.

Triggers rather than Python in ``append``: the row is then written on every route an entry can
take in (the one-statement append, the locked one, a bulk load), always in the appending
transaction, and the entry's own columns (and so its hash) are untouched.

The SQL repeats ``rolls.log.statistics``' definitions: a trial is a ``roll`` or ``correct``
entry, a success an outcome in ``RollEntry.SUCCESS_OUTCOMES``, p the sum of the odds table's
success bands (``"num/den"``, or a plain number, as ``Fraction`` reads them), face counts per die
kind for faces 1 … sides. Frozen here, as a migration must be; the property test
(tests/rolls/test_log_stats_sql.py) holds them to the Python ``Tally``.
"""

from django.db import migrations

TRIAL_KINDS = ("roll", "correct")
SUCCESS_OUTCOMES = ("critical_success", "success", "costly_success")
FACES = [
    (kind, face)
    for kind, sides in (("d6", 6), ("ability", 10), ("skill", 10), ("risk", 10))
    for face in range(1, sides + 1)
]

COLUMNS = [
    "entry_id", "campaign_id", "character_id", "character_name", "user_id", "roller_id",
    "root_id", "kind", "label", "outcome", "created_at", "visibility", "hidden_character",
    "revealed", "success", "chance",
    *(f"{kind}_{face}" for kind, face in FACES),
]  # fmt: skip


def _quoted(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _select(vendor: str, where: str) -> str:
    """``SELECT`` of the trial rows of the entries ``e0`` matching ``where``."""
    pg = vendor == "postgresql"
    successes = _quoted(SUCCESS_OUTCOMES)
    if pg:
        band = (
            "CASE WHEN position('/' IN o.value) > 0"
            " THEN split_part(o.value, '/', 1)::numeric / split_part(o.value, '/', 2)::numeric"
            " ELSE o.value::numeric END"
        )
        chance = (
            "CASE WHEN jsonb_typeof(e0.odds_table) = 'object' AND e0.odds_table <> '{}'::jsonb"
            f" THEN COALESCE((SELECT sum({band}) FROM jsonb_each_text(e0.odds_table) o"
            f" WHERE o.key IN ({successes})), 0)::double precision END"
        )
        dice = (
            " LEFT JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(e0.faces) = 'array'"
            " THEN e0.faces ELSE '[]'::jsonb END) d(die) ON TRUE"
        )
        counts = [
            f"count(*) FILTER (WHERE d.die ->> 'kind' = '{kind}' AND d.die ->> 'face' = '{face}')"
            for kind, face in FACES
        ]
    else:
        band = (
            "CASE WHEN instr(o.value, '/') > 0"
            " THEN CAST(substr(o.value, 1, instr(o.value, '/') - 1) AS REAL)"
            " / CAST(substr(o.value, instr(o.value, '/') + 1) AS REAL)"
            " ELSE CAST(o.value AS REAL) END"
        )
        chance = (
            "CASE WHEN json_type(e0.odds_table) = 'object' AND e0.odds_table <> '{}'"
            f" THEN COALESCE((SELECT sum({band}) FROM json_each(e0.odds_table) o"
            f" WHERE o.key IN ({successes})), 0.0) END"
        )
        dice = (
            " LEFT JOIN json_each(CASE WHEN json_type(e0.faces) = 'array'"
            " THEN e0.faces ELSE '[]' END) d"
        )
        counts = [
            f"count(*) FILTER (WHERE json_extract(d.value, '$.kind') = '{kind}'"
            f" AND json_extract(d.value, '$.face') = {face})"
            for kind, face in FACES
        ]
    # Revealed: the entry itself, or its chain's root (RollEntryQuerySet._revealed).
    revealed = (
        "(EXISTS (SELECT 1 FROM rolls_rollentry r WHERE r.reveals_id = e0.id)"
        " OR (e0.root_id IS NOT NULL"
        " AND EXISTS (SELECT 1 FROM rolls_rollentry r WHERE r.reveals_id = e0.root_id)))"
    )
    values = [
        "e0.id", "e0.campaign_id", "e0.character_id", "e0.character_name", "e0.user_id",
        "e0.roller_id", "e0.root_id", "e0.kind", "e0.label", "e0.outcome", "e0.created_at",
        "e0.visibility", "e0.hidden_character", revealed, f"e0.outcome IN ({successes})", chance,
        *counts,
    ]  # fmt: skip
    return f"SELECT {', '.join(values)} FROM rolls_rollentry e0{dice} WHERE {where} GROUP BY e0.id"


def _insert(vendor: str, where: str) -> str:
    return f"INSERT INTO rolls_trial ({', '.join(COLUMNS)}) {_select(vendor, where)}"


REVEAL = "UPDATE rolls_trial SET revealed = {true} WHERE entry_id = NEW.reveals_id OR root_id = NEW.reveals_id"


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    trials = f"e0.kind IN ({_quoted(TRIAL_KINDS)})"
    if vendor == "postgresql":
        schema_editor.execute(
            f"""
            CREATE OR REPLACE FUNCTION rolls_trial_from_entry() RETURNS trigger AS $$
            BEGIN
                IF NEW.kind = 'reveal' THEN
                    {REVEAL.format(true="TRUE")};
                ELSIF NEW.kind IN ({_quoted(TRIAL_KINDS)}) THEN
                    {_insert(vendor, "e0.id = NEW.id")};
                END IF;
                RETURN NULL;
            END;
            $$ LANGUAGE plpgsql;
            CREATE TRIGGER rolls_trial_from_entry AFTER INSERT ON rolls_rollentry
                FOR EACH ROW EXECUTE FUNCTION rolls_trial_from_entry();
            """,
            params=None,
        )
    else:
        schema_editor.execute(
            "CREATE TRIGGER rolls_trial_from_entry AFTER INSERT ON rolls_rollentry"
            f" WHEN NEW.kind IN ({_quoted(TRIAL_KINDS)})"
            f" BEGIN {_insert(vendor, 'e0.id = NEW.id')}; END",
            params=None,
        )
        schema_editor.execute(
            "CREATE TRIGGER rolls_trial_reveal AFTER INSERT ON rolls_rollentry"
            f" WHEN NEW.kind = 'reveal' BEGIN {REVEAL.format(true='1')}; END",
            params=None,
        )
    # The entries written before this migration.
    schema_editor.execute(_insert(vendor, trials), params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS rolls_trial_from_entry ON rolls_rollentry;"
            " DROP FUNCTION IF EXISTS rolls_trial_from_entry();",
            params=None,
        )
    else:
        schema_editor.execute("DROP TRIGGER IF EXISTS rolls_trial_from_entry", params=None)
        schema_editor.execute("DROP TRIGGER IF EXISTS rolls_trial_reveal", params=None)
    schema_editor.execute("DELETE FROM rolls_trial", params=None)


class Migration(migrations.Migration):
    dependencies = [("rolls", "0014_trials")]

    operations = [migrations.RunPython(create, drop)]
