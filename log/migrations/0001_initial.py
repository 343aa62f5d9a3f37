"""The log's models, as they stood in the rolls app after rolls.0029: moved in the migration state
only. Their tables keep their names (each model's ``db_table``), so the database is untouched."""

import functools
import secrets

import django.db.models.deletion
import django.db.models.fields.json
from django.conf import settings
from django.db import migrations, models

import sheets.models.base


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("rolls", "0029_seen_heads"),
        ("sheets", "0012_character_portrait"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="LogHead",
                    fields=[
                        (
                            "campaign",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="log_head",
                                serialize=False,
                                to="sheets.campaign",
                            ),
                        ),
                        ("length", models.PositiveIntegerField(default=0)),
                        (
                            "hash",
                            models.CharField(
                                default="0000000000000000000000000000000000000000000000000000000000000000",
                                max_length=64,
                            ),
                        ),
                        ("signature", models.CharField(blank=True, max_length=128)),
                        ("signed_by", models.CharField(blank=True, max_length=16)),
                        (
                            "position_secret",
                            models.CharField(
                                default=functools.partial(secrets.token_hex, 32), max_length=64
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rolls_loghead",
                    },
                ),
                migrations.CreateModel(
                    name="RollEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "seq",
                            models.PositiveIntegerField(
                                help_text="Position in the campaign's chain, from 1."
                            ),
                        ),
                        ("character_name", models.CharField(max_length=200)),
                        ("username", models.CharField(max_length=150)),
                        (
                            "system",
                            models.CharField(
                                choices=sheets.models.base.system_choices, max_length=16
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
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
                        (
                            "visibility",
                            models.CharField(
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
                        (
                            "label",
                            models.CharField(
                                help_text="What was rolled: skill, ability, …", max_length=200
                            ),
                        ),
                        (
                            "options",
                            models.JSONField(
                                default=dict, help_text="Every option the roll was made with."
                            ),
                        ),
                        ("pool", models.JSONField(default=dict)),
                        ("breakdown", models.TextField(help_text="The pool in words.")),
                        (
                            "faces",
                            models.JSONField(
                                default=list, help_text="Every die: kind, face, reading."
                            ),
                        ),
                        ("outcome", models.CharField(max_length=32)),
                        ("outcome_label", models.CharField(max_length=100)),
                        (
                            "detail",
                            models.TextField(
                                blank=True, help_text="The outcome in words (wins, boons, …)."
                            ),
                        ),
                        (
                            "result",
                            models.JSONField(default=dict, help_text="The outcome's figures."),
                        ),
                        (
                            "odds",
                            models.CharField(
                                help_text="Exact chance of this outcome when rolled, as numerator/denominator.",
                                max_length=400,
                            ),
                        ),
                        ("odds_display", models.CharField(max_length=16)),
                        (
                            "odds_table",
                            models.JSONField(
                                default=dict,
                                help_text="Every outcome's exact chance when rolled, as numerator/denominator.",
                            ),
                        ),
                        ("resource_changes", models.JSONField(default=dict)),
                        (
                            "hidden_character",
                            models.BooleanField(
                                default=False,
                                help_text="The character was a hidden NPC when this was written: players read the entry only once revealed.",
                            ),
                        ),
                        (
                            "character_ref",
                            models.PositiveBigIntegerField(blank=True, editable=False, null=True),
                        ),
                        (
                            "user_ref",
                            models.PositiveBigIntegerField(blank=True, editable=False, null=True),
                        ),
                        (
                            "roller_ref",
                            models.PositiveBigIntegerField(blank=True, editable=False, null=True),
                        ),
                        (
                            "hash_version",
                            models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
                        ),
                        (
                            "salt",
                            models.CharField(
                                blank=True,
                                editable=False,
                                help_text="Random, hashed with the entry (version 3), shown only to who may read it.",
                                max_length=32,
                            ),
                        ),
                        ("created_at", models.DateTimeField()),
                        ("proof", models.JSONField(blank=True, default=dict)),
                        ("signature", models.CharField(blank=True, editable=False, max_length=128)),
                        ("signed_by", models.CharField(blank=True, editable=False, max_length=16)),
                        ("prev_hash", models.CharField(max_length=64)),
                        ("hash", models.CharField(max_length=64)),
                        (
                            "call",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="entries",
                                to="rolls.rollcall",
                            ),
                        ),
                        (
                            "campaign",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="roll_entries",
                                to="sheets.campaign",
                            ),
                        ),
                        (
                            "character",
                            models.ForeignKey(
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="roll_entries",
                                to="sheets.character",
                            ),
                        ),
                        (
                            "contest",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="entries",
                                to="rolls.contest",
                            ),
                        ),
                        (
                            "follows",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="follow_ups",
                                to="log.rollentry",
                            ),
                        ),
                        (
                            "reveals",
                            models.OneToOneField(
                                blank=True,
                                help_text="On a reveal entry: the hidden roll it makes readable by everyone.",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="revealed_by",
                                to="log.rollentry",
                            ),
                        ),
                        (
                            "roller",
                            models.ForeignKey(
                                help_text="Who made the root roll: GM-only and blind rolls are theirs to know of.",
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "root",
                            models.ForeignKey(
                                blank=True,
                                db_index=False,
                                help_text="The roll this follow-up's chain started with (empty on a root).",
                                null=True,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="chain",
                                to="log.rollentry",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name_plural": "roll entries",
                        "db_table": "rolls_rollentry",
                        "ordering": ["-pk"],
                    },
                ),
                migrations.CreateModel(
                    name="SigningKey",
                    fields=[
                        ("id", models.CharField(max_length=16, primary_key=True, serialize=False)),
                        (
                            "signing_key",
                            models.CharField(help_text="Ed25519 public key, hex.", max_length=64),
                        ),
                        (
                            "vrf_key",
                            models.CharField(help_text="ECVRF public key, hex.", max_length=64),
                        ),
                        ("activated_at", models.DateTimeField()),
                    ],
                    options={
                        "db_table": "rolls_signingkey",
                        "ordering": ["activated_at", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="EntryRecipient",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("user_ref", models.PositiveBigIntegerField()),
                        (
                            "entry",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.PROTECT,
                                related_name="recipients",
                                to="log.rollentry",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rolls_entryrecipient",
                    },
                ),
                migrations.CreateModel(
                    name="SeenHead",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("user_ref", models.PositiveBigIntegerField()),
                        ("gm", models.BooleanField(default=False)),
                        ("length", models.PositiveIntegerField(default=0)),
                        ("hash", models.CharField(max_length=64)),
                        ("through", models.PositiveBigIntegerField(default=0)),
                        (
                            "campaign",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="sheets.campaign",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rolls_seenhead",
                    },
                ),
                migrations.CreateModel(
                    name="SeenCheckpoint",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("length", models.PositiveIntegerField()),
                        ("hash", models.CharField(max_length=64)),
                        ("entry_ref", models.PositiveBigIntegerField()),
                        (
                            "head",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="checkpoints",
                                to="log.seenhead",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rolls_seencheckpoint",
                    },
                ),
                migrations.CreateModel(
                    name="TrialDayTally",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
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
                    },
                ),
                migrations.CreateModel(
                    name="TrialTally",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
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
                        "db_table": "rolls_trial_tally",
                    },
                ),
                migrations.CreateModel(
                    name="Trial",
                    fields=[
                        (
                            "entry",
                            models.OneToOneField(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="+",
                                serialize=False,
                                to="log.rollentry",
                            ),
                        ),
                        ("character_name", models.CharField(max_length=200)),
                        ("root_id", models.BigIntegerField(null=True)),
                        ("kind", models.CharField(max_length=16)),
                        ("label", models.CharField(max_length=200)),
                        ("outcome", models.CharField(max_length=32)),
                        ("created_at", models.DateTimeField()),
                        ("visibility", models.CharField(max_length=16)),
                        ("hidden_character", models.BooleanField()),
                        ("revealed", models.BooleanField(default=False)),
                        ("success", models.BooleanField()),
                        ("chance", models.FloatField(null=True)),
                        ("d6_1", models.PositiveSmallIntegerField(default=0)),
                        ("d6_2", models.PositiveSmallIntegerField(default=0)),
                        ("d6_3", models.PositiveSmallIntegerField(default=0)),
                        ("d6_4", models.PositiveSmallIntegerField(default=0)),
                        ("d6_5", models.PositiveSmallIntegerField(default=0)),
                        ("d6_6", models.PositiveSmallIntegerField(default=0)),
                        ("ability_1", models.PositiveSmallIntegerField(default=0)),
                        ("ability_2", models.PositiveSmallIntegerField(default=0)),
                        ("ability_3", models.PositiveSmallIntegerField(default=0)),
                        ("ability_4", models.PositiveSmallIntegerField(default=0)),
                        ("ability_5", models.PositiveSmallIntegerField(default=0)),
                        ("ability_6", models.PositiveSmallIntegerField(default=0)),
                        ("ability_7", models.PositiveSmallIntegerField(default=0)),
                        ("ability_8", models.PositiveSmallIntegerField(default=0)),
                        ("ability_9", models.PositiveSmallIntegerField(default=0)),
                        ("ability_10", models.PositiveSmallIntegerField(default=0)),
                        ("skill_1", models.PositiveSmallIntegerField(default=0)),
                        ("skill_2", models.PositiveSmallIntegerField(default=0)),
                        ("skill_3", models.PositiveSmallIntegerField(default=0)),
                        ("skill_4", models.PositiveSmallIntegerField(default=0)),
                        ("skill_5", models.PositiveSmallIntegerField(default=0)),
                        ("skill_6", models.PositiveSmallIntegerField(default=0)),
                        ("skill_7", models.PositiveSmallIntegerField(default=0)),
                        ("skill_8", models.PositiveSmallIntegerField(default=0)),
                        ("skill_9", models.PositiveSmallIntegerField(default=0)),
                        ("skill_10", models.PositiveSmallIntegerField(default=0)),
                        ("risk_1", models.PositiveSmallIntegerField(default=0)),
                        ("risk_2", models.PositiveSmallIntegerField(default=0)),
                        ("risk_3", models.PositiveSmallIntegerField(default=0)),
                        ("risk_4", models.PositiveSmallIntegerField(default=0)),
                        ("risk_5", models.PositiveSmallIntegerField(default=0)),
                        ("risk_6", models.PositiveSmallIntegerField(default=0)),
                        ("risk_7", models.PositiveSmallIntegerField(default=0)),
                        ("risk_8", models.PositiveSmallIntegerField(default=0)),
                        ("risk_9", models.PositiveSmallIntegerField(default=0)),
                        ("risk_10", models.PositiveSmallIntegerField(default=0)),
                        (
                            "campaign",
                            models.ForeignKey(
                                db_index=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="sheets.campaign",
                            ),
                        ),
                        (
                            "character",
                            models.ForeignKey(
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to="sheets.character",
                            ),
                        ),
                        (
                            "roller",
                            models.ForeignKey(
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                db_index=False,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "rolls_trial",
                    },
                ),
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(fields=["campaign", "-id"], name="roll_entry_campaign_page"),
                ),
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(
                        fields=["character", "-id"], name="roll_entry_character_recent"
                    ),
                ),
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(
                        fields=["campaign", "label", "-id"], name="roll_entry_campaign_label"
                    ),
                ),
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(
                        fields=["campaign", "created_at"], name="roll_entry_campaign_time"
                    ),
                ),
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(
                        condition=models.Q(("root__isnull", False)),
                        fields=["root"],
                        name="roll_entry_root",
                    ),
                ),
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(
                        condition=models.Q(("call__isnull", False)),
                        fields=["call"],
                        name="roll_entry_call",
                    ),
                ),
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(
                        condition=models.Q(("contest__isnull", False)),
                        fields=["contest"],
                        name="roll_entry_contest",
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
                migrations.AddIndex(
                    model_name="rollentry",
                    index=models.Index(
                        models.F("campaign"),
                        django.db.models.fields.json.KeyTransform("session", "result"),
                        condition=models.Q(("kind__in", ("session", "scene", "session_end"))),
                        name="roll_entry_marker_session",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.UniqueConstraint(
                        fields=("campaign", "seq"), name="roll_entry_unique_seq"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.UniqueConstraint(
                        condition=models.Q(("follows__isnull", False)),
                        fields=("follows",),
                        name="roll_entry_one_follow_up",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.UniqueConstraint(
                        fields=("hash",), name="roll_entry_unique_hash"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(("seq__gte", 1)), name="roll_entry_seq_positive"
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
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            models.Q(
                                ("kind", "reveal"),
                                ("reveals__isnull", False),
                                ("visibility", "public"),
                            ),
                            models.Q(
                                models.Q(("kind", "reveal"), _negated=True),
                                ("reveals__isnull", True),
                            ),
                            _connector="OR",
                        ),
                        name="roll_entry_reveal_reveals",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("character__isnull", True),
                            models.Q(
                                ("character_id", models.F("character_ref")),
                                ("character_ref__isnull", False),
                            ),
                            _connector="OR",
                        ),
                        name="roll_entry_character_as_recorded",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("user__isnull", True),
                            models.Q(
                                ("user_id", models.F("user_ref")), ("user_ref__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="roll_entry_user_as_recorded",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="rollentry",
                    constraint=models.CheckConstraint(
                        condition=models.Q(
                            ("roller__isnull", True),
                            models.Q(
                                ("roller_id", models.F("roller_ref")), ("roller_ref__isnull", False)
                            ),
                            _connector="OR",
                        ),
                        name="roll_entry_roller_as_recorded",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="entryrecipient",
                    constraint=models.UniqueConstraint(
                        fields=("entry", "user_ref"), name="entry_recipient_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="seenhead",
                    constraint=models.UniqueConstraint(
                        fields=("campaign", "user_ref"), name="seen_head_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="seencheckpoint",
                    constraint=models.UniqueConstraint(
                        fields=("head", "length"), name="seen_checkpoint_unique"
                    ),
                ),
                migrations.AddConstraint(
                    model_name="trialdaytally",
                    constraint=models.UniqueConstraint(
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
                    ),
                ),
                migrations.AddConstraint(
                    model_name="trialtally",
                    constraint=models.UniqueConstraint(
                        fields=(
                            "campaign_id",
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
                        name="trial_tally_key",
                    ),
                ),
                migrations.AddIndex(
                    model_name="trial",
                    index=models.Index(
                        fields=["campaign", "created_at"], name="trial_campaign_time"
                    ),
                ),
                migrations.AddIndex(
                    model_name="trial",
                    index=models.Index(
                        fields=["campaign", "character"], name="trial_campaign_character"
                    ),
                ),
                migrations.AddIndex(
                    model_name="trial",
                    index=models.Index(fields=["root_id"], name="trial_root"),
                ),
            ],
        ),
    ]
