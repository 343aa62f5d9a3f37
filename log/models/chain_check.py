"""Checking a campaign's chain (``manage.py verify_log``): the hashes and links, the recorded
head, and what the server's key vouches for — each entry's signature, each dice proof, the head's
signature (docs/roll-log.md, docs/verifiable-dice.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from django.db import models
from django.db.models import Case, Exists, F, OuterRef, Q, Value, When

from log.models.head import GENESIS_HASH, LogHead
from log.models.keys import keys_by_id, signature_valid
from log.models.kinds import Visibility
from log.models.messages import EntryRecipient
from log.models.texts import EntryText
from proofs.protocol import (
    Counters,
    ProofError,
    check_proof,
    entry_message,
    head_message,
    position,
    text_commitment,
)
from proofs.witness import Witness, commitment

if TYPE_CHECKING:
    from log.models.entry import RollEntry

from log.models.recorded import RECORDED_LINKS


def verify_chain(
    entries: models.QuerySet[RollEntry], campaign_id: int, witnesses: Sequence[Witness] = ()
) -> ChainReport:
    """Recompute one campaign's chain in ``seq`` order and report the first broken entry:
    a gap in ``seq``, a ``prev_hash`` that isn't the previous ``hash``, a ``hash`` that
    doesn't match the entry's canonical content, or a link that isn't the one it recorded
    (docs/roll-log.md). Then the chain's end must be the head recorded on ``LogHead`` — so
    deleting the newest entries is caught too, although what is left chains perfectly — and
    each witness token of the campaign must name a head the chain passed through, signed."""
    rows = (
        entries.filter(campaign_id=campaign_id)
        .annotate(
            follows_seq=F("follows__seq"),
            reveals_seq=F("reveals__seq"),
            root_seq=F("root__seq"),
            **_recorded_rows_alive(entries.model),
        )
        .order_by("seq")
    )
    head = LogHead.objects.filter(campaign_id=campaign_id).first() or LogHead()
    check = _Signatures(campaign_id, head.position_secret)
    previous, count = GENESIS_HASH, 0
    witnessed = _Witnessed(campaign_id, witnesses)
    witnessed.see(0, GENESIS_HASH)
    whispers: dict[int, RollEntry] = {}
    committed: dict[int, RollEntry] = {}
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
        if cut := entry.cut_link():
            return ChainReport(
                count - 1, entry, f"its {cut} link was removed, but the row it recorded exists"
            )
        if problem := check.entry(entry):
            return ChainReport(count - 1, entry, problem)
        if entry.visibility == Visibility.WHISPER:
            whispers[entry.pk] = entry
        if entry.commitments:
            committed[entry.pk] = entry
        witnessed.see(count, entry.hash)
        previous = entry.hash
    if moved_whisper := _recipients_moved(campaign_id, whispers):
        return ChainReport(count, moved_whisper, "its recipients are not those it recorded")
    if changed := _text_changed(campaign_id, committed):
        return ChainReport(count, changed, "its text does not match the commitment it recorded")
    report = _head_report(head, count, previous, check)
    if not report.intact:
        return report
    if problem := witnessed.problem(check):
        return ChainReport(count, None, problem, legacy=check.legacy, witness=True)
    return replace(report, witnessed=witnessed.positions())


def _recorded_rows_alive(model: type[models.Model]) -> dict[str, Any]:
    """``<link>_alive`` for verify_chain: whether the row a NULL link of ``model`` (the entry)
    recorded still exists. A deletion nulls the link and removes the row; a link nulled with its
    row still there was cut by hand (a roller losing their own GM-only roll). Looked up only for
    NULL links."""
    alive = {}
    for link in RECORDED_LINKS:
        related = cast(type[models.Model], model._meta.get_field(link).related_model)
        target = related._default_manager
        alive[f"{link}_alive"] = Case(
            When(
                Q(**{f"{link}__isnull": True, f"{link}_ref__isnull": False}),
                then=Exists(target.filter(pk=OuterRef(f"{link}_ref"))),
            ),
            default=Value(False),
        )
    return alive


def _recipients_moved(campaign_id: int, whispers: dict[int, RollEntry]) -> RollEntry | None:
    """The first whisper whose recipients' rows (what the visibility rule reads) differ from the
    ids hashed into it (``options["to"]``), or None. One query over the campaign's rows: a row
    added, removed or moved by hand, or a row for an entry that is no whisper, is reported."""
    found: dict[int, set[int]] = {}
    rows = EntryRecipient.objects.filter(entry__campaign_id=campaign_id)
    for entry_id, user_ref in rows.values_list("entry_id", "user_ref"):
        found.setdefault(entry_id, set()).add(user_ref)
    for pk in sorted(whispers.keys() | found.keys()):
        entry = whispers.get(pk)
        if entry is None:  # a row naming an entry that is no whisper
            return EntryRecipient.objects.select_related("entry").filter(entry_id=pk)[0].entry
        if found.get(pk, set()) != set(entry.recipient_ids):
            return entry
    return None


def _text_changed(campaign_id: int, committed: dict[int, RollEntry]) -> RollEntry | None:
    """The first entry whose kept text (log/models/texts.py) does not open the commitment it
    hashed, or None. One query over the campaign's texts. A text removed (no row, or emptied to
    no salt) is no break: the hash binds the commitment, never the text."""
    rows = EntryText.objects.filter(entry__campaign_id=campaign_id).exclude(salt="")
    for entry_id, field, text, salt in rows.order_by("entry_id").values_list(
        "entry_id", "field", "text", "salt"
    ):
        entry = committed.get(entry_id)
        if entry is None:  # a text for an entry that committed none
            return EntryText.objects.select_related("entry").filter(entry_id=entry_id)[0].entry
        try:
            opens = text_commitment(salt, text) == (entry.commitments or {}).get(field)
        except ValueError:  # a salt that isn't hex
            opens = False
        if not opens:
            return entry
    return None


class _Signatures:
    """verify_chain's checks of what the server's key vouches for: each entry's signature (from
    the first signed entry on, every entry must have one: an append without the key has none),
    each dice proof, and the head's signature (docs/verifiable-dice.md)."""

    def __init__(self, campaign_id: int, secret: str) -> None:
        self.campaign_id, self.secret = campaign_id, secret
        self.counters = Counters(campaign_id, secret)
        self.keys = keys_by_id()
        self.signed = 0  # entries with a signature so far
        self.legacy = 0  # entries written before entries were signed

    def valid(self, key_id: str, message: bytes, signature: str) -> bool:
        key = self.keys.get(key_id)
        return key is not None and signature_valid(key["signing_key"], message, signature)

    def entry(self, entry: RollEntry) -> str:
        if not entry.signature:
            if self.signed or (entry.hash_version is not None and entry.hash_version >= 5):
                return "it is not signed: it was written without the server's key"
            self.legacy += 1
            return ""
        self.signed += 1
        message = entry_message(self.campaign_id, entry.seq, entry.hash)
        if not self.valid(entry.signed_by, message, entry.signature):
            return "its signature does not verify under the published key it names"
        if not entry.proof:
            return ""
        alpha = entry.proof.get("alpha") or {}
        if alpha.get("campaign") != self.campaign_id:
            return "its dice proof was made for another campaign"
        if alpha.get("v") == 2:
            # No place in the log is proven: the roller's number is, which must be their next.
            if gap := self.counters.problem({"user_id": entry.user_ref, "proof": entry.proof}):
                return gap
        elif alpha.get("position") != position(
            self.campaign_id, entry.seq, entry.prev_hash, self.secret
        ):
            return "its dice proof was made for another place in the log"
        record = {"label": entry.label, "faces": entry.faces, "proof": entry.proof}
        try:
            check_proof(record, self.keys)
        except ProofError as error:
            return f"its dice proof fails: {error}"
        return ""


class _Witnessed:
    """The witness tokens given to verify_log (docs/verifiable-dice.md#an-outside-witness): the
    chain's walk shows it every head it passes through (``see``: length k and the hash of entry
    k, 0 for the empty log), and it keeps the heads whose commitment a token holds. A token
    whose head the walk never passed names a head that was cut or rewritten away."""

    def __init__(self, campaign_id: int, witnesses: Sequence[Witness]) -> None:
        self.campaign_id = campaign_id
        self.wanted = {w.commitment: w for w in witnesses if w.campaign == campaign_id}
        # One SHA-256 per entry for each salt (a version 2 token's own; None: version 1's none).
        self.salts = {w.salt for w in self.wanted.values()}
        self.found: dict[str, tuple[int, str]] = {}  # commitment -> (length, hash)

    def see(self, length: int, hash: str) -> None:
        for salt in self.salts:  # nothing when no token was given
            found = commitment(self.campaign_id, length, hash, salt)
            if found in self.wanted:
                self.found.setdefault(found, (length, hash))

    def problem(self, check: _Signatures) -> str:
        """The first token not in the log, or not signed by a published key; "" when none."""
        for digest, witness in self.wanted.items():
            if digest not in self.found:
                return (
                    f"the witnessed head {digest[:12]}… is not in the log: it was cut or "
                    "rewritten below it"
                )
            length, hash = self.found[digest]
            message = witness.signed_message(length, hash)
            if not check.valid(witness.key, message, witness.signature):
                return (
                    f"the witness token of head #{length} is not signed by the published key "
                    f"it names ({witness.key}): it is not a token the server made"
                )
        return ""

    def positions(self) -> tuple[int, ...]:
        return tuple(self.found[digest][0] for digest in self.wanted)


def _head_report(head: LogHead, count: int, previous: str, check: _Signatures) -> ChainReport:
    """The chain's end against the head it recorded, and the head's signature."""
    if head.length > count:
        missing = head.length - count
        return ChainReport(
            count,
            None,
            f"the head records #{head.length}: the newest {missing} "
            f"entr{'y is' if missing == 1 else 'ies are'} missing",
        )
    if (head.length, head.hash) != (count, previous):
        return ChainReport(
            count, None, f"the chain ends at #{count}, but the head records #{head.length}"
        )
    message = head_message(check.campaign_id, head.length, head.hash)
    if not head.signature or not check.valid(head.signed_by, message, head.signature):
        return ChainReport(
            count,
            None,
            "the head is not signed by the server's key: the log was emptied, cut or appended "
            "to by hand",
        )
    return ChainReport(count, None, "", legacy=check.legacy)


@dataclass(frozen=True)
class ChainReport:
    verified: int  # entries checked and found intact before the break (all of them when intact)
    broken: RollEntry | None  # the first broken entry (None when intact or the head is off)
    reason: str
    legacy: int = 0  # entries from before entries were signed (intact, but not signed)
    witness: bool = False  # broken by a witness token: its head not in the log, or not signed
    witnessed: tuple[int, ...] = ()  # the heads (lengths) the witness tokens given were found at

    @property
    def intact(self) -> bool:
        return not self.reason
