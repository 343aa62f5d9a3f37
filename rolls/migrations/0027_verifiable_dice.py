"""Verifiable dice and a signed log (docs/verifiable-dice.md): each entry's dice proof and
signature, the head's signature and position secret, and the table of keys the server has used.

Every existing head gets a position secret of its own and is signed with the server's key (read
from SIGNING_KEY_FILE, never stored here), so verify_log holds a head written from now on to a
signature. Entries written before stay as they are: unsigned, and verify_log counts them apart.

Adding columns to the entry table remakes it on SQLite, which drops its triggers: they are kept
and made again exactly as migration 0023 does it.
"""

import importlib
import secrets

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

import rolls.models.head
from proofs.keys import ServerKey
from proofs.poolside_verify import head_message

_TRIGGERS = importlib.import_module("rolls.migrations.0023_session_markers")


def sign_heads(apps, schema_editor):
    LogHead = apps.get_model("rolls", "LogHead")
    SigningKey = apps.get_model("rolls", "SigningKey")
    alias = schema_editor.connection.alias
    heads = list(LogHead.objects.using(alias).order_by("pk"))
    if not heads:
        return
    key = ServerKey.from_file(str(settings.SIGNING_KEY_FILE))
    SigningKey.objects.using(alias).get_or_create(
        id=key.id,
        defaults={
            "signing_key": key.signing_public_hex,
            "vrf_key": key.vrf_public_hex,
            "activated_at": timezone.now(),
        },
    )
    for head in heads:
        head.position_secret = secrets.token_hex(32)
        head.signature = key.sign(head_message(head.campaign_id, head.length, head.hash))
        head.signed_by = key.id
        head.save(update_fields=["position_secret", "signature", "signed_by"])


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0026_messages"),
    ]

    operations = [
        migrations.RunPython(_TRIGGERS.remember_triggers, _TRIGGERS.restore_triggers),
        migrations.CreateModel(
            name="SigningKey",
            fields=[
                ("id", models.CharField(max_length=16, primary_key=True, serialize=False)),
                (
                    "signing_key",
                    models.CharField(help_text="Ed25519 public key, hex.", max_length=64),
                ),
                ("vrf_key", models.CharField(help_text="ECVRF public key, hex.", max_length=64)),
                ("activated_at", models.DateTimeField()),
            ],
            options={"ordering": ["activated_at", "id"]},
        ),
        migrations.AddField(
            model_name="rollentry",
            name="proof",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="rollentry",
            name="signature",
            field=models.CharField(blank=True, editable=False, max_length=128, default=""),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="rollentry",
            name="signed_by",
            field=models.CharField(blank=True, editable=False, max_length=16, default=""),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="loghead",
            name="signature",
            field=models.CharField(blank=True, max_length=128, default=""),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="loghead",
            name="signed_by",
            field=models.CharField(blank=True, max_length=16, default=""),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="loghead",
            name="position_secret",
            field=models.CharField(
                default="",
                max_length=64,
            ),
            preserve_default=False,
        ),
        migrations.RunPython(sign_heads, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="loghead",
            name="position_secret",
            field=models.CharField(default=rolls.models.head.new_position_secret, max_length=64),
        ),
        migrations.RunPython(_TRIGGERS.restore_triggers, _TRIGGERS.remember_triggers),
    ]
