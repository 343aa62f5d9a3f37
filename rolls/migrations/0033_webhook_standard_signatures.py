"""Standard Webhooks signatures: an opaque id per delivery (``webhook-id``, signed with the body),
secrets in Standard Webhooks' ``whsec_`` form, and the previous secret kept during a rotation."""

import base64
import secrets

from django.db import migrations, models

import rolls.models.webhooks


def opaque_ids_and_whsec_secrets(apps, schema_editor):
    """Each delivery gets a random id; each secret is rewritten as ``whsec_`` and the base64 of
    its own bytes, so the HMAC key stays exactly what it was (the receiver updates only how it
    reads the secret)."""
    Delivery = apps.get_model("rolls", "WebhookDelivery")
    for delivery in Delivery.objects.filter(uid__isnull=True).only("pk").iterator():
        Delivery.objects.filter(pk=delivery.pk).update(uid="msg_" + secrets.token_urlsafe(16))
    Webhook = apps.get_model("rolls", "Webhook")
    converted = Webhook.objects.exclude(secret__startswith="whsec_")  # noqa: S106 (a prefix)
    for webhook in converted.only("pk", "secret"):
        key = base64.b64encode(webhook.secret.encode()).decode()
        Webhook.objects.filter(pk=webhook.pk).update(secret="whsec_" + key)


class Migration(migrations.Migration):
    dependencies = [
        ("rolls", "0032_rollcall_punchers_chance"),
    ]

    operations = [
        migrations.AlterField(
            model_name="webhook",
            name="secret",
            field=models.CharField(
                default=rolls.models.webhooks.new_secret, editable=False, max_length=100
            ),
        ),
        migrations.AddField(
            model_name="webhook",
            name="previous_secret",
            field=models.CharField(blank=True, editable=False, max_length=100),
        ),
        migrations.AddField(
            model_name="webhook",
            name="previous_until",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="webhookdelivery",
            name="uid",
            field=models.CharField(editable=False, max_length=40, null=True),
        ),
        migrations.RunPython(opaque_ids_and_whsec_secrets, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="webhookdelivery",
            name="uid",
            field=models.CharField(
                default=rolls.models.webhooks.new_delivery_id,
                editable=False,
                max_length=40,
                unique=True,
            ),
        ),
    ]
