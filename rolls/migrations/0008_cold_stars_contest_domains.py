from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0007_dad6_extra_boons"),
    ]

    operations = [
        migrations.AddField(
            model_name="contest",
            name="outside_domain_a",
            field=models.BooleanField(
                default=False,
                help_text="Cold Stars: side A acts outside every domain of its skill.",
            ),
        ),
        migrations.AddField(
            model_name="contest",
            name="outside_domain_b",
            field=models.BooleanField(
                default=False,
                help_text="Cold Stars: side B acts outside every domain of its skill.",
            ),
        ),
    ]
