"""Session markers (docs/sessions.md): three new root kinds of entry, and a partial index on them
(a campaign's newest first) for the current session and each listed entry's marker.

On SQLite a changed check constraint remakes the table (a new table, the rows copied, the old one
dropped), and the old table's triggers go with it: the statistics' trial triggers (migration 0015)
would silently stop. The triggers are read before and made again after, exactly as they were.
"""

from django.conf import settings
from django.db import migrations, models

TABLE = "rolls_rollentry"
_KEPT: dict[str, list[tuple[str, str]]] = {}


def remember_triggers(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
            [TABLE],
        )
        _KEPT[connection.alias] = cursor.fetchall()


def restore_triggers(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [TABLE]
        )
        present = {name for (name,) in cursor.fetchall()}
        for name, sql in _KEPT.pop(connection.alias, []):
            if name not in present:
                cursor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0022_linear_search_grams"),
        ("sheets", "0011_open_rule_systems"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(remember_triggers, restore_triggers),
        migrations.RemoveConstraint(
            model_name="rollentry",
            name="roll_entry_kind_valid",
        ),
        migrations.RemoveConstraint(
            model_name="rollentry",
            name="roll_entry_follow_ups_follow",
        ),
        migrations.AlterField(
            model_name="rollentry",
            name="kind",
            field=models.CharField(
                choices=[
                    ("roll", "Roll"),
                    ("auto_pass", "Automatic pass"),
                    ("skip", "Skipped roll"),
                    ("reveal", "Reveal"),
                    ("destiny", "Destiny after the roll"),
                    ("correct", "Correct (re-roll)"),
                    ("choice", "Choice"),
                    ("buy_boon", "Boon bought with a bane"),
                    ("extra_boon", "Extra boon spent"),
                    ("contest", "Contest"),
                    ("assist", "Assist"),
                    ("session", "Session started"),
                    ("scene", "New scene"),
                    ("session_end", "Session ended"),
                ],
                max_length=16,
            ),
        ),
        migrations.AddIndex(
            model_name="rollentry",
            index=models.Index(
                condition=models.Q(("kind__in", ("session", "scene", "session_end"))),
                fields=["campaign", "-id"],
                name="roll_entry_markers",
            ),
        ),
        migrations.AddConstraint(
            model_name="rollentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        [
                            "roll",
                            "auto_pass",
                            "skip",
                            "reveal",
                            "destiny",
                            "correct",
                            "choice",
                            "buy_boon",
                            "extra_boon",
                            "contest",
                            "assist",
                            "session",
                            "scene",
                            "session_end",
                        ],
                    )
                ),
                name="roll_entry_kind_valid",
            ),
        ),
        migrations.AddConstraint(
            model_name="rollentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(
                        ("follows__isnull", True),
                        (
                            "kind__in",
                            (
                                "roll",
                                "auto_pass",
                                "skip",
                                "reveal",
                                "contest",
                                "assist",
                                "session",
                                "scene",
                                "session_end",
                            ),
                        ),
                    ),
                    models.Q(
                        models.Q(
                            (
                                "kind__in",
                                (
                                    "roll",
                                    "auto_pass",
                                    "skip",
                                    "reveal",
                                    "contest",
                                    "assist",
                                    "session",
                                    "scene",
                                    "session_end",
                                ),
                            ),
                            _negated=True,
                        ),
                        ("follows__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="roll_entry_follow_ups_follow",
            ),
        ),
        migrations.RunPython(restore_triggers, remember_triggers),
    ]
