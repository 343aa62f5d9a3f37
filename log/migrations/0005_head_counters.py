"""Each roller's counter of proven dice (alpha version 2, docs/verifiable-dice.md), kept on the
log's head and moved with it. Nullable and without a default, so adding it updates no row and
SQLite adds it in place."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("log", "0004_unique_nonce"),
    ]

    operations = [
        migrations.AddField(
            model_name="loghead",
            name="counters",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
