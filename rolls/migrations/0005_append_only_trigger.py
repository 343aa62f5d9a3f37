"""On PostgreSQL, the database itself refuses to change or delete a roll log entry.

The model and QuerySet already refuse (AppendOnlyError); this catches every other route — raw SQL,
another client, a bug. The one UPDATE allowed is Django's ON DELETE SET NULL of the navigation links
when a character or user is deleted: those links are not hashed (the names are), so the chain holds.
SQLite has no equivalent worth its complexity; the chain (manage.py verify_log) catches edits there.
"""

from django.db import migrations

CREATE = r"""
CREATE OR REPLACE FUNCTION rolls_rollentry_append_only() RETURNS trigger AS $$
DECLARE
    old_row jsonb;
    new_row jsonb;
    link text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'roll log entries are append-only: deleting entry % refused', OLD.id
            USING ERRCODE = 'restrict_violation';
    END IF;
    old_row := to_jsonb(OLD);
    new_row := to_jsonb(NEW);
    FOREACH link IN ARRAY ARRAY['character_id', 'user_id', 'roller_id'] LOOP
        IF new_row -> link = 'null'::jsonb THEN
            old_row := old_row - link;
            new_row := new_row - link;
        END IF;
    END LOOP;
    IF old_row IS DISTINCT FROM new_row THEN
        RAISE EXCEPTION 'roll log entries are append-only: changing entry % refused', OLD.id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS rolls_rollentry_append_only ON rolls_rollentry;
CREATE TRIGGER rolls_rollentry_append_only
    BEFORE UPDATE OR DELETE ON rolls_rollentry
    FOR EACH ROW EXECUTE FUNCTION rolls_rollentry_append_only();
"""

DROP = """
DROP TRIGGER IF EXISTS rolls_rollentry_append_only ON rolls_rollentry;
DROP FUNCTION IF EXISTS rolls_rollentry_append_only();
"""


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("rolls", "0004_gm_table")]

    operations = [migrations.RunPython(create, drop)]
