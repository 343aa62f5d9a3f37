"""Where a campaign's chain ends (its head) and the empty chain's hash."""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models.signals import post_save
from django.dispatch import receiver

from sheets.models import Campaign

GENESIS_HASH = "0" * 64


class LogHead(models.Model):
    """Where a campaign's chain ends: its length and last hash, moved in the transaction that
    appends. ``verify_log`` compares the chain with it, so deleting the newest entries — which
    leaves a shorter chain that verifies by itself — is caught. It is also the appends' lock."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, primary_key=True, related_name="log_head"
    )
    length = models.PositiveIntegerField(default=0)
    hash = models.CharField(max_length=64, default=GENESIS_HASH)

    def __str__(self) -> str:
        return f"{self.campaign_id}: #{self.length} {self.hash}"

    @property
    def digest(self) -> str:
        """What a GM can write down to check the log against later: ``#length:hash``."""
        return f"#{self.length}:{self.hash}"


@receiver(post_save, sender=Campaign)
def _start_the_log(
    sender: type[Campaign], instance: Campaign, created: bool, **kwargs: Any
) -> None:
    """Every campaign gets its (empty) head with it, so a roll never pays for creating it.
    ``append`` still creates a missing one, for campaigns made before heads existed."""
    if created and not kwargs.get("raw"):
        LogHead.objects.create(campaign=instance)
