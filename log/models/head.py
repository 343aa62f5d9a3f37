"""Where a campaign's chain ends (its head) and the empty chain's hash."""

from __future__ import annotations

import secrets
from functools import partial

from django.db import models
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from log.models.keys import server_key
from proofs.protocol import head_message
from proofs.witness import SALT_BYTES, commitment, witness_message
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
    # The server's signature of this head (length and hash), moved with it: a head written by a
    # database client without the key doesn't verify, so neither a forged append nor an emptied
    # log passes verify_log (docs/verifiable-dice.md).
    signature = models.CharField(max_length=128, blank=True)
    signed_by = models.CharField(max_length=16, blank=True)
    # Hashed into each dice proof's "position" with the entry's seq and prev_hash, so that a
    # player can check a proof without learning where the roll sits in the chain. The GM's
    # export gives it; nothing else does.
    position_secret = models.CharField(max_length=64, default=partial(secrets.token_hex, 32))
    # Each roller's count of dice drawn from the VRF (alpha version 2), by user id as text:
    # ``{"7": 17}``. Moved with the head, by the statement that appends the roll it counts, so a
    # roll is counted if and only if it is in the log (docs/verifiable-dice.md). Null: none yet.
    counters = models.JSONField(null=True, blank=True, editable=False)

    class Meta:
        db_table = "rolls_loghead"  # the rolls app's name, kept: no data moved

    def __str__(self) -> str:
        return f"{self.campaign_id}: #{self.length} {self.hash}"

    def sign(self) -> None:
        """Sign the head as it stands (the empty head of a new campaign; an append signs its own
        in the statement that moves it)."""
        key = server_key()
        self.signature = key.sign(head_message(self.campaign_id, self.length, self.hash))
        self.signed_by = key.id

    @property
    def digest(self) -> str:
        """What a GM can write down to check the log against later: ``#length:hash``."""
        return f"#{self.length}:{self.hash}"

    def witness(self) -> dict[str, object]:
        """The head as it stands now, for a witness token (docs/verifiable-dice.md#an-outside-
        witness): kept on the delivery, so every retry sends the same token. The salt stays
        here (and in the GM's export), never in what is posted: without it nobody can try lengths
        against the token's commitment; the token's own signature is over that commitment."""
        salt = secrets.token_hex(SALT_BYTES)
        key = server_key()
        signature = key.sign(
            witness_message(commitment(self.campaign_id, self.length, self.hash, salt))
        )
        return {
            "campaign": self.campaign_id,
            "length": self.length,
            "hash": self.hash,
            "signature": self.signature,
            "key": self.signed_by,
            "salt": salt,
            "token_signature": signature,
            "token_key": key.id,
            "at": timezone.now().isoformat(),
        }


@receiver(post_save, sender=Campaign)
def _start_the_log(
    sender: type[Campaign], instance: Campaign, created: bool, **kwargs: object
) -> None:
    """Every campaign gets its (empty) head with it, so a roll never pays for creating it.
    ``append`` still creates a missing one, for campaigns made before heads existed."""
    if created and not kwargs.get("raw"):
        head = LogHead(campaign=instance)
        head.sign()
        head.save()
