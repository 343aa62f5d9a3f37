"""A member's view of the log, as the server has signed it (docs/verifiable-dice.md#your-view-of-
the-log): how long it is, its hash, and where it was caught up to. Kept so that a visit costs only
what was added since; every checkpoint lets a browser re-check the newest part from there."""

from __future__ import annotations

from django.db import models

from sheets.models import Campaign


class SeenHead(models.Model):
    """One member's view of one campaign's log: ``length`` items hashing to ``hash``, every entry
    up to ``through`` (an entry id) considered. Per user id, not membership: the view belongs to
    the person, and is started afresh if their role changes (``gm``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    user_ref = models.PositiveBigIntegerField()
    gm = models.BooleanField(default=False)
    length = models.PositiveIntegerField(default=0)
    hash = models.CharField(max_length=64)
    through = models.PositiveBigIntegerField(default=0)

    class Meta:
        db_table = "rolls_seenhead"  # the rolls app's name, kept: no data moved
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user_ref"], name="seen_head_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.campaign_id}/{self.user_ref}: #{self.length}"


class SeenCheckpoint(models.Model):
    """The view's hash after ``length`` items (a multiple of rolls.seen.chain.STEP), and the id of
    the entry that was the last of them."""

    head = models.ForeignKey(SeenHead, on_delete=models.CASCADE, related_name="checkpoints")
    length = models.PositiveIntegerField()
    hash = models.CharField(max_length=64)
    entry_ref = models.PositiveBigIntegerField()

    class Meta:
        db_table = "rolls_seencheckpoint"  # the rolls app's name, kept: no data moved
        constraints = [
            models.UniqueConstraint(fields=["head", "length"], name="seen_checkpoint_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.head_id} #{self.length}"
