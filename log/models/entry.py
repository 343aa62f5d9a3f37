"""One log entry: what was rolled, by whom, the dice and the outcome, hashed into the chain.

The canonical form hashed into ``hash`` is documented in docs/roll-log.md; keep the two in step.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from functools import cached_property
from typing import Any

import orjson
from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.fields.json import KT, KeyTransform

from log.models import visibility as visibility_rule
from log.models.chain import (
    HASH_VERSION,
    HASH_VERSION_GM_TABLE,
    HASH_VERSION_PROOF,
    HASH_VERSION_SALTED,
    HASH_VERSION_TEXT,
    SALT_BYTES,
    AppendOnlyError,
    RollEntryQuerySet,
)
from log.models.dice import Die, dice_of
from log.models.kinds import (
    MARKER_KINDS,
    VISIBILITY_NAMES,
    Kind,
    KindInfo,
    Visibility,
    kind_choices,
    kind_info,
)
from log.models.recorded import RECORDED_LINKS
from log.tokens import entry_url
from sheets.models import Campaign, Character, Membership, system_choices


class RollEntry(models.Model):
    """One roll or follow-up in a campaign's log. Field meanings: docs/roll-log.md."""

    # No index of its own on campaign, character or follows: an index or unique constraint in Meta
    # leads with each (an entry is written once and read by those; every index is one more write
    # in every roll).
    campaign = models.ForeignKey(
        Campaign, on_delete=models.PROTECT, related_name="roll_entries", db_index=False
    )
    seq = models.PositiveIntegerField(help_text="Position in the campaign's chain, from 1.")
    # Navigation links. The log keeps an entry when its character or user is deleted, so these
    # are nulled then; the names below are what the entry (and its hash) recorded.
    character = models.ForeignKey(
        Character,
        on_delete=models.SET_NULL,
        null=True,
        related_name="roll_entries",
        db_index=False,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character_name = models.CharField(max_length=200)
    username = models.CharField(max_length=150)
    system = models.CharField(max_length=16, choices=system_choices)
    # Every registered kind (log/models/kinds.py, settings.LOG_KINDS): the database's checks
    # ``roll_entry_kind_valid`` and ``roll_entry_follow_ups_follow`` hold the registered kinds
    # (migration 0030), so the model declares no closed list.
    kind = models.CharField(max_length=16, choices=kind_choices)
    follows = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="follow_ups",
        db_index=False,
    )
    root = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="chain",
        db_index=False,  # indexed where set: Meta.indexes
        help_text="The roll this follow-up's chain started with (empty on a root).",
    )
    visibility = models.CharField(
        max_length=16, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    roller = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        help_text="Who made the root roll: GM-only and blind rolls are theirs to know of.",
    )
    reveals = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="revealed_by",
        help_text="On a reveal entry: the hidden roll it makes readable by everyone.",
    )
    label = models.CharField(max_length=200, help_text="What was rolled: skill, ability, …")
    options = models.JSONField(default=dict, help_text="Every option the roll was made with.")
    pool = models.JSONField(default=dict)
    breakdown = models.TextField(help_text="The pool in words.")
    faces = models.JSONField(default=list, help_text="Every die: kind, face, reading.")
    outcome = models.CharField(max_length=32)
    outcome_label = models.CharField(max_length=100)
    detail = models.TextField(blank=True, help_text="The outcome in words (wins, boons, …).")
    result = models.JSONField(default=dict, help_text="The outcome's figures.")
    odds = models.CharField(
        max_length=400,
        help_text="Exact chance of this outcome when rolled, as numerator/denominator.",
    )
    odds_display = models.CharField(max_length=16)
    odds_table = models.JSONField(
        default=dict,
        help_text="Every outcome's exact chance when rolled, as numerator/denominator.",
    )
    resource_changes = models.JSONField(default=dict)
    # The GM table: the call this roll answers, the contest it is part of (set at creation only).
    call = models.ForeignKey(
        "rolls.RollCall",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        db_index=False,  # indexed where set: Meta.indexes
    )
    contest = models.ForeignKey(
        "rolls.Contest",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="entries",
        db_index=False,  # indexed where set: Meta.indexes
    )
    # Frozen when written and hashed (version 3): who may read the entry must not depend on a
    # row that can change later (docs/roll-log.md).
    hidden_character = models.BooleanField(
        default=False,
        help_text="The character was a hidden NPC when this was written: players read the entry "
        "only once revealed.",
    )
    # The ids behind the character, user and roller links as written. The links are nulled when
    # the row they point to is deleted; these never change, are hashed, and a check constraint
    # holds each link to NULL or to its id here — so re-pointing a link is caught.
    character_ref = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    user_ref = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    roller_ref = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    # Which canonical form the hash follows, from version 4 on (null: the form is told by the
    # salt and the links, as before); hashed as "v", so changing it breaks the hash.
    hash_version = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    salt = models.CharField(
        max_length=2 * SALT_BYTES,
        blank=True,
        editable=False,
        help_text="Random, hashed with the entry (version 3), shown only to who may read it.",
    )
    # Version 6: the commitment to each piece of free text (field → SHA-256(salt ‖ text), hex),
    # hashed in its place; the text and salt are in EntryText, which may be emptied. Null before
    # version 6 (no default: SQLite adds the column in place, keeping the table's triggers).
    commitments = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField()
    # The dice's proof (docs/verifiable-dice.md): the VRF input's parts and the proof that the
    # faces follow from them under the server's key; {} when no dice were drawn. Hashed (v5).
    proof = models.JSONField(default=dict, blank=True)
    # The server's signature of the log's head as it stood right after this entry (its seq and
    # hash), and the key's id: an entry appended without the key has none that verifies.
    signature = models.CharField(max_length=128, blank=True, editable=False)
    signed_by = models.CharField(max_length=16, blank=True, editable=False)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)  # unique: roll_entry_unique_hash

    objects = RollEntryQuerySet.as_manager()

    # Only on the rows of RollEntryQuerySet.visible_to() (query annotations, not columns): may the
    # member whose pk is readable_for read this entry?
    readable: bool
    readable_for: int
    # Set on the entry a roll's retry answers (its nonce was used before: the idempotency key):
    # the API says 200 and Idempotent-Replayed instead of 201.
    replayed: bool = False

    class Meta:
        db_table = "rolls_rollentry"  # the rolls app's name, kept: no data moved
        ordering = ["-pk"]
        verbose_name_plural = "roll entries"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="roll_entry_unique_seq"),
            # One follow-up per entry: chains are linear, so "Correct only once", "one choice",
            # "one bought boon" and "destiny one at a time" hold even under concurrent clicks.
            models.UniqueConstraint(
                fields=["follows"],
                condition=Q(follows__isnull=False),
                name="roll_entry_one_follow_up",
            ),
            # A constraint, not unique=True: on PostgreSQL that adds a second index, for LIKE on
            # the hash, which nothing asks (a fifth of the table's indexes at a million rolls).
            models.UniqueConstraint(fields=["hash"], name="roll_entry_unique_hash"),
            # The roller's nonce is a roll's idempotency key (docs/api.md, "Retrying a roll"): a
            # retry of a request whose answer was lost finds the entry it made, and a race of
            # two retries writes one. Entries without dice have no nonce: NULLs never collide.
            models.UniqueConstraint(
                F("campaign"),
                F("user"),
                KT("proof__alpha__nonce"),
                name="roll_entry_unique_nonce",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="roll_entry_seq_positive"),
            models.CheckConstraint(
                condition=Q(visibility__in=Visibility.values), name="roll_entry_visibility_valid"
            ),
            models.CheckConstraint(
                condition=Q(kind=Kind.REVEAL, reveals__isnull=False, visibility=Visibility.PUBLIC)
                | (~Q(kind=Kind.REVEAL) & Q(reveals__isnull=True)),
                name="roll_entry_reveal_reveals",
            ),
            *(
                models.CheckConstraint(
                    # The ref must be set too: a NULL would make the comparison unknown, which
                    # a CHECK lets through.
                    condition=Q(**{f"{link}__isnull": True})
                    | Q(**{f"{link}_ref__isnull": False, f"{link}_id": F(f"{link}_ref")}),
                    name=f"roll_entry_{link}_as_recorded",
                )
                for link in RECORDED_LINKS
            ),
        ]
        indexes = [
            models.Index(fields=["campaign", "-id"], name="roll_entry_campaign_page"),
            models.Index(fields=["character", "-id"], name="roll_entry_character_recent"),
            # Log filters (rolls/log/filters.py): by skill, newest first; by date range.
            models.Index(fields=["campaign", "label", "-id"], name="roll_entry_campaign_label"),
            models.Index(fields=["campaign", "created_at"], name="roll_entry_campaign_time"),
            # Links most entries leave empty: indexed only where set, so that a plain roll writes
            # none of these. Deleting a call, a contest or a root entry looks them up.
            *(
                models.Index(
                    fields=[link],
                    condition=Q(**{f"{link}__isnull": False}),
                    name=f"roll_entry_{link}",
                )
                for link in ("root", "call", "contest")
            ),
            # The session markers, a campaign's newest first: the current session, and the marker
            # each listed entry belongs to (RollEntryQuerySet.with_session), one probe each.
            models.Index(
                fields=["campaign", "-id"],
                condition=Q(kind__in=MARKER_KINDS),
                name="roll_entry_markers",
            ),
            # One session's markers by its number (the log's session filter, a recap): without
            # it, every marker's JSON is read — 16 ms at four thousand sessions. PostgreSQL
            # matches ``result__session=`` to it; on SQLite the lookup's path is a parameter.
            models.Index(
                F("campaign"),
                KeyTransform("session", "result"),
                condition=Q(kind__in=MARKER_KINDS),
                name="roll_entry_marker_session",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.character_name}: {self.label} — {self.outcome_label}"

    # --- append-only -----------------------------------------------------------------------
    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("changed")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return entry_url(self.pk)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("deleted")

    # --- visibility --------------------------------------------------------------------------
    redacted = False  # a HiddenEntry says True
    # Read ``with_session`` (log/models/chain.py): the committed names of the session's start
    # and of the newest marker at or before the entry. Unset otherwise.
    session_named: str | None
    marker_named: str | None

    @property
    def info(self) -> KindInfo:
        """What its kind answers (has dice? followable? its card?): ask this, not the kind."""
        return kind_info(self.kind)

    @property
    def said(self) -> str | None:
        """The entry's words as shown: ``detail``, or where it is committed (version 6) the text
        beside the chain — None once removed. Read ``with_texts`` (log/models/texts.py), a
        list costs no query per entry."""
        if "detail" not in (self.commitments or {}):
            return self.detail
        if not hasattr(self, "detail_shown"):
            self.detail_shown = (
                self.texts.filter(field="detail").values_list("text", flat=True).first()
            )
        return self.detail_shown

    @property
    def said_before(self) -> str | None:
        """A correction's previous version's words (``for_cards`` joins them on), as ``said``."""
        before = self.follows
        if before is None:
            return None
        if hasattr(self, "follows_shown") and not hasattr(before, "detail_shown"):
            before.detail_shown = self.follows_shown
        return before.said

    @property
    def recipient_ids(self) -> list[int]:
        """A whisper's recipients as hashed with it (``options["to"]``; EntryRecipient indexes
        the same ids for SQL)."""
        if self.visibility != Visibility.WHISPER:
            return []
        return [int(pk) for pk in self.options.get("to", [])]

    SUCCESS_OUTCOMES = frozenset({"critical_success", "success", "costly_success"})

    @property
    def visibility_name(self) -> str:
        return VISIBILITY_NAMES[self.visibility]

    @cached_property
    def is_revealed(self) -> bool:
        root_pk = self.root_id or self.pk
        return RollEntry.objects.filter(reveals_id=root_pk).exists()

    @property
    def is_hidden(self) -> bool:
        """Not (yet) readable by every member."""
        return not visibility_rule.read_by_everyone(self)

    def is_readable_by(self, membership: Membership | None) -> bool:
        """May this member see the dice, outcome, odds and pool? (log/models/visibility.py;
        rows from ``visible_to`` carry the answer.)"""
        if membership is None or membership.campaign_id != self.campaign_id:
            return False
        if getattr(self, "readable_for", None) == membership.pk:
            return bool(self.readable)
        return visibility_rule.reads(self, membership)

    def is_known_to(self, membership: Membership | None) -> bool:
        """May this member know the entry exists (full card or placeholder)? The roller of a
        blind roll knows of the roll itself, never of its follow-ups (``visible_to``)."""
        return self.is_readable_by(membership) or visibility_rule.placeholder_for(self, membership)

    def card_for(self, membership: Membership | None) -> RollEntry | HiddenEntry:
        """The entry itself for a member who may read it, else a placeholder that holds nothing
        secret — templates can't leak what the object doesn't have."""
        if self.is_readable_by(membership):
            return self
        return HiddenEntry(
            pk=self.pk,
            seq=self.seq,
            campaign_id=self.campaign_id,
            character_id=self.character_id,
            character_name=self.character_name,
            label=self.label,
            username=self.username,
            # Never the real kind: an automatic pass, or any follow-up, tells the outcome.
            kind=Kind.ROLL,
            created_at=self.created_at,
            visibility=self.visibility,
            # Which session the placeholder falls in: told by the public markers around it and
            # by its time, which the member sees anyway.
            session_state=getattr(self, "session_state", None),
            session_named=getattr(self, "session_named", None),
            marker_named=getattr(self, "marker_named", None),
        )

    # --- hash chain ------------------------------------------------------------------------
    def content(self) -> dict[str, Any]:
        """The hashed fields, exactly as docs/roll-log.md lists them."""
        content = self._content_v1()
        if self.salt:
            content |= {
                "v": HASH_VERSION_SALTED,
                "call": self.call_id,
                "contest": self.contest_id,
                "salt": self.salt,
                # The root decides a follow-up's audience (a reveal of the root opens it).
                "root": self._seq_of("root"),
                "character_id": self.character_ref,
                "user_id": self.user_ref,
                "roller_id": self.roller_ref,
                "hidden_character": self.hidden_character,
            }
        elif self.call_id or self.contest_id:
            content |= {
                "v": HASH_VERSION_GM_TABLE,
                "call": self.call_id,
                "contest": self.contest_id,
            }
        if self.hash_version is not None:
            # Version 4 on: the odds as the card showed them, and the version the entry declares.
            content |= {"v": self.hash_version, "odds_display": self.odds_display}
        if self.hash_version is not None and self.hash_version >= HASH_VERSION_PROOF:
            content["proof"] = self.proof
        if self.hash_version is not None and self.hash_version >= HASH_VERSION_TEXT:
            content["commitments"] = self.commitments
        return content

    def cut_link(self) -> str | None:
        """The name of a link set to NULL while the row it recorded still exists (``verify_chain``
        annotates ``<link>_alive``): not a deletion, which removes the row, but a cut."""
        for link in RECORDED_LINKS:
            if getattr(self, f"{link}_alive", False):
                return link
        return None

    def moved_link(self) -> str | None:
        """The name of a link that points elsewhere than the id the entry recorded (the check
        constraint refuses that on write; this catches it where constraints were bypassed)."""
        for link in RECORDED_LINKS:
            current = getattr(self, f"{link}_id")
            if current is not None and current != getattr(self, f"{link}_ref"):
                return link
        return None

    def _content_v1(self) -> dict[str, Any]:
        return {
            "v": HASH_VERSION,
            "campaign": self.campaign_id,
            "seq": self.seq,
            "prev_hash": self.prev_hash,
            "created_at": self.created_at.astimezone(UTC).isoformat(timespec="microseconds"),
            "system": self.system,
            "kind": self.kind,
            "follows": self._seq_of("follows"),
            "visibility": self.visibility,
            "reveals": self._seq_of("reveals"),
            "character": self.character_name,
            "user": self.username,
            "label": self.label,
            "options": self.options,
            "pool": self.pool,
            "breakdown": self.breakdown,
            "faces": self.faces,
            "outcome": self.outcome,
            "outcome_label": self.outcome_label,
            "detail": self.detail,
            "result": self.result,
            "odds": self.odds,
            "odds_table": self.odds_table,
            "resource_changes": self.resource_changes,
        }

    def _seq_of(self, link: str) -> int | None:
        """The ``seq`` of a linked entry. ``verify_chain`` annotates ``<link>_seq`` so checking a
        million entries doesn't cost a query per link."""
        if getattr(self, f"{link}_id") is None:
            return None
        annotated = getattr(self, f"{link}_seq", None)
        return annotated if annotated is not None else getattr(self, link).seq

    def compute_hash(self) -> str:
        return hashlib.sha256(canonical_json(self.content())).hexdigest()

    # --- display ---------------------------------------------------------------------------
    @property
    def odds_fraction(self) -> Fraction:
        return Fraction(self.odds)

    @property
    def dice(self) -> list[Die]:
        return dice_of(self.faces)

    @property
    def contest_sides(self) -> list[dict[str, Any]]:
        """A contest verdict's rolls (from its hashed ``result``), each with its dice and link."""
        if not self.info.is_verdict:
            return []
        return [
            side | {"dice": dice_of(side["faces"]), "url": entry_url(side["entry"])}
            for side in self.result.get("sides", [])
        ]

    @property
    def resource_list(self) -> list[str]:
        """E.g. ["−1 Destiny", "+1 Momentum"], for the card."""
        names = {
            "destiny": "Destiny",
            "momentum": "Momentum",
            "willpower": "Willpower",
            "banes": "Bane",
            "forward_boons": "rolled-forward boon",
        }
        return [
            f"{'+' if change > 0 else '−'}{abs(change)} {names.get(key, key)}"
            for key, change in sorted(self.resource_changes.items())
            if change
        ]


@dataclass(frozen=True)
class HiddenEntry:
    """What a member who may not read a roll is shown of it: that it happened, no figures."""

    pk: int
    seq: int
    campaign_id: int
    character_id: int | None
    character_name: str
    label: str
    username: str
    kind: str
    created_at: datetime
    visibility: str
    redacted: bool = True
    session_state: Any = None  # with_session's, when the entry was read with it
    session_named: str | None = None  # and the session's and scene's names it read with it
    marker_named: str | None = None

    def get_absolute_url(self) -> str:
        return entry_url(self.pk)

    @property
    def info(self) -> KindInfo:
        """A roll's, whatever the entry was: markers and messages are never placeholders (markers
        are always public; a message known is a message readable)."""
        return kind_info(self.kind)

    @property
    def visibility_name(self) -> str:
        return VISIBILITY_NAMES[self.visibility]


def canonical_json(content: dict[str, Any]) -> bytes:
    """Keys sorted, no whitespace, UTF-8 (not \\u-escaped). No floats ever enter the content.

    The bytes are those of ``json.dumps(content, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False)`` in UTF-8 (docs/roll-log.md), written by orjson: for what an entry
    holds (string keys; strings, integers, booleans, null, lists and objects) it writes the same
    bytes in a fifth of the time, and a test holds the two equal. What orjson refuses (an
    integer beyond 64 bits, a key that isn't a string, nesting past 254 levels) is written the
    standard library's way, which then writes it or refuses it as it always did."""
    try:
        return orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(
            content, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode("utf-8")
