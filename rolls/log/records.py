"""An entry as a record: what the JSON export writes per entry, and what the API and the webhooks
send (docs/log-tools.md, docs/api.md). One shape everywhere, so a script written against the
export reads the API too.

A record is built from ``.values(*EXPORT_VALUES)`` (plus ``readable``): no model instances, so a
page of the log costs one query and no per-row object.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC
from typing import Any, TypedDict

from log.models import RollEntry, RollEntryQuerySet
from log.models.texts import TEXT_VALUES, shown, with_texts
from log.tokens import entry_token, entry_url

EXPORT_VALUES = (
    "pk",
    "seq",
    "created_at",
    "character_name",
    "username",
    "system",
    "kind",
    "visibility",
    "label",
    "options",
    "pool",
    "breakdown",
    "faces",
    "outcome",
    "outcome_label",
    "detail",
    "result",
    "odds",
    "odds_table",
    "resource_changes",
    "follows__hash",
    "follows__seq",
    "reveals__seq",
    "root__seq",
    "call_id",
    "contest_id",
    "character_ref",
    "user_ref",
    "roller_ref",
    "hidden_character",
    "salt",
    "hash_version",
    "odds_display",
    "hash",
    "prev_hash",
    "proof",
    "signature",
    "signed_by",
    "commitments",
    *TEXT_VALUES,
    "readable",
)


class Record(TypedDict, total=False):
    """One entry as the export, the API and the webhooks write it (docs/log-tools.md). Every
    record has the first keys; a readable one the dice and the text; a GM's (``full``) the chain's
    own numbers too. The JSON columns (options, pool, faces, result, odds table, resources, proof)
    are ``object``: their shapes are the rule systems' (rules), and the export hands them on
    as their stored text (rolls/log/exports.py)."""

    id: str  # the API's and the webhooks' only
    url: str
    seq: int
    time: str
    character: str
    player: str
    system: str
    kind: str
    visibility: str
    label: str
    placeholder: bool
    options: object
    pool: object
    breakdown: str
    faces: object
    outcome: str
    outcome_label: str
    detail: str
    result: object
    odds: str
    odds_table: object
    resources: object
    follows: str | None
    hash: str
    proof: object
    prev_hash: str
    salt: str
    follows_seq: int | None
    reveals_seq: int | None
    root_seq: int | None
    call: int | None
    contest: int | None
    character_id: int | None
    user_id: int | None
    roller_id: int | None
    hidden_character: bool
    hash_version: int | None
    odds_display: str
    signature: str
    signed_by: str


def record(row: dict[str, Any], readable: bool, *, full: bool) -> Record:
    base: Record = {"seq": row["seq"]} if full else {}
    base |= {
        "time": row["created_at"].astimezone(UTC).isoformat(timespec="microseconds"),
        "character": row["character_name"],
        "player": row["username"],
        "system": row["system"],
        # A placeholder's kind is always "roll": the real one (an automatic pass, a skip) would
        # tell how the hidden roll went.
        "kind": row["kind"] if readable else "roll",
        "visibility": row["visibility"],
        "label": row["label"],
        "placeholder": not readable,
    }
    if not readable:
        return base
    record = (
        base
        | {
            "options": row["options"],
            "pool": row["pool"],
            "breakdown": row["breakdown"],
            "faces": row["faces"],
            "outcome": row["outcome"],
            "outcome_label": row["outcome_label"],
            "detail": row["detail"],
            "result": row["result"] if full else _numberless(row["result"]),
            "odds": row["odds"],
            "odds_table": row["odds_table"],
            "resources": row["resource_changes"],
            # The followed entry's hash: an id that numbers nothing (it is readable whenever this is).
            "follows": row["follows__hash"],
            "hash": row["hash"],
            # The dice's proof goes wherever the dice go, and nowhere else: it reveals them
            # (docs/verifiable-dice.md). Its "position" is a commitment that numbers nothing.
            "proof": row["proof"],
        }
        | _committed(row)
    )
    return record | _chain(row) if full else record


def _chain(row: dict[str, Any]) -> dict[str, object]:
    """The rest of the hashed form, for the GM's records: with them, the chain verifies."""
    return {
        "prev_hash": row["prev_hash"],
        "salt": row["salt"],
        "follows_seq": row["follows__seq"],
        "reveals_seq": row["reveals__seq"],
        "root_seq": row["root__seq"],
        "call": row["call_id"],
        "contest": row["contest_id"],
        "character_id": row["character_ref"],
        "user_id": row["user_ref"],
        "roller_id": row["roller_ref"],
        "hidden_character": row["hidden_character"],
        # Version 4 on (null before): the form the hash follows, and the odds it covers.
        "hash_version": row["hash_version"],
        "odds_display": row["odds_display"],
        # The server's signature of the log's head right after this entry: it names the
        # entry's seq, which only the GM's export carries.
        "signature": row["signature"],
        "signed_by": row["signed_by"],
        # Version 6 on (null before; {} where nothing was typed): hashed in place of texts.
        "commitments": row["commitments"],
    }


def _committed(row: Mapping[str, object]) -> dict[str, object]:
    """Hash version 6: a committed text is shown under its field's name beside its commitment
    and salt, which is all a reader needs to check it (``text_problems`` in the verifier); null
    once removed. Older entries' records keep their shape, field for field."""
    commitments = row.get("commitments")
    if not commitments:
        return {}
    text, salt = shown(row)
    if text is None or not salt:
        return {"detail": None, "commitments": commitments}
    return {"detail": text, "commitments": commitments, "salts": {"detail": salt}}


def _numberless(result: object) -> object:
    """A contest verdict's result names its rolls by ``seq`` and database id; a player gets the
    sides without them (a chain number counts the rolls before it, hidden ones included)."""
    # Not a dict: the export's stored JSON text (orjson.Fragment), which it gives only where the
    # text has no "sides" (rolls/log/exports.py).
    if not isinstance(result, dict) or "sides" not in result:
        return result
    sides = [
        {key: value for key, value in side.items() if key not in ("seq", "entry")}
        for side in result["sides"]
    ]
    return result | {"sides": sides}


def api_record(row: dict[str, Any], *, full: bool, base_url: str) -> Record:
    """The export record with the entry's opaque id (never its pk: log/tokens.py) and its
    permalink, absolute under ``base_url`` (``https://host``, no trailing slash)."""
    token = entry_token(row["pk"])
    out: Record = {"id": token, "url": base_url + entry_url(row["pk"])}
    out.update(record(row, bool(row["readable"]), full=full))
    return out


def api_records(entries: RollEntryQuerySet, *, full: bool, base_url: str) -> list[Record]:
    """``entries`` (already visible-filtered, ordered and sliced) as API records, in one query."""
    rows = with_texts(entries).values(*EXPORT_VALUES)
    return [api_record(row, full=full, base_url=base_url) for row in rows]


def public_record(entry_pk: int, *, base_url: str) -> Record:
    """An entry as every member reads it — for the webhooks, which only ever send entries every
    member may read (public rolls and reveals: docs/webhooks.md). The caller checks that."""
    fields = [name for name in EXPORT_VALUES if name != "readable"]
    row = with_texts(RollEntry.objects.filter(pk=entry_pk)).values(*fields).get()
    return api_record(row | {"readable": True}, full=False, base_url=base_url)
