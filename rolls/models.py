"""The campaign roll log: append-only entries, each hashed and chained to the one before it.

An entry is written once, by :meth:`RollEntryQuerySet.append`, inside the transaction that also
spends or gains the resources it records. Nothing updates or deletes it afterwards: ``save`` on a
stored row, ``delete``, and the QuerySet's ``update``/``delete``/``bulk_*`` all raise
:class:`AppendOnlyError`. A correction is a new entry that ``follows`` the old one.

The canonical form hashed into ``hash`` is documented in docs/roll-log.md; keep the two in step.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.exceptions import EmptyResultSet
from django.db import IntegrityError, connections, models, transaction
from django.db.models import BooleanField, ExpressionWrapper, F, Q, Value
from django.db.models.expressions import RawSQL
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone

from rolls import live
from sheets.models import Campaign, Character, Membership, System

GENESIS_HASH = "0" * 64
# Bumped whenever the canonical form changes, so a verifier knows which rules an entry follows.
HASH_VERSION = 1
# Version 2 adds the GM table's links ("call", "contest"). Entries without either link keep the
# version-1 form byte for byte, so every chain written before them still verifies.
HASH_VERSION_GM_TABLE = 2
# Version 3 (every entry written since) adds a random salt and who the entry is about and by whom
# (the ids behind the links, and the frozen hidden-NPC flag). The salt is what keeps a hash that a
# player can see from being checked against guesses of a hidden roll's dice (docs/roll-log.md).
HASH_VERSION_SALTED = 3
SALT_BYTES = 16  # 128 bits
# The links whose ids an entry records (``<link>_ref``): who it is about, who clicked, who rolled.
RECORDED_LINKS = ("character", "user", "roller")
# Lost races for the next seq (SQLite has no row lock) are retried this often before giving up.
APPEND_ATTEMPTS = 5


class AppendOnlyError(Exception):
    """Roll log entries are never changed or deleted; corrections are new entries."""

    def __init__(self, what: str = "changed") -> None:
        super().__init__(
            f"Roll log entries can't be {what}: the log is append-only. Record a new entry instead."
        )


class Kind(models.TextChoices):
    ROLL = "roll", "Roll"
    AUTO_PASS = "auto_pass", "Automatic pass"
    SKIP = "skip", "Skipped roll"
    REVEAL = "reveal", "Reveal"
    DESTINY = "destiny", "Destiny after the roll"
    CORRECT = "correct", "Correct (re-roll)"
    CHOICE = "choice", "Choice"
    BUY_BOON = "buy_boon", "Boon bought with a bane"
    EXTRA_BOON = "extra_boon", "Extra boon spent"
    CONTEST = "contest", "Contest"
    ASSIST = "assist", "Assist"


# Kinds that start a chain (everything else follows one of these).
ROOT_KINDS = (Kind.ROLL, Kind.AUTO_PASS, Kind.SKIP, Kind.REVEAL, Kind.CONTEST, Kind.ASSIST)


class Visibility(models.TextChoices):
    """Who may read a roll. Follow-ups inherit their root's; a reveal makes a root readable by all."""

    PUBLIC = "public", "Public"
    GM_ONLY = "gm_only", "GM only (you and the GM)"
    BLIND = "blind", "Blind (only the GM sees the result)"
    SECRET = "secret", "Secret (the GM's own hidden roll)"


# Short names for cards and sentences ("a blind roll").
VISIBILITY_NAMES = {
    Visibility.PUBLIC: "public",
    Visibility.GM_ONLY: "GM-only",
    Visibility.BLIND: "blind",
    Visibility.SECRET: "secret",
}

# Display names of outcome codes (the engine's odds bands and Cold Stars results).
OUTCOME_LABELS: dict[str, str] = {
    "critical_success": "Critical success",
    "success": "Success",
    "costly_success": "Costly success",
    "choice": "Your choice: costly success or failure",
    "failure": "Failure",
    "critical_failure": "Critical failure",
    "contest_roll": "Rolled for a contest",
}


class RollEntryQuerySet(models.QuerySet):
    # --- append-only -----------------------------------------------------------------------
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("changed")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("deleted")

    def bulk_update(self, *args: Any, **kwargs: Any) -> int:
        raise AppendOnlyError("changed")

    def bulk_create(self, *args: Any, **kwargs: Any) -> list:
        # bulk_create would skip the hash chain; entries are appended one by one.
        raise AppendOnlyError("bulk-created")

    # --- reading ---------------------------------------------------------------------------
    def for_cards(self) -> RollEntryQuerySet:
        """Everything an entry card shows, in this one query."""
        return self.select_related("follows", "reveals")

    def page(self, campaign: Campaign, *, before: int | None, size: int) -> list[RollEntry]:
        """Keyset page, newest first: entries with id < ``before`` (never OFFSET). One query;
        one extra row tells whether an older page exists."""
        qs = self.filter(campaign=campaign)
        if before is not None:
            qs = qs.filter(pk__lt=before)
        return list(qs.for_cards().order_by("-pk")[: size + 1])

    def labels(self) -> list[str]:
        """The distinct labels of these entries, in order — one query, fast at a million entries.

        ``SELECT DISTINCT label`` would read every entry (and, for a player, join each one to test
        its visibility): seconds at a million. This is a loose index scan instead — a recursive
        query that asks, per step, for the smallest label above the last one found, so the
        (campaign, label) index is probed once per distinct label and the visibility test runs
        only until the first visible entry of each label."""
        step = self.filter(label__gt=RawSQL('"poolside_labels"."label"', ()))
        try:
            sql, params = step.order_by("label").values("label")[:1].query.sql_with_params()
        except EmptyResultSet:  # .none(), or a filter that can match nothing
            return []
        query = (
            'WITH RECURSIVE "poolside_labels"("label") AS ('
            " SELECT CAST('' AS varchar(200))"
            f' UNION ALL SELECT ({sql}) FROM "poolside_labels"'
            ' WHERE "poolside_labels"."label" IS NOT NULL)'
            ' SELECT "label" FROM "poolside_labels"'
            """ WHERE "label" IS NOT NULL AND "label" <> ''"""
        )
        with connections[self.db].cursor() as cursor:
            cursor.execute(query, params)
            return [label for (label,) in cursor.fetchall()]

    def recent_for(self, character: Character, size: int) -> list[RollEntry]:
        return list(self.filter(character=character).for_cards().order_by("-pk")[:size])

    # --- visibility ------------------------------------------------------------------------
    # One rule, in SQL here and in Python in RollEntry.is_readable_by; tests hold them together.
    @staticmethod
    def _readable(membership: Membership) -> Q:
        revealed = Q(revealed_by__isnull=False) | Q(root__revealed_by__isnull=False)
        # A hidden NPC's rolls would give the NPC away, so players read them only once revealed.
        # Frozen on the entry when it was written (``hidden_character``): deleting, un-hiding or
        # hiding the NPC later changes nothing about who reads what was rolled before.
        public = Q(visibility=Visibility.PUBLIC, hidden_character=False)
        own_gm_only = Q(visibility=Visibility.GM_ONLY, roller_id=membership.user_id)
        return public | own_gm_only | revealed

    def visible_to(self, membership: Membership) -> RollEntryQuerySet:
        """Entries the member may know exist — as a full card or, for the roller of a blind roll,
        a placeholder. Each row carries ``readable`` (may the member see its figures?)."""
        qs = self.filter(campaign_id=membership.campaign_id)
        if membership.is_gm:
            readable: Any = Value(True)
        else:
            rule = self._readable(membership)
            # Only the root: a follow-up exists only after some outcomes (a bought boon only
            # after a failure), so its placeholder would give the hidden result away.
            own_blind = Q(
                visibility=Visibility.BLIND, roller_id=membership.user_id, root__isnull=True
            )
            qs = qs.filter(rule | own_blind)
            readable = ExpressionWrapper(rule, output_field=BooleanField())
        return qs.annotate(readable=readable, readable_for=Value(membership.pk))

    def readable_by(self, membership: Membership) -> RollEntryQuerySet:
        """Entries whose dice, outcome, odds and pool the member may see (exports, statistics)."""
        qs = self.filter(campaign_id=membership.campaign_id)
        return qs if membership.is_gm else qs.filter(self._readable(membership))

    # --- integrity ---------------------------------------------------------------------------
    def verify_chain(self, campaign_id: int) -> ChainReport:
        """Recompute one campaign's chain in ``seq`` order and report the first broken entry:
        a gap in ``seq``, a ``prev_hash`` that isn't the previous ``hash``, a ``hash`` that
        doesn't match the entry's canonical content, or a link that isn't the one it recorded
        (docs/roll-log.md). Last, the chain's end must be the head recorded on ``LogHead`` — so
        deleting the newest entries is caught too, although what is left chains perfectly."""
        rows = (
            self.filter(campaign_id=campaign_id)
            .annotate(
                follows_seq=F("follows__seq"),
                reveals_seq=F("reveals__seq"),
                root_seq=F("root__seq"),
            )
            .order_by("seq")
        )
        previous, count = GENESIS_HASH, 0
        for entry in rows.iterator(chunk_size=2000):
            count += 1
            if entry.seq != count:
                return ChainReport(count - 1, entry, f"expected #{count}, found #{entry.seq}")
            if entry.prev_hash != previous:
                return ChainReport(count - 1, entry, "not chained to the entry before it")
            if entry.compute_hash() != entry.hash:
                return ChainReport(count - 1, entry, "its content no longer matches its hash")
            if moved := entry.moved_link():
                return ChainReport(count - 1, entry, f"its {moved} link was changed")
            previous = entry.hash
        head = LogHead.objects.filter(campaign_id=campaign_id).first()
        head_length, head_hash = (head.length, head.hash) if head else (0, GENESIS_HASH)
        if head_length > count:
            missing = head_length - count
            return ChainReport(
                count,
                None,
                f"the head records #{head_length}: the newest {missing} "
                f"entr{'y is' if missing == 1 else 'ies are'} missing",
            )
        if (head_length, head_hash) != (count, previous):
            return ChainReport(
                count, None, f"the chain ends at #{count}, but the head records #{head_length}"
            )
        return ChainReport(count, None, "")

    # --- writing ---------------------------------------------------------------------------
    def append(self, *, campaign: Campaign, **fields: Any) -> RollEntry:
        """Append one entry to the campaign's chain and return it.

        Runs inside the caller's transaction when there is one (so resource changes and the entry
        commit together). The campaign row is locked (``SELECT … FOR UPDATE`` on PostgreSQL), so
        concurrent appends take turns and each links to the true previous entry; the unique
        (campaign, seq) constraint backs that up where there is no row lock (SQLite), and a lost
        race is retried.
        """
        follows = fields.get("follows")
        if follows is not None:
            # A follow-up belongs to its root roll's chain: same audience, same roller.
            root = follows.root if follows.root_id else follows
            fields |= {
                "root": root,
                "visibility": root.visibility,
                "roller_id": root.roller_id,
                "hidden_character": root.hidden_character,
            }
        elif "roller" not in fields and "roller_id" not in fields:
            fields["roller"] = fields.get("user")
        if "hidden_character" not in fields:
            fields["hidden_character"] = _is_hidden_npc(fields)
        if campaign.force_public_rolls and fields.get("visibility", Visibility.PUBLIC) != (
            Visibility.PUBLIC
        ):
            raise ValueError("This campaign makes every roll public.")
        for attempt in range(APPEND_ATTEMPTS):
            try:
                with transaction.atomic():
                    # The head row is the lock (SELECT … FOR UPDATE on PostgreSQL) and the
                    # chain's end in one read; it moves in the same transaction as the insert.
                    head, _ = LogHead.objects.select_for_update().get_or_create(
                        campaign_id=campaign.pk
                    )
                    seq, prev_hash = head.length + 1, head.hash
                    entry = self.model(campaign=campaign, seq=seq, prev_hash=prev_hash, **fields)
                    entry.salt = secrets.token_hex(SALT_BYTES)
                    entry.character_ref = entry.character_id
                    entry.user_ref = entry.user_id
                    entry.roller_ref = entry.roller_id
                    entry.created_at = timezone.now()
                    entry.hash = entry.compute_hash()
                    entry.save()
                    LogHead.objects.filter(pk=campaign.pk).update(length=seq, hash=entry.hash)
                    entry.is_revealed = False  # brand new: nothing can have revealed it yet
                    # In the same savepoint: open streams hear of the entry when (and only if)
                    # the caller's transaction commits.
                    live.publish(campaign.pk, "entry", entry.pk)
                    return entry
            except IntegrityError:
                # Only a lost race for the seq is retried; any other clash (a second follow-up
                # of the same entry) is the caller's to report.
                lost_race = self.filter(campaign=campaign, seq=seq).exists()
                if not lost_race or attempt == APPEND_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover


def _is_hidden_npc(fields: dict[str, Any]) -> bool:
    """Is the entry about a hidden NPC, as of now? Frozen into the entry: later changes to the
    character (un-hiding it, deleting it) never make what was hidden readable. A reveal is
    meant for everyone, whoever it is about."""
    if fields.get("kind") == Kind.REVEAL:
        return False
    character = fields.get("character")
    if character is not None:
        return bool(character.hidden_from_players)
    if fields.get("character_id") is not None:
        return Character.objects.filter(
            pk=fields["character_id"], hidden_from_players=True
        ).exists()
    return False


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


@dataclass(frozen=True)
class ChainReport:
    verified: int  # entries checked and found intact before the break (all of them when intact)
    broken: RollEntry | None  # the first broken entry (None when intact or the head is off)
    reason: str

    @property
    def intact(self) -> bool:
        return not self.reason


@dataclass(frozen=True)
class Die:
    """One die of an entry, ready for display: its face and a sentence for screen readers."""

    face: int
    kind: str  # "d6", "ability", "skill", "risk"
    reading: str  # e.g. "win", "boon", "success", "blank", "critical_failure"
    label: str


DIE_NAMES = {
    "d6": "d6",
    "ability": "d10 Ability die",
    "skill": "d10 Skill die",
    "risk": "d10 Risk die",
}
READING_WORDS = {
    "win": "win",
    "loss": "no win",
    "boon": "boon",
    "no_boon": "no boon",
    "blank": "blank",
    "success": "success",
    "critical_success": "critical success",
    "failure": "failure",
    "critical_failure": "critical failure",
}


class RollEntry(models.Model):
    """One roll or follow-up in a campaign's log. Field meanings: docs/roll-log.md."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="roll_entries")
    seq = models.PositiveIntegerField(help_text="Position in the campaign's chain, from 1.")
    # Navigation links. The log keeps an entry when its character or user is deleted, so these
    # are nulled then; the names below are what the entry (and its hash) recorded.
    character = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, related_name="roll_entries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character_name = models.CharField(max_length=200)
    username = models.CharField(max_length=150)
    system = models.CharField(max_length=16, choices=System.choices)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    follows = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="follow_ups"
    )
    root = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="chain",
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
        "RollCall", on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
    )
    contest = models.ForeignKey(
        "Contest", on_delete=models.PROTECT, null=True, blank=True, related_name="entries"
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
    salt = models.CharField(
        max_length=2 * SALT_BYTES,
        blank=True,
        editable=False,
        help_text="Random, hashed with the entry (version 3), shown only to who may read it.",
    )
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    objects = RollEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]
        verbose_name_plural = "roll entries"
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="roll_entry_unique_seq"),
            # One follow-up per entry: chains are linear, so "Correct only once", "one choice",
            # "one bought boon" and "destiny one at a time" hold even under concurrent clicks.
            models.UniqueConstraint(fields=["follows"], name="roll_entry_one_follow_up"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="roll_entry_seq_positive"),
            models.CheckConstraint(condition=Q(kind__in=Kind.values), name="roll_entry_kind_valid"),
            models.CheckConstraint(
                condition=Q(kind__in=ROOT_KINDS, follows__isnull=True)
                | (~Q(kind__in=ROOT_KINDS) & Q(follows__isnull=False)),
                name="roll_entry_follow_ups_follow",
            ),
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
            # Log filters (log_tools.py): by skill, newest first; by date range.
            models.Index(fields=["campaign", "label", "-id"], name="roll_entry_campaign_label"),
            models.Index(fields=["campaign", "created_at"], name="roll_entry_campaign_time"),
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
        return reverse("roll_entry", args=[self.pk])

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("deleted")

    # --- visibility --------------------------------------------------------------------------
    redacted = False  # a HiddenEntry says True
    SUCCESS_OUTCOMES = frozenset({"critical_success", "success", "costly_success"})

    @property
    def succeeded(self) -> bool:
        """Did this entry end in a success of any band? ("choice" is not yet decided.)"""
        return self.outcome in self.SUCCESS_OUTCOMES

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
        if self.visibility == Visibility.PUBLIC and not self.hidden_character:
            return False
        return not self.is_revealed

    def is_readable_by(self, membership: Membership | None) -> bool:
        """May this member see the dice, outcome, odds and pool? (The same rule as
        ``RollEntryQuerySet.readable_by``; rows from ``visible_to`` carry the answer.)"""
        if membership is None or membership.campaign_id != self.campaign_id:
            return False
        if getattr(self, "readable_for", None) == membership.pk:
            return bool(self.readable)
        if membership.is_gm:
            return True
        if self.visibility == Visibility.PUBLIC and not self.hidden_character:
            return True
        if self.visibility == Visibility.GM_ONLY and self.roller_id == membership.user_id:
            return True
        # Last, because it is the one check that costs a query.
        return self.is_revealed

    def is_known_to(self, membership: Membership | None) -> bool:
        """May this member know the entry exists (full card or placeholder)? The roller of a
        blind roll knows of the roll itself, never of its follow-ups (``visible_to``)."""
        if self.is_readable_by(membership):
            return True
        return (
            membership is not None
            and membership.campaign_id == self.campaign_id
            and self.visibility == Visibility.BLIND
            and self.roller_id == membership.user_id
            and self.root_id is None
        )

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
        return content

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
        if self.kind != Kind.CONTEST:
            return []
        return [
            side
            | {"dice": dice_of(side["faces"]), "url": reverse("roll_entry", args=[side["entry"]])}
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
        }
        return [
            f"{'+' if change > 0 else '−'}{abs(change)} {names.get(key, key)}"
            for key, change in sorted(self.resource_changes.items())
            if change
        ]

    @property
    def is_follow_up(self) -> bool:
        return self.follows_id is not None


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

    def get_absolute_url(self) -> str:
        return reverse("roll_entry", args=[self.pk])

    @property
    def visibility_name(self) -> str:
        return VISIBILITY_NAMES[self.visibility]


def dice_of(faces: list[dict[str, Any]]) -> list[Die]:
    """Stored faces, ready for display: each die with a sentence for screen readers."""
    dice = []
    for die in faces:
        name = DIE_NAMES.get(die["kind"], die["kind"])
        words = READING_WORDS.get(die["reading"], die["reading"].replace("_", " "))
        shown = f"{die['face']}"
        if "value" in die and die["value"] != die["face"]:
            shown += f" (modified {die['value']})"
        dice.append(Die(die["face"], die["kind"], die["reading"], f"{name}: {shown}, {words}"))
    return dice


def canonical_json(content: dict[str, Any]) -> bytes:
    """Keys sorted, no whitespace, UTF-8 (not \\u-escaped). No floats ever enter the content."""
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


# ---------------------------------------------------------------------------------------------
# The GM table: calls for a roll and contests (docs/gm-table.md)
# ---------------------------------------------------------------------------------------------


class AssistQuerySet(models.QuerySet):
    def waiting(self) -> AssistQuerySet:
        return self.filter(used_by__isnull=True, dropped_at__isnull=True)

    def waiting_for(self, character: Character) -> AssistQuerySet:
        """The assist the character's next action takes (cogent.ASSISTS_PER_ROLL: one at most)."""
        return self.waiting().filter(assisted=character).select_related("entry")


class Assist(models.Model):
    """A rolled Cogent assist waiting for the assisted character's next action.

    The assist itself is a log entry (kind "assist", append-only); this row only says whom it is
    for and whether it was used or dropped — state that changes, so it lives outside the chain.
    The main roll names the assist it took in its own ``options`` (by entry token and hash)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assists")
    entry = models.OneToOneField(RollEntry, on_delete=models.PROTECT, related_name="assist_for")
    assisted = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="assists")
    wins = models.SmallIntegerField(help_text="Signed: added to the main roll's wins.")
    used_by = models.OneToOneField(
        RollEntry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="assist_used",
    )
    dropped_at = models.DateTimeField(null=True, blank=True)

    objects = AssistQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.entry.character_name}'s assist for {self.assisted}"

    @property
    def by_name(self) -> str:
        return self.entry.character_name

    @property
    def wins_text(self) -> str:
        return f"{self.wins:+d} win{'' if abs(self.wins) == 1 else 's'}"


class AssistRequestQuerySet(models.QuerySet):
    def open(self) -> AssistRequestQuerySet:
        return self.filter(closed_at__isnull=True)

    def prompts_for(self, character: Character) -> AssistRequestQuerySet:
        """Open requests another character of the campaign may answer with an assist."""
        return (
            self.open()
            .filter(campaign_id=character.campaign_id)
            .exclude(character=character)
            .select_related("character")
        )

    def close_for(self, character: Character) -> int:
        return self.open().filter(character=character).update(closed_at=timezone.now())


class AssistRequest(models.Model):
    """ "Ask for an assist": a character's player asks the table to assist its next action. Shown
    as a prompt on the other characters' sheets; closed by an assist rolled for it, the asking
    character's next roll, or its player (or the GM) withdrawing it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assist_requests")
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="assist_requests"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = AssistRequestQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.character} asks for an assist"


class RollCallQuerySet(models.QuerySet):
    def open(self) -> RollCallQuerySet:
        return self.filter(closed_at__isnull=True)

    def prompts_for(self, character: Character) -> RollCallQuerySet:
        """Open calls that target ``character`` and that it has not rolled for yet."""
        return (
            self.open()
            .filter(targets__character=character)
            .exclude(entries__character=character)
            .order_by("pk")
        )


class RollCall(models.Model):
    """The GM asks some characters for a roll: a skill and a difficulty, per the campaign's system."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roll_calls")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    skill = models.CharField(max_length=200, help_text="The skill's name on the sheets.")
    difficulty = models.PositiveSmallIntegerField(
        help_text="Cogent Challenge Level, DAD6 difficulty in boons or Cold Stars Risk."
    )
    ability = models.CharField(
        max_length=16, blank=True, help_text="Cold Stars: the Ability the GM asks for."
    )
    note = models.CharField(max_length=200, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = RollCallQuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"Call for {self.skill} ({self.difficulty_label})"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @property
    def difficulty_label(self) -> str:
        system = self.campaign.system
        if system == System.COGENT:
            return f"CL {self.difficulty}"
        if system == System.DAD6:
            return f"Difficulty {self.difficulty}"
        label = f"Risk {self.difficulty}"
        if self.ability:
            label += f", {self.ability.capitalize()}"
        return label

    def preset(self) -> tuple[dict[str, Any], set[str]]:
        """The roll panel's prefilled values and which of them the player cannot change."""
        system = self.campaign.system
        if system == System.COGENT:
            return {"challenge_level": self.difficulty}, {"challenge_level"}
        if system == System.DAD6:
            return {"difficulty": self.difficulty}, {"difficulty"}
        # The GM's Ability, when the call names one, is as fixed as the Risk.
        values: dict[str, Any] = {"risk": self.difficulty}
        if self.ability:
            values["ability"] = self.ability
        return values, set(values)

    def targets_character(self, character: Character) -> bool:
        return self.targets.filter(character=character).exists()

    def close(self) -> None:
        if self.closed_at is None:
            self.closed_at = timezone.now()
            self.save(update_fields=["closed_at"])


class RollCallTarget(models.Model):
    call = models.ForeignKey(RollCall, on_delete=models.CASCADE, related_name="targets")
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="roll_call_targets"
    )

    class Meta:
        ordering = ["call", "character__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["call", "character"], name="roll_call_target_unique")
        ]

    def __str__(self) -> str:
        return f"{self.character} in {self.call}"


class ContestKind(models.TextChoices):
    COGENT_CONFLICT = "cogent_conflict", "Conflict: both roll, more wins wins"
    COLD_STARS_ACTIVE = "cold_stars_active", "Active vs active: both roll at Risk 0"
    COLD_STARS_PASSIVE = "cold_stars_passive", "Active vs passive: the passive side sets the Risk"
    DAD6_OPPOSED = "dad6_opposed", "Opposed: opposition adds difficulty"


CONTEST_KINDS: dict[str, tuple[str, ...]] = {
    System.COGENT: (ContestKind.COGENT_CONFLICT,),
    System.COLD_STARS: (ContestKind.COLD_STARS_ACTIVE, ContestKind.COLD_STARS_PASSIVE),
    System.DAD6: (ContestKind.DAD6_OPPOSED,),
}
# Contests where both sides roll; in the others only side A (the acting side) rolls.
BOTH_ROLL = (ContestKind.COGENT_CONFLICT, ContestKind.COLD_STARS_ACTIVE)


class ContestState(models.TextChoices):
    OPEN = "open", "Waiting for rolls"
    CHOOSING = "choosing", "Even: the initiator chooses"
    DECIDED = "decided", "Decided"
    CANCELLED = "cancelled", "Called off"


class ContestQuerySet(models.QuerySet):
    def active(self) -> ContestQuerySet:
        return self.filter(state__in=[ContestState.OPEN, ContestState.CHOOSING])

    def prompts_for(self, character: Character) -> ContestQuerySet:
        return (
            self.active()
            .filter(Q(character_a=character) | Q(character_b=character))
            .select_related("campaign", "character_a", "character_b")
            .order_by("pk")
        )


class Contest(models.Model):
    """Two characters of a campaign opposed on one roll each (or one roll against the other's
    rating). Side A is the initiator (the acting side when only one side rolls). The rolls are
    entries linked by ``RollEntry.contest``; the verdict is one more entry of kind ``contest``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="contests")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=32, choices=ContestKind.choices)
    # The links are nulled when a character is deleted; the names stay.
    character_a = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character_b = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    name_a = models.CharField(max_length=200)
    name_b = models.CharField(max_length=200)
    skill_a = models.CharField(max_length=200)
    skill_b = models.CharField(max_length=200, blank=True)
    ability_a = models.CharField(max_length=16, blank=True)
    ability_b = models.CharField(max_length=16, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        default=1, help_text="DAD6: the difficulty before opposition."
    )
    opposition = models.PositiveSmallIntegerField(
        default=0, help_text="DAD6: opposing factors, +1 boon each."
    )
    # Cold Stars: the GM's word that a side acts outside every declared domain of its skill (a
    # domain skill at rank 3+ then counts as at most 2: cold_stars.counted_skill).
    outside_domain_a = models.BooleanField(
        default=False, help_text="Cold Stars: side A acts outside every domain of its skill."
    )
    outside_domain_b = models.BooleanField(
        default=False, help_text="Cold Stars: side B acts outside every domain of its skill."
    )
    round = models.PositiveSmallIntegerField(default=1)
    settled_a = models.BooleanField(default=False, help_text="Side A is done with its roll.")
    settled_b = models.BooleanField(default=False, help_text="Side B is done with its roll.")
    state = models.CharField(max_length=16, choices=ContestState.choices, default=ContestState.OPEN)
    winner = models.CharField(max_length=1, blank=True, help_text="a, b, or empty.")
    verdict = models.CharField(max_length=300, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    objects = ContestQuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=ContestKind.values), name="contest_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(state__in=ContestState.values), name="contest_state_valid"
            ),
            models.CheckConstraint(condition=Q(winner__in=["", "a", "b"]), name="contest_winner"),
        ]

    def __str__(self) -> str:
        return f"{self.name_a} vs {self.name_b}"

    @property
    def is_active(self) -> bool:
        return self.state in (ContestState.OPEN, ContestState.CHOOSING)

    @property
    def both_roll(self) -> bool:
        return self.kind in BOTH_ROLL

    def character(self, side: str) -> Character | None:
        return self.character_a if side == "a" else self.character_b

    def skill(self, side: str) -> str:
        return self.skill_a if side == "a" else self.skill_b

    def ability(self, side: str) -> str:
        return self.ability_a if side == "a" else self.ability_b

    def outside_domain(self, side: str) -> bool:
        return self.outside_domain_a if side == "a" else self.outside_domain_b

    def side_of(self, character: Character) -> str | None:
        if self.character_a_id == character.pk:
            return "a"
        if self.character_b_id == character.pk:
            return "b"
        return None
