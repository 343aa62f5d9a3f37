"""Messages (docs/messages.md): two new kinds of entry (a message, a correction), the whisper
audience, and the rows that say who a whisper is to.

The changed check constraints remake the entry table on SQLite, which drops its triggers: they are
kept and made again exactly as migration 0023 does it (the same two functions).
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_TRIGGERS = importlib.import_module("rolls.migrations.0023_session_markers")


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0025_marker_session_index"),
        ("sheets", "0012_character_portrait"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_TRIGGERS.remember_triggers, _TRIGGERS.restore_triggers),
        migrations.CreateModel(
            name="EntryRecipient",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("user_ref", models.PositiveBigIntegerField()),
            ],
        ),
        migrations.RemoveConstraint(
            model_name="rollentry",
            name="roll_entry_visibility_valid",
        ),
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
                    ("message", "Message"),
                    ("message_edit", "Correction"),
                ],
                max_length=16,
            ),
        ),
        migrations.AlterField(
            model_name="rollentry",
            name="visibility",
            field=models.CharField(
                choices=[
                    ("public", "Public"),
                    ("gm_only", "GM only (you and the GM)"),
                    ("blind", "Blind (only the GM sees the result)"),
                    ("secret", "Secret (the GM's own hidden roll)"),
                    ("whisper", "Whisper (the chosen members and the GM)"),
                ],
                default="public",
                max_length=16,
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
                            "message",
                            "message_edit",
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
                                "message",
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
                                    "message",
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
        migrations.AddConstraint(
            model_name="rollentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("visibility__in", ["public", "gm_only", "blind", "secret", "whisper"])
                ),
                name="roll_entry_visibility_valid",
            ),
        ),
        migrations.AddField(
            model_name="entryrecipient",
            name="entry",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="recipients",
                to="rolls.rollentry",
            ),
        ),
        migrations.AddConstraint(
            model_name="entryrecipient",
            constraint=models.UniqueConstraint(
                fields=("entry", "user_ref"), name="entry_recipient_unique"
            ),
        ),
        migrations.RunPython(_TRIGGERS.restore_triggers, _TRIGGERS.remember_triggers),
    ]
