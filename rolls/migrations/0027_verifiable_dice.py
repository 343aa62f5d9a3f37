"""Verifiable dice and a signed log (docs/verifiable-dice.md): each entry's dice proof and
signature, the head's signature and position secret, and the table of keys the server has used.

Every existing head gets a position secret of its own and is signed with the server's key (read
from SIGNING_KEY_FILE, never stored here), so verify_log holds a head written from now on to a
signature. Entries written before stay as they are: unsigned, and verify_log counts them apart.

Adding columns to the entry table remakes it on SQLite, which drops its triggers: they are kept
and made again exactly as migration 0023 does it.
"""

import functools
import hashlib
import importlib
import json
import secrets
from pathlib import Path

from django.conf import settings
from django.db import migrations, models
from django.utils import timezone
from nacl.signing import SigningKey as Ed25519Key

_TRIGGERS = importlib.import_module("rolls.migrations.0023_session_markers")


# The formats this migration wrote, frozen here rather than imported from proofs/, so that a later
# change there can never change what this migration did (docs/verifiable-dice.md, "Keys" and
# "Signatures"): the key file's 32-byte master seed, the two seeds derived from it, the key id,
# and the head message v1. The ECVRF public key of RFC 9381's edwards25519 suite is derived from
# its seed exactly as an Ed25519 public key is, so PyNaCl gives both.
def _server_key(path):
    master = bytes.fromhex(Path(path).read_text(encoding="ascii")[:64])
    signing_seed = hashlib.sha512(b"poolside signing key v1" + master).digest()[:32]
    vrf_seed = hashlib.sha512(b"poolside vrf key v1" + master).digest()[:32]
    signer = Ed25519Key(signing_seed)
    signing_public = signer.verify_key.encode()
    vrf_public = Ed25519Key(vrf_seed).verify_key.encode()
    key_id = hashlib.sha256(signing_public + vrf_public).hexdigest()[:16]
    return key_id, signing_public.hex(), vrf_public.hex(), signer


def _head_message(campaign, length, hash):
    content = {"campaign": campaign, "hash": hash, "length": length}
    return b"poolside head v1\n" + json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sign_heads(apps, schema_editor):
    LogHead = apps.get_model("rolls", "LogHead")
    SigningKey = apps.get_model("rolls", "SigningKey")
    alias = schema_editor.connection.alias
    heads = list(LogHead.objects.using(alias).order_by("pk"))
    if not heads:
        return
    key_id, signing_public, vrf_public, signer = _server_key(settings.SIGNING_KEY_FILE)
    SigningKey.objects.using(alias).get_or_create(
        id=key_id,
        defaults={
            "signing_key": signing_public,
            "vrf_key": vrf_public,
            "activated_at": timezone.now(),
        },
    )
    for head in heads:
        head.position_secret = secrets.token_hex(32)
        message = _head_message(head.campaign_id, head.length, head.hash)
        head.signature = signer.sign(message).signature.hex()
        head.signed_by = key_id
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
            field=models.CharField(default=functools.partial(secrets.token_hex, 32), max_length=64),
        ),
        migrations.RunPython(_TRIGGERS.restore_triggers, _TRIGGERS.remember_triggers),
    ]
