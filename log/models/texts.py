"""Free text beside the chain (hash version 6, docs/roll-log.md): what a member typed — a message,
its correction — enters the entry's hash only as a salted commitment (``RollEntry.commitments``),
and the text and its salt live here, one row per entry and field.

These rows are not under the log's append-only trigger: emptying one (a text removed) leaves the
entry's hash, its signature, the chain and every member's view verifying, since each binds the
commitment, never the text. While a row is there, ``verify_chain`` holds its text to the
commitment, so a text changed by hand is reported like any other tampering.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.db import models
from django.db.models import FilteredRelation, Q

from log.models.kinds import MARKER_KINDS
from proofs.protocol import text_commitment

if TYPE_CHECKING:
    from log.models.entry import RollEntry

TEXT_SALT_BYTES = 32  # 256 bits, one salt per field per entry

# The fields whose text is committed rather than bound, when the writer gives them as text.
COMMITTED_FIELDS = ("detail",)

# The shown text of a committed field, in ``.values()`` rows and on entries read ``with_texts``.
TEXT_VALUES = ("detail_text__text", "detail_text__salt")


class EntryText(models.Model):
    entry = models.ForeignKey(
        "RollEntry",
        on_delete=models.PROTECT,
        related_name="texts",
        db_index=False,  # the unique constraint leads with it
    )
    field = models.CharField(max_length=16, help_text="The entry's field the text stands in.")
    text = models.TextField(blank=True)
    salt = models.CharField(max_length=2 * TEXT_SALT_BYTES, help_text="64 hex digits.")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "field"], name="entry_text_unique"),
        ]

    def __str__(self) -> str:
        return f"entry {self.entry_id}: {self.field}"


def seal(texts: dict[str, str]) -> tuple[dict[str, str], list[EntryText]]:
    """The commitments to ``texts`` (field → text), to be hashed with the entry, and the rows
    that hold text and salt (their ``entry`` set once it is written)."""
    commitments, rows = {}, []
    for field, text in texts.items():
        salt = secrets.token_hex(TEXT_SALT_BYTES)
        commitments[field] = text_commitment(salt, text)
        rows.append(EntryText(field=field, text=text, salt=salt))
    return commitments, rows


def keep(entry: RollEntry, rows: list[EntryText]) -> None:
    """Write ``seal``'s rows for the entry just appended (in the caller's transaction)."""
    for row in rows:
        row.entry = entry
    EntryText.objects.bulk_create(rows)
    entry.detail_shown = next((row.text for row in rows if row.field == "detail"), None)


def with_texts[Q_: models.QuerySet[RollEntry, object]](entries: Q_) -> Q_:
    """``entries`` with each committed text joined on (one LEFT JOIN, no query per entry): rows
    of ``.values(*TEXT_VALUES)`` and entries' ``detail_shown``."""
    return entries.annotate(
        detail_text=FilteredRelation("texts", condition=Q(texts__field="detail")),
        detail_shown=models.F("detail_text__text"),
    )


def shown(row: Mapping[str, object]) -> tuple[str | None, str | None]:
    """A ``.values()`` row's committed ``detail``: (text, salt), (None, None) once removed."""
    text, salt = row.get("detail_text__text"), row.get("detail_text__salt")
    return (None if text is None else str(text)), (None if salt is None else str(salt))


# What a page shows where a committed text was removed; a session marker's name, its title.
TEXT_REMOVED = "(text removed)"
TITLE_REMOVED = "(title removed)"


def row_detail(row: Mapping[str, object]) -> str:
    """A ``.values()`` row's ``detail`` as shown: its committed text where it has one
    (``TEXT_REMOVED``, or a marker's ``TITLE_REMOVED``, once removed), else the column's."""
    committed = row.get("commitments")
    if not isinstance(committed, dict) or "detail" not in committed:
        return str(row["detail"])
    text, salt = shown(row)
    if text is None or not salt:
        return TITLE_REMOVED if row.get("kind") in MARKER_KINDS else TEXT_REMOVED
    return text
