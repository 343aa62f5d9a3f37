"""Who a whisper is to (docs/messages.md): one row per recipient of a whispered message or of its
correction, written in the entry's own transaction.

The entry's ``options["to"]`` holds the same ids and is hashed into the chain; these rows are the
index that lets the log's visibility rule ask "is this member a recipient?" in SQL with one probe
(the whisper grants of ``log.models.visibility``). ``verify_chain`` holds the two together, so a
row added by hand to let someone read a whisper is reported like any other tampering.
"""

from __future__ import annotations

from django.db import models


class EntryRecipient(models.Model):
    entry = models.ForeignKey(
        "RollEntry",
        on_delete=models.PROTECT,
        related_name="recipients",
        db_index=False,  # the unique constraint leads with it
    )
    # The user's id as written, like the entry's ``user_ref``: a deleted account changes nothing
    # about who a whisper was to.
    user_ref = models.PositiveBigIntegerField()

    class Meta:
        db_table = "rolls_entryrecipient"  # the rolls app's name, kept: no data moved
        constraints = [
            models.UniqueConstraint(fields=["entry", "user_ref"], name="entry_recipient_unique"),
        ]

    def __str__(self) -> str:
        return f"entry {self.entry_id} → user {self.user_ref}"
