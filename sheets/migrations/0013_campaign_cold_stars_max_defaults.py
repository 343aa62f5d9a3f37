"""A campaign's defaults for Cold Stars' Momentum and Willpower maxima, for characters imported
without them (RULES.md §8's Decision, docs/rules.md).

The database's check on the campaign's system (0011: the registered systems) is not in the
migration state, so the database operations first put it into their own state: SQLite adds a
column with a default, and a check, by copying the table from that state, and would otherwise
drop the system check along the way."""

import django.core.validators
from django.db import migrations, models

from sheets.models.base import in_constraint
from sheets.registry import rule_system_keys


def _changes() -> list[migrations.operations.base.Operation]:
    return [
        migrations.AddField(
            model_name="campaign",
            name="momentum_max_default",
            field=models.SmallIntegerField(
                default=5,
                help_text="Cold Stars: given to a character imported without a Momentum maximum.",
                validators=[
                    django.core.validators.MinValueValidator(0),
                    django.core.validators.MaxValueValidator(20),
                ],
                verbose_name="default Momentum maximum",
            ),
        ),
        migrations.AddField(
            model_name="campaign",
            name="willpower_max_default",
            field=models.SmallIntegerField(
                default=3,
                help_text="Cold Stars: given to a character imported without a Willpower maximum.",
                validators=[
                    django.core.validators.MinValueValidator(0),
                    django.core.validators.MaxValueValidator(20),
                ],
                verbose_name="default Willpower maximum",
            ),
        ),
        migrations.AddConstraint(
            model_name="campaign",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("momentum_max_default__gte", 0), ("momentum_max_default__lte", 20)
                ),
                name="campaign_momentum_max_default_range",
            ),
        ),
        migrations.AddConstraint(
            model_name="campaign",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("willpower_max_default__gte", 0), ("willpower_max_default__lte", 20)
                ),
                name="campaign_willpower_max_default_range",
            ),
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("sheets", "0012_character_portrait"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=_changes(),
            database_operations=[
                migrations.SeparateDatabaseAndState(
                    state_operations=[
                        migrations.AddConstraint(
                            model_name="campaign",
                            constraint=in_constraint(
                                "system", list(rule_system_keys()), "campaign_system_valid"
                            ),
                        )
                    ]
                ),
                *_changes(),
            ],
        ),
    ]
