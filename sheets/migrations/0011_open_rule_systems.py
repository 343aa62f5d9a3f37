"""A campaign's system is any registered rule system (settings.RULE_SYSTEMS), not a closed list:
the field's choices come from the registry, and the database's check constraint holds the
registered systems' keys (unchanged for the app's own three; the tests register a fourth)."""

from django.db import migrations, models

import sheets.models.base
from sheets.models.base import registered_check
from sheets.registry import rule_system_keys

THE_APPS_OWN = ["cogent", "dad6", "cold_stars"]  # what 0001 made the constraint hold


class Migration(migrations.Migration):
    dependencies = [
        ("sheets", "0010_heavy_read_windows"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="campaign", name="campaign_system_valid"),
                migrations.AlterField(
                    model_name="campaign",
                    name="system",
                    field=models.CharField(
                        choices=sheets.models.base.system_choices, max_length=16
                    ),
                ),
            ],
            database_operations=registered_check(
                "campaign",
                "system",
                "campaign_system_valid",
                list(rule_system_keys()),
                THE_APPS_OWN,
            ),
        ),
    ]
