"""The log's edges (docs/roll-log.md): a salt and the recorded ids and hidden-NPC flag on every
entry (hashed from version 3 on), the chain head per campaign, and TRUNCATE refused on PostgreSQL.

Entries written before keep their version-1/2 hashes untouched: their new columns are filled here
from what the rows say today (the one time the append-only trigger is set aside), and their salt
stays empty, which is how a verifier knows to use the older form.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

GENESIS_HASH = "0" * 64

BACKFILL = """
UPDATE rolls_rollentry SET character_ref = character_id, user_ref = user_id, roller_ref = roller_id,
    hidden_character = (kind <> 'reveal' AND character_id IN (
        SELECT id FROM sheets_character WHERE hidden_from_players))
"""

# Statement-level: a TRUNCATE skips row triggers, so the append-only trigger never sees it. The one
# way through is a maintenance switch that only the table's owner can use (it could drop the
# trigger anyway): tests set it to empty their throwaway databases between tests.
NO_TRUNCATE = r"""
CREATE OR REPLACE FUNCTION rolls_log_no_truncate() RETURNS trigger AS $$
BEGIN
    IF coalesce(current_setting('poolside.log_maintenance', true), '') = 'on'
       AND pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE')
    THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'the roll log is append-only: TRUNCATE of % refused', TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS rolls_rollentry_no_truncate ON rolls_rollentry;
CREATE TRIGGER rolls_rollentry_no_truncate BEFORE TRUNCATE ON rolls_rollentry
    FOR EACH STATEMENT EXECUTE FUNCTION rolls_log_no_truncate();
DROP TRIGGER IF EXISTS rolls_loghead_no_truncate ON rolls_loghead;
CREATE TRIGGER rolls_loghead_no_truncate BEFORE TRUNCATE ON rolls_loghead
    FOR EACH STATEMENT EXECUTE FUNCTION rolls_log_no_truncate();
"""

DROP_NO_TRUNCATE = """
DROP TRIGGER IF EXISTS rolls_rollentry_no_truncate ON rolls_rollentry;
DROP TRIGGER IF EXISTS rolls_loghead_no_truncate ON rolls_loghead;
DROP FUNCTION IF EXISTS rolls_log_no_truncate();
"""


def backfill(apps, schema_editor):
    postgresql = schema_editor.connection.vendor == "postgresql"
    if postgresql:
        schema_editor.execute(
            "ALTER TABLE rolls_rollentry DISABLE TRIGGER rolls_rollentry_append_only"
        )
    schema_editor.execute(BACKFILL, params=None)
    if postgresql:
        schema_editor.execute(
            "ALTER TABLE rolls_rollentry ENABLE TRIGGER rolls_rollentry_append_only"
        )
    RollEntry = apps.get_model("rolls", "RollEntry")
    LogHead = apps.get_model("rolls", "LogHead")
    ends = RollEntry.objects.values("campaign_id").annotate(length=models.Max("seq"))
    for end in ends:
        last = RollEntry.objects.get(campaign_id=end["campaign_id"], seq=end["length"])
        LogHead.objects.create(campaign_id=end["campaign_id"], length=end["length"], hash=last.hash)


def truncate_guard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(NO_TRUNCATE, params=None)


def drop_truncate_guard(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_NO_TRUNCATE, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0005_append_only_trigger"),
        ("sheets", "0002_visibility"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
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
            ],
        ),
        migrations.AddField(
            model_name="rollentry",
            name="character_ref",
            field=models.PositiveBigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="rollentry",
            name="hidden_character",
            field=models.BooleanField(
                default=False,
                help_text="The character was a hidden NPC when this was written: players read the entry only once revealed.",
            ),
        ),
        migrations.AddField(
            model_name="rollentry",
            name="roller_ref",
            field=models.PositiveBigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="rollentry",
            name="salt",
            field=models.CharField(
                blank=True,
                editable=False,
                help_text="Random, hashed with the entry (version 3), shown only to who may read it.",
                max_length=32,
            ),
        ),
        migrations.AddField(
            model_name="rollentry",
            name="user_ref",
            field=models.PositiveBigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        *(
            migrations.AddConstraint(
                model_name="rollentry",
                constraint=models.CheckConstraint(
                    condition=models.Q(**{f"{link}__isnull": True})
                    | models.Q(
                        **{f"{link}_ref__isnull": False, f"{link}_id": models.F(f"{link}_ref")}
                    ),
                    name=f"roll_entry_{link}_as_recorded",
                ),
            )
            for link in ("character", "user", "roller")
        ),
        migrations.RunPython(truncate_guard, drop_truncate_guard),
    ]
