"""A contest's kind is any registered rule system's contest style, not a closed list: the field's
choices come from the registry, and the database's check constraint holds the registered kinds
(unchanged for the app's own four; the tests register a fifth). An entry's system likewise."""

from django.db import migrations, models

import sheets.models.base
import sheets.registry
from sheets.models.base import registered_check

THE_APPS_OWN = ["cogent_conflict", "cold_stars_active", "cold_stars_passive", "dad6_opposed"]


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0018_trial_tally_triggers"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveConstraint(model_name="contest", name="contest_kind_valid"),
                migrations.AlterField(
                    model_name="contest",
                    name="kind",
                    field=models.CharField(
                        choices=sheets.registry.contest_kind_choices, max_length=32
                    ),
                ),
            ],
            database_operations=registered_check(
                "contest",
                "kind",
                "contest_kind_valid",
                sorted(kind for kind, _ in sheets.registry.contest_kind_choices()),
                THE_APPS_OWN,
            ),
        ),
        migrations.AlterField(
            model_name="rollentry",
            name="system",
            field=models.CharField(choices=sheets.models.base.system_choices, max_length=16),
        ),
    ]
