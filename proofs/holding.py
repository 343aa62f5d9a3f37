"""What a player holds the server to beyond one proof (docs/verifiable-dice.md, "What a player can
check, and how"): the pool the entry names, the nonce they sent, the keys they saved and — on a
GM's export — each entry's hash rebuilt from its own fields.

Part of the standalone verifier: the served ``poolside_verify.py`` is ``protocol.py`` with this
module written in where it imports it (``proofs/bundle.py``), so this file, like that one, needs
the standard library and PyNaCl only, and imports nothing of the project. The primitives both
need (canonical JSON, a signature check, a key's id) live here so that neither imports the other.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

from nacl.exceptions import CryptoError
from nacl.signing import VerifyKey


class ProofError(Exception):
    """A check failed; the message says which and why."""


def canonical(obj: object) -> bytes:
    """The spec's canonical JSON: sorted keys, no spaces, UTF-8."""
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def check_signature(signing_key: str, message: bytes, signature: str) -> None:
    """Verify an Ed25519 signature (both hex); raise ProofError if it does not verify."""
    try:
        VerifyKey(bytes.fromhex(signing_key)).verify(message, bytes.fromhex(signature))
    except (CryptoError, TypeError, ValueError) as exc:
        raise ProofError("signature does not verify") from exc


def key_id(signing_key: str, vrf_key: str) -> str:
    """A key's id: the first 16 hex digits of SHA-256(signing key bytes || VRF key bytes)."""
    return hashlib.sha256(bytes.fromhex(signing_key) + bytes.fromhex(vrf_key)).hexdigest()[:16]


# --- the proved pool is the entry's pool ------------------------------------------------------

COLD_STARS_GROUPS = ("ability", "skill", "risk")


def pool_problem(record: Mapping[str, object], proved: Sequence[Sequence[object]]) -> str | None:
    """Whether the proof's pool (``[[kind, count, sides], …]``) is the pool the entry shows: the
    dice rolled for Cogent and DAD6 (``pool.rolled`` where boons were traded, else
    ``pool.dice``), Ability, Skill and Risk for Cold Stars. Every entry with a proof draws its
    whole pool (a roll, an assist, a contest's side, a Cold Stars Correct); a pool of neither
    shape (a contest's verdict: none) is left to the faces. None when it is the entry's."""
    pool = record.get("pool")
    if not isinstance(pool, Mapping):
        return None
    if all(name in pool for name in COLD_STARS_GROUPS):
        wanted = [[name, pool[name], 10] for name in COLD_STARS_GROUPS]
        if canonical(proved) != canonical(wanted):
            counts = ", ".join(f"{count} {kind}" for kind, count, _ in proved)
            shown = ", ".join(f"{pool[name]} {name}" for name in COLD_STARS_GROUPS)
            return f"the proof rolls {counts}, but the entry's pool is {shown}"
        return None
    dice = pool.get("rolled", pool.get("dice"))
    if dice is None:
        return None
    count = sum(group[1] for group in proved if isinstance(group[1], int))
    if count != dice:
        return f"the proof rolls {count} dice, but the entry's pool is {dice}d6"
    return None


# --- the nonces the player sent ----------------------------------------------------------------


def nonce_problems(
    entries: Sequence[Mapping[str, object]], nonces: Mapping[str, object], complete: bool
) -> tuple[int, list[str]]:
    """Compare the nonces a player kept (``{entry hash: nonce sent}``, from each roll's answer)
    with the proofs of the export: (how many matched, the problems). ``complete``: the export
    is the whole log the player may read, so a kept entry missing from it is a problem too."""
    by_hash = {record.get("hash"): record for record in entries if record.get("hash")}
    matched, problems = 0, []
    for entry_hash, sent in nonces.items():
        record = by_hash.get(entry_hash)
        if record is None:
            if complete:
                problems.append(
                    f"entry {entry_hash[:12]}…: you kept its nonce, but the export has no such entry"
                )
            continue
        proof = record.get("proof")
        alpha = proof.get("alpha") if isinstance(proof, dict) else None
        used = alpha.get("nonce") if isinstance(alpha, dict) else None
        if used != sent:
            problems.append(
                f"entry {entry_hash[:12]}… ({record.get('label')!r}): you sent nonce {str(sent)[:8]}…, "
                f"the proof uses {str(used)[:8]}…: the server did not use your part"
            )
        else:
            matched += 1
    return matched, problems


# --- keys pinned: a new key only as a rotation signed by the key before it ---------------------


def rotation_message(previous: str, key: Mapping[str, object]) -> bytes:
    """What the previous key signs when the server moves to ``key``: the new key's id and both
    public halves, and the id it follows."""
    statement = {
        "from": previous,
        "id": key.get("id"),
        "signing_key": key.get("signing_key"),
        "vrf_key": key.get("vrf_key"),
    }
    return b"poolside key rotation v1\n" + canonical(statement)


def _rotation_problem(key: Mapping[str, object], newest: Mapping[str, object] | None) -> str | None:
    rotation = key.get("rotation")
    if newest is None:
        return "no key is pinned yet"
    if not isinstance(rotation, Mapping) or rotation.get("from") != newest["id"]:
        return f"it is not a rotation signed by {newest['id']}, the newest key you saved"
    try:
        message = rotation_message(str(newest["id"]), key)
        check_signature(str(newest["signing_key"]), message, str(rotation["signature"]))
    except (ProofError, KeyError):
        return f"its rotation statement is not signed by {newest['id']}"
    return None


def pin_keys(
    saved: Sequence[dict[str, object]], offered: Sequence[dict[str, object]]
) -> tuple[dict[str, dict[str, object]], list[str]]:
    """The keys to trust: those ``saved`` earlier, and each key ``offered`` now (oldest first)
    that they don't hold, if a rotation signed by the newest key held so far hands over to it.
    A saved key offered with other halves, or a new key without that statement, is a problem
    and is not trusted."""
    pinned = {str(key["id"]): key for key in saved}
    newest = saved[-1] if saved else None
    problems = []
    for key in offered:
        known = pinned.get(str(key["id"]))
        if known is not None:
            if (known["signing_key"], known["vrf_key"]) != (key["signing_key"], key["vrf_key"]):
                problems.append(f"key {key['id']} is not the key you saved under that id")
            continue
        if bad := _rotation_problem(key, newest):
            problems.append(f"key {key['id']} is not pinned: {bad}")
            continue
        pinned[str(key["id"])] = newest = key
    return pinned, problems


# --- an entry's hash, rebuilt from a GM's export ------------------------------------------------

# The export's names for the hashed fields that the hash calls otherwise (docs/log-tools.md).
RENAMED = {
    "created_at": "time",
    "user": "player",
    "resource_changes": "resources",
    "follows": "follows_seq",
    "reveals": "reveals_seq",
}
V1_FIELDS = (
    "system", "kind", "visibility", "character", "label", "options", "pool", "breakdown",
    "faces", "outcome", "outcome_label", "detail", "result", "odds", "odds_table",
)  # fmt: skip
SALTED_FIELDS = ("salt", "character_id", "user_id", "roller_id", "hidden_character")


def entry_content(campaign: int, record: Mapping[str, object]) -> dict[str, object]:
    """An entry's hashed form (log/models/entry.py ``content``, docs/roll-log.md) from its record
    in a GM's export: version 1's fields, then what each later version added."""
    content = {"v": 1, "campaign": campaign, "seq": record["seq"], "prev_hash": record["prev_hash"]}
    content |= {name: record[name] for name in V1_FIELDS}
    content |= {name: record[exported] for name, exported in RENAMED.items()}
    if record.get("salt"):
        content |= {"v": 3, "call": record["call"], "contest": record["contest"]}
        content |= {"root": record["root_seq"]} | {name: record[name] for name in SALTED_FIELDS}
    elif record.get("call") is not None or record.get("contest") is not None:
        content |= {"v": 2, "call": record["call"], "contest": record["contest"]}
    version = record.get("hash_version")
    if version is not None:
        content |= {"v": version, "odds_display": record["odds_display"]}
    if isinstance(version, int) and version >= 5:
        content["proof"] = record["proof"]
    if isinstance(version, int) and version >= 6:
        # Hashed in the texts' place: each committed field as "", and the commitments.
        content["commitments"] = commitments = record["commitments"]
        content |= dict.fromkeys(commitments if isinstance(commitments, dict) else {}, "")
    return content


def hash_problem(campaign: int, record: Mapping[str, object]) -> str | None:
    """Whether a GM export's record hashes to its ``hash``; None when it does."""
    try:
        content = entry_content(campaign, record)
    except (KeyError, TypeError) as exc:
        return f"its hashed form can't be rebuilt: field {exc} is missing"
    if hashlib.sha256(canonical(content)).hexdigest() != record.get("hash"):
        return "its fields do not hash to its hash: the entry was changed after it was signed"
    return None
