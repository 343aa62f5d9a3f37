"""Exports for the verifier's tests, built the way the server will build them: each roll drawn
by VrfDice under a test key (alpha version 2, the roller's counter; version 1 with ``legacy``),
each record in the GM export's shape (every hashed field, version 6), hashed, chained, signed."""

from __future__ import annotations

import copy
import hashlib
from datetime import UTC, datetime
from typing import Any

from proofs.dice import VrfDice
from proofs.holding import entry_content
from proofs.keys import ServerKey
from proofs.protocol import (
    SUITE,
    alpha_bytes,
    canonical,
    entry_message,
    faces_from_beta,
    head_message,
    position,
    roller_secret,
)

CAMPAIGN = 7
ROLLER = 3  # the user whose rolls these are (alpha version 2's counter)
SECRET = "5e" * 32
ZERO = "0" * 64
TEST_KEY = ServerKey.from_seed(hashlib.sha256(b"poolside test key").digest())
OTHER_KEY = ServerKey.from_seed(hashlib.sha256(b"another test key").digest())
COGENT = (("d6", 4, 6),)
COLD_STARS = (("ability", 2, 10), ("skill", 1, 10), ("risk", 0, 10))
# (label, dice pool or None for an entry whose dice are not from the VRF)
ROLLS: list[tuple[str, tuple[tuple[str, int, int], ...] | None]] = [
    ("Athletics", COGENT),
    ("Pilot the skiff", COLD_STARS),
    ("A note from the GM", None),
    ("Perception", COGENT),
]


def published(key: ServerKey = TEST_KEY) -> dict[str, Any]:
    return key.published(datetime(2026, 1, 1, tzinfo=UTC), None)


def _pool(groups: Any) -> dict[str, int]:
    """The entry's pool as the app writes it: Cogent's dice, or Cold Stars' three groups."""
    if groups is None:
        return {}
    if groups[0][0] == "d6":
        return {"dice": groups[0][1]}
    return {kind: count for kind, count, _ in groups}


def legacy_proof(seq: int, prev: str, label: str, groups: Any, key: ServerKey) -> Any:
    """A version 1 proof (the chain position in alpha), as entries before counters have."""
    pool = [list(group) for group in groups]
    alpha = {
        "v": 1,
        "campaign": CAMPAIGN,
        "position": position(CAMPAIGN, seq, prev, SECRET),
        "target": label,
        "pool": pool,
        "nonce": f"nonce-{seq:04d}",
    }
    pi, beta = key.prove(alpha_bytes(alpha))
    proof = {"v": 1, "suite": SUITE, "key": key.id, "alpha": alpha, "pi": pi.hex()}
    return proof, faces_from_beta(beta, pool)


def _hashed_fields(seq: int, prev: str, label: str, groups: Any) -> dict[str, Any]:
    """Every field of the entry's hashed form a GM's export carries (docs/log-tools.md)."""
    return {
        "seq": seq, "prev_hash": prev, "label": label, "time": "2026-01-01T00:00:00.000000+00:00",
        "system": "cogent", "kind": "roll" if groups else "message", "visibility": "public",
        "character": "Rob", "player": "alice", "options": {}, "pool": _pool(groups),
        "breakdown": "", "outcome": "", "outcome_label": "", "detail": "", "result": {},
        "odds": "1", "odds_table": {}, "resources": {}, "follows_seq": None, "reveals_seq": None,
        "root_seq": None, "call": None, "contest": None, "salt": f"{seq:02x}" * 16,
        "character_id": 1, "user_id": ROLLER, "roller_id": ROLLER, "hidden_character": False,
        "hash_version": 6, "odds_display": "", "commitments": {},
    }  # fmt: skip


def _entry(
    seq: int, prev: str, label: str, groups: Any, key: ServerKey, n: int = 0, legacy: bool = False
) -> dict[str, Any]:
    record = _hashed_fields(seq, prev, label, groups)
    if groups is None:
        record.update(faces=[], proof={})
    elif legacy:
        proof, faces = legacy_proof(seq, prev, label, groups, key)
        record["faces"] = [
            {"kind": kind, "face": face}
            for (kind, _, _), group in zip(groups, faces, strict=True)
            for face in group
        ]
        record["proof"] = proof
    else:
        dice = VrfDice(
            key, CAMPAIGN, label, f"nonce-{seq:04d}", lambda: (seq, prev, SECRET, n), ROLLER
        )
        faces = dice.draw(groups)
        record["faces"] = [
            {"kind": kind, "face": face}
            for (kind, _, _), group in zip(groups, faces, strict=True)
            for face in group
        ]
        record["proof"] = dice.record()
    rehash(record)
    record["signature"] = key.sign(entry_message(CAMPAIGN, seq, record["hash"]))
    record["signed_by"] = key.id
    return record


def rehash(record: dict[str, Any]) -> None:
    """Give ``record`` the hash of its fields, as the server computes it."""
    record["hash"] = hashlib.sha256(canonical(entry_content(CAMPAIGN, record))).hexdigest()


def gm_export(
    key: ServerKey = TEST_KEY, skip: int | None = None, legacy: bool = False
) -> dict[str, Any]:
    """A GM's export: every entry with its place in the chain, the head, the position secret.
    ``skip``: a number of the roller's the server drew dice for and never logged (a grinding
    server); ``legacy``: version 1 proofs (the chain position), as before counters."""
    entries, prev, n = [], ZERO, 0
    for seq, (label, groups) in enumerate(ROLLS, start=1):
        if groups is not None:
            n += 1 + (n + 1 == skip)
        entries.append(_entry(seq, prev, label, groups, key, n, legacy))
        prev = entries[-1]["hash"]
    head = {"length": len(entries), "hash": prev, "key": key.id}
    head["signature"] = key.sign(head_message(CAMPAIGN, len(entries), prev))
    return {
        "campaign": {"id": CAMPAIGN, "name": "The Drowned Coast", "system": "cogent"},
        "keys": [published(key)],
        "chain_head": head,
        "position_secret": SECRET,
        "entries": entries,
    }


def player_export(key: ServerKey = TEST_KEY, skip: int | None = None) -> dict[str, Any]:
    """A player's export: no chain, no positions, and a hidden entry as a placeholder (another
    player's: alice's own count has no room for it), and alice's counter secret."""
    export = gm_export(key, skip)
    del export["chain_head"], export["position_secret"]
    for record in export["entries"]:
        for name in ("seq", "prev_hash", "signature", "signed_by"):
            del record[name]
    export["entries"].insert(1, {"placeholder": True, "player": "bob"})
    export |= {"exported_by": "alice", "counter": {"roller": ROLLER, "secret": ALICE_SECRET}}
    return export


ALICE_SECRET = roller_secret(SECRET, CAMPAIGN, ROLLER)


def clone(export: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(export)
