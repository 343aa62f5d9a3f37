"""The GM's form to add a webhook. The URL is checked as it will be at send time (scheme, host,
and every address it resolves to), so a refused address is a message beside the field."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from rolls.models import Webhook, WebhookFormat
from rolls.webhooks.delivery import Refused, resolve
from sheets.models import Campaign

# Each webhook is one more request per roll for the worker: a handful covers a Discord channel
# and a bot or two.
MAX_WEBHOOKS = 5


class WebhookForm(forms.ModelForm[Webhook]):
    format = forms.ChoiceField(
        choices=WebhookFormat.choices,
        initial=WebhookFormat.DISCORD,
        widget=forms.RadioSelect,
        help_text="Discord: a message per roll in a channel (its URL is under the channel's "
        "Integrations → Webhooks). JSON: the roll as the API returns it, signed with a secret "
        "shown here once the webhook is added.",
    )

    class Meta:
        model = Webhook
        fields = ("url", "format", "witness_sessions")
        widgets = {"url": forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "off"})}
        help_texts = {
            "url": "Rolls every member may read are posted here.",
            "witness_sessions": "A signed fingerprint of the log that tells nobody what is in it: "
            "a copy outside this server that verify_log can check the log against later.",
        }

    def __init__(self, campaign: Campaign, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["witness_sessions"].label_suffix = ""  # a checkbox's label follows it

    def clean_url(self) -> str:
        url: str = self.cleaned_data["url"]
        try:
            resolve(url)
        except Refused as refused:
            raise ValidationError(str(refused)) from None
        return url

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.campaign.webhooks.count() >= MAX_WEBHOOKS:
            raise ValidationError(
                f"A campaign has at most {MAX_WEBHOOKS} webhooks; delete one to add another."
            )
        return cleaned

    def save(self, commit: bool = True) -> Webhook:
        webhook: Webhook = super().save(commit=False)
        webhook.campaign = self.campaign
        if commit:
            webhook.add()
        return webhook
