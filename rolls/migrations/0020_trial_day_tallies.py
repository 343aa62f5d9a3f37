"""The statistics' tallies per UTC day (``rolls_trial_day_tally``, log/models/trials.py), kept in
step with ``rolls_trial`` by triggers exactly as 0018 keeps ``rolls_trial_tally``: a trial's
figures are added to its (key, day) tally when its row is written, moved when the row changes (a
reveal, an unlinked character or user) and taken away when it is deleted — in the statement, so the
transaction, that changes the trial. The day is ``created_at``'s date in UTC (a trial's time never
changes). The day tallies of the trials already written are added up here.

A date filter then reads whole days from these rows and only its partial edges from the trials
(rolls/log/tallies.py, ``day_parts``).
"""

import django.db.models.deletion
from django.db import migrations, models

KEY = [
    "campaign_id", "day", "character_id", "character_name", "user_id", "roller_id", "label",
    "outcome", "visibility", "hidden_character", "revealed",
]  # fmt: skip
NULLABLE = ("character_id", "user_id", "roller_id")
FACES = [
    f"{kind}_{face}"
    for kind, sides in (("d6", 6), ("ability", 10), ("skill", 10), ("risk", 10))
    for face in range(1, sides + 1)
]
FIGURES = ["rolls", "successes", "measured", "measured_successes", "expected", "variance", *FACES]


def _day(vendor: str, row: str) -> str:
    """The UTC date of the trial's time (SQLite stores it as UTC text, 'YYYY-MM-DD HH:MM:SS…')."""
    if vendor == "postgresql":
        return f"(({row}.created_at AT TIME ZONE 'UTC')::date)"
    return f"date({row}.created_at)"


def _key(vendor: str, row: str) -> list[str]:
    out = []
    for c in KEY:
        if c == "day":
            out.append(_day(vendor, row))
        elif c in NULLABLE:
            out.append(f"COALESCE({row}.{c}, 0)")
        else:
            out.append(f"{row}.{c}")
    return out


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
    table = "rolls_trial_day_tally." if vendor == "postgresql" else ""
    updates = ", ".join(f"{c} = {table}{c} + excluded.{c}" for c in FIGURES)
    return (
        f"INSERT INTO rolls_trial_day_tally ({', '.join(KEY + FIGURES)})"
        f" VALUES ({', '.join(_key(vendor, row) + _figures(row))})"
        f" ON CONFLICT ({', '.join(KEY)}) DO UPDATE SET {updates}"
    )


def _take(vendor: str, row: str) -> str:
    """Take the trial away from its (key, day) tally (a tally already gone stays gone)."""
    updates = ", ".join(f"{c} = {c} - {v}" for c, v in zip(FIGURES, _figures(row), strict=True))
    keys = _key(vendor, row)
    where = " AND ".join(f"{c} = {v}" for c, v in zip(KEY, keys, strict=True))
    return f"UPDATE rolls_trial_day_tally SET {updates} WHERE {where}"


def _backfill(vendor: str) -> str:
    key = ", ".join(_key(vendor, "t"))
    return (
        f"INSERT INTO rolls_trial_day_tally ({', '.join(KEY + FIGURES)})"
        f" SELECT {key},"
        " count(*), sum(CASE WHEN t.success THEN 1 ELSE 0 END),"
        " sum(CASE WHEN t.chance IS NULL THEN 0 ELSE 1 END),"
        " sum(CASE WHEN t.success AND t.chance IS NOT NULL THEN 1 ELSE 0 END),"
        " COALESCE(sum(t.chance), 0), COALESCE(sum(t.chance * (1 - t.chance)), 0),"
        f" {', '.join(f'sum(t.{face})' for face in FACES)}"
        f" FROM rolls_trial t GROUP BY {key}"
    )


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(
            f"""
            CREATE OR REPLACE FUNCTION rolls_trial_day_tally() RETURNS trigger AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    {_take(vendor, "OLD")};
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    {_add(vendor, "NEW")};
                END IF;
                RETURN NULL;
            END;
            $$ LANGUAGE plpgsql;
            CREATE TRIGGER rolls_trial_day_tally AFTER INSERT OR UPDATE OR DELETE ON rolls_trial
                FOR EACH ROW EXECUTE FUNCTION rolls_trial_day_tally();
            """,
            params=None,
        )
    else:
        for name, event, body in (
            ("add", "INSERT", _add(vendor, "NEW")),
            ("move", "UPDATE", f"{_take(vendor, 'OLD')}; {_add(vendor, 'NEW')}"),
            ("take", "DELETE", _take(vendor, "OLD")),
        ):
            schema_editor.execute(
                f"CREATE TRIGGER rolls_trial_day_tally_{name} AFTER {event} ON rolls_trial"
                f" BEGIN {body}; END",
                params=None,
            )
    schema_editor.execute(_backfill(vendor), params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP TRIGGER IF EXISTS rolls_trial_day_tally ON rolls_trial;"
            " DROP FUNCTION IF EXISTS rolls_trial_day_tally();",
            params=None,
        )
    else:
        for name in ("add", "move", "take"):
            schema_editor.execute(
                f"DROP TRIGGER IF EXISTS rolls_trial_day_tally_{name}", params=None
            )
    schema_editor.execute("DELETE FROM rolls_trial_day_tally", params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0019_open_contest_kinds"),
        ("sheets", "0010_heavy_read_windows"),
    ]

    operations = [
        migrations.CreateModel(
            name="TrialDayTally",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("rolls", models.BigIntegerField(default=0)),
                ("successes", models.BigIntegerField(default=0)),
                ("measured", models.BigIntegerField(default=0)),
                ("measured_successes", models.BigIntegerField(default=0)),
                ("expected", models.FloatField(default=0.0)),
                ("variance", models.FloatField(default=0.0)),
                ("d6_1", models.BigIntegerField(default=0)),
                ("d6_2", models.BigIntegerField(default=0)),
                ("d6_3", models.BigIntegerField(default=0)),
                ("d6_4", models.BigIntegerField(default=0)),
                ("d6_5", models.BigIntegerField(default=0)),
                ("d6_6", models.BigIntegerField(default=0)),
                ("ability_1", models.BigIntegerField(default=0)),
                ("ability_2", models.BigIntegerField(default=0)),
                ("ability_3", models.BigIntegerField(default=0)),
                ("ability_4", models.BigIntegerField(default=0)),
                ("ability_5", models.BigIntegerField(default=0)),
                ("ability_6", models.BigIntegerField(default=0)),
                ("ability_7", models.BigIntegerField(default=0)),
                ("ability_8", models.BigIntegerField(default=0)),
                ("ability_9", models.BigIntegerField(default=0)),
                ("ability_10", models.BigIntegerField(default=0)),
                ("skill_1", models.BigIntegerField(default=0)),
                ("skill_2", models.BigIntegerField(default=0)),
                ("skill_3", models.BigIntegerField(default=0)),
                ("skill_4", models.BigIntegerField(default=0)),
                ("skill_5", models.BigIntegerField(default=0)),
                ("skill_6", models.BigIntegerField(default=0)),
                ("skill_7", models.BigIntegerField(default=0)),
                ("skill_8", models.BigIntegerField(default=0)),
                ("skill_9", models.BigIntegerField(default=0)),
                ("skill_10", models.BigIntegerField(default=0)),
                ("risk_1", models.BigIntegerField(default=0)),
                ("risk_2", models.BigIntegerField(default=0)),
                ("risk_3", models.BigIntegerField(default=0)),
                ("risk_4", models.BigIntegerField(default=0)),
                ("risk_5", models.BigIntegerField(default=0)),
                ("risk_6", models.BigIntegerField(default=0)),
                ("risk_7", models.BigIntegerField(default=0)),
                ("risk_8", models.BigIntegerField(default=0)),
                ("risk_9", models.BigIntegerField(default=0)),
                ("risk_10", models.BigIntegerField(default=0)),
                ("day", models.DateField()),
                ("character_id", models.BigIntegerField()),
                ("character_name", models.CharField(max_length=200)),
                ("user_id", models.BigIntegerField()),
                ("roller_id", models.BigIntegerField()),
                ("label", models.CharField(max_length=200)),
                ("outcome", models.CharField(max_length=32)),
                ("visibility", models.CharField(max_length=16)),
                ("hidden_character", models.BooleanField()),
                ("revealed", models.BooleanField()),
                (
                    "campaign",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="sheets.campaign",
                    ),
                ),
            ],
            options={
                "db_table": "rolls_trial_day_tally",
                "constraints": [
                    models.UniqueConstraint(
                        fields=(
                            "campaign_id",
                            "day",
                            "character_id",
                            "character_name",
                            "user_id",
                            "roller_id",
                            "label",
                            "outcome",
                            "visibility",
                            "hidden_character",
                            "revealed",
                        ),
                        name="trial_day_tally_key",
                    )
                ],
            },
        ),
        migrations.RunPython(create, drop),
    ]
