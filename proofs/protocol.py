"""Check Poolside's verifiable dice by hand: ``python poolside_verify.py EXPORT.json [--keys KEYS.json]``.

This module is Poolside's verification protocol: the formats the server signs and hashes (entry,
head and view messages, proof inputs, text commitments) and the checks of them. The app imports
it as ``proofs.protocol``; players download this same file as ``/keys/poolside_verify.py`` (the
keys page serves its bytes), so the script they run is the code the server checks itself with.

One file, needing Python 3.12+ and PyNaCl: run it on a campaign log exported as JSON. It checks each
ECVRF proof (RFC 9381) under the published keys (the export's, or ``--keys``), that its input names
the entry and the faces follow, a member's rolls count 1, 2, 3, … (alpha v2), and on a GM's export
the chain: seq 1..n, links, head, signatures, each position or roller's counter (not each hash:
``verify_log`` does that). Texts must open their commitments. Exit 0 good, 1 a problem, 2 unreadable.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from nacl import bindings as sodium
from nacl.exceptions import CryptoError

# The standalone verifier is this file with proofs/holding.py written in here (proofs/bundle.py).
from .holding import ProofError as ProofError
from .holding import canonical as canonical
from .holding import check_signature as check_signature
from .holding import hash_problem, nonce_problems, pin_keys, pool_problem
from .holding import key_id as key_id
from .texts import text_commitment as text_commitment
from .texts import text_problems as text_problems

SUITE = "ECVRF-EDWARDS25519-SHA512-TAI"
SUITE_STRING = b"\x03"  # RFC 9381 §5.5, the suite byte of ECVRF-EDWARDS25519-SHA512-TAI
L = 2**252 + 27742317777372353535851937790883648493  # order of the prime subgroup (q in the RFC)
COFACTOR = (8).to_bytes(32, "little")
FIELD_P = 2**255 - 19
IDENTITY = (1).to_bytes(32, "little")  # the neutral point (0, 1), encoded
C_LEN = 16  # challenge length in bytes
ZERO_HASH = "0" * 64
NONCE_RE = re.compile(r"[A-Za-z0-9_-]{8,64}")
HEX64_RE = re.compile(r"[0-9a-f]{64}")


def _sha512(*parts: bytes) -> bytes:
    return hashlib.sha512(b"".join(parts)).digest()


def _mul(scalar: bytes, point: bytes) -> bytes:
    """scalar * point; libsodium refuses small-order points and an identity result."""
    return sodium.crypto_scalarmult_ed25519_noclamp(scalar, point)


def _times_cofactor(point: bytes) -> bytes:
    """8 * point by three doublings. crypto_core_ed25519_add decodes any curve point, where
    libsodium's scalar multiplication refuses points outside the prime subgroup (most hashes)."""
    if int.from_bytes(point, "little") & (2**255 - 1) >= FIELD_P:
        raise ProofError("non-canonical point encoding (y >= p)")  # RFC 8032 §5.1.3 decoding
    for _ in range(3):
        point = sodium.crypto_core_ed25519_add(point, point)
    return point


def encode_to_curve(public_key: bytes, alpha: bytes) -> bytes:
    """RFC 9381 §5.4.1.1, try-and-increment: hash until 32 bytes decode to a curve point whose
    cofactor multiple is not the identity."""
    for ctr in range(256):
        candidate = _sha512(SUITE_STRING, b"\x01", public_key, alpha, bytes([ctr]), b"\x00")[:32]
        try:
            h = _times_cofactor(candidate)
        except (CryptoError, ProofError):  # not a point: the RFC's "INVALID", try the next
            continue
        if h != IDENTITY:
            return h
    raise ProofError("encode_to_curve found no point in 256 tries")  # probability ~2^-256


def challenge(*points: bytes) -> bytes:
    """RFC 9381 §5.4.3: the first 16 bytes of a hash over Y, H, Gamma, U, V."""
    return _sha512(SUITE_STRING, b"\x02", *points, b"\x00")[:C_LEN]


def proof_to_hash(pi: bytes) -> bytes:
    """RFC 9381 §5.2: beta = Hash(suite || 0x03 || 8*Gamma || 0x00). Call it on a verified pi."""
    gamma, _, _ = decode_proof(pi)
    return _sha512(SUITE_STRING, b"\x03", _mul(COFACTOR, gamma), b"\x00")


def _valid_point(point: bytes) -> bool:
    # libsodium's check: canonical encoding, on the curve, not of small order, in the prime
    # subgroup. The last is stricter than RFC 9381 asks, but an honest key or Gamma always is.
    return len(point) == 32 and bool(sodium.crypto_core_ed25519_is_valid_point(point))


def decode_proof(pi: bytes) -> tuple[bytes, bytes, bytes]:
    """RFC 9381 §5.4.4: pi = Gamma (32) || c (16) || s (32), with s < L and Gamma a point.
    Returns Gamma, c and s, the scalars as 32-byte little-endian strings."""
    if len(pi) != 80:
        raise ProofError(f"proof is {len(pi)} bytes, not 80")
    gamma, c, s = pi[:32], pi[32:48], pi[48:]
    if not _valid_point(gamma):
        raise ProofError("proof's Gamma is not a valid curve point")
    if int.from_bytes(s, "little") >= L:
        # Without this check s and s + L would both verify: the proof would be malleable.
        raise ProofError("proof's s is not reduced (s >= L)")
    return gamma, c + bytes(16), s


def ecvrf_verify(public_key: bytes, pi: bytes, alpha: bytes) -> bytes:
    """RFC 9381 §5.3: check pi for alpha under public_key and return beta (64 bytes)."""
    if not _valid_point(public_key):
        # §5.4.5 validate_key: a small-order key would let anyone make "valid" proofs.
        raise ProofError("VRF public key is not a valid point or has small order")
    gamma, c, s = decode_proof(pi)
    h = encode_to_curve(public_key, alpha)
    try:
        u = sodium.crypto_core_ed25519_sub(
            sodium.crypto_scalarmult_ed25519_base_noclamp(s), _mul(c, public_key)
        )
        v = sodium.crypto_core_ed25519_sub(_mul(s, h), _mul(c, gamma))
    except CryptoError as exc:  # s = 0 or c = 0: no honest proof has them
        raise ProofError("bad proof: degenerate c or s") from exc
    if challenge(public_key, h, gamma, u, v) != pi[32:48]:
        raise ProofError("bad proof: the VRF proof does not verify for this input and key")
    return proof_to_hash(pi)


def position(campaign: int, seq: int, prev_hash: str, secret: str) -> str:
    """The commitment to an entry's place in the chain (hides seq and prev_hash from players)."""
    obj = {"campaign": campaign, "prev_hash": prev_hash, "secret": secret, "seq": seq}
    return hashlib.sha256(canonical(obj)).hexdigest()


def roller_secret(position_secret: str, campaign: int, roller: int) -> str:
    """A roller's counter secret: the GM's export checks all (from the position secret)."""
    message = b"poolside roller v1\n" + canonical({"campaign": campaign, "roller": roller})
    return hmac.new(position_secret.encode("ascii"), message, hashlib.sha256).hexdigest()


def counter(campaign: int, roller: int, n: int, secret: str) -> str:
    """Alpha v2's ``counter``: roll ``n`` of ``roller``, hidden from all but the roller."""
    obj = {"campaign": campaign, "n": n, "roller": roller, "secret": secret}
    return hashlib.sha256(canonical(obj)).hexdigest()


def counter_n(alpha: Mapping[str, object], roller: int, secret: str, most: int) -> int | None:
    """Which of the roller's numbers 1..``most`` alpha's counter commits to (None: none)."""
    campaign, got = alpha.get("campaign"), alpha.get("counter")
    if alpha.get("v") != 2 or type(campaign) is not int:
        return None
    hits = (n for n in range(1, most + 1) if counter(campaign, roller, n, secret) == got)
    return next(hits, None)


def gap_problem(whose: str, found: int | None, seen: int, blind: int = 0) -> str:
    if found is None:
        return f"the proof's counter is none of {whose} rolls"
    if found <= seen or found - seen - 1 > blind:
        missing = f"#{seen + 1} is not in the log: dice were drawn for it and never logged"
        return f"{whose} roll #{found}, but " + (missing if found > seen else "that was used")
    return ""


@dataclass
class Counters:
    """A GM's check: each roller's proven rolls (alpha version 2) count 1, 2, 3, … in order."""

    campaign: int
    position_secret: str
    last: dict[int, int] = field(default_factory=dict)

    def problem(self, record: Mapping[str, object]) -> str:
        roller, alpha = record.get("user_id"), _v2_alpha(record)
        if not alpha or type(roller) is not int:
            return "proof has a counter but the entry names no roller" if alpha else ""
        seen = self.last.get(roller, 0)
        secret = roller_secret(self.position_secret, self.campaign, roller)
        found = counter_n(alpha, roller, secret, seen + 1000)
        self.last[roller] = max(seen, found or 0)
        return gap_problem(f"roller {roller}'s", found, seen)


def _v2_alpha(record: Mapping[str, object]) -> Mapping[str, object]:
    proof = record.get("proof")
    alpha = proof.get("alpha") if isinstance(proof, dict) else None
    return alpha if isinstance(alpha, dict) and alpha.get("v") == 2 else {}


def alpha_bytes(alpha_obj: dict[str, Any]) -> bytes:
    """The VRF input: the canonical JSON of the alpha object."""
    return canonical(alpha_obj)


def _byte_stream(beta: bytes) -> Iterator[int]:
    yield from beta
    counter = 1
    while True:  # S = beta || SHA-512(beta || 1) || SHA-512(beta || 2) || ...
        yield from hashlib.sha512(beta + counter.to_bytes(4, "big")).digest()
        counter += 1


def faces_from_beta(beta: bytes, pool: list[list[Any]]) -> list[list[int]]:
    """Faces for each [kind, count, sides] group, by rejection sampling (no modulo bias)."""
    stream = _byte_stream(beta)
    groups = []
    for _kind, count, sides in pool:
        limit = 256 - (256 % sides)
        faces: list[int] = []
        while len(faces) < count:
            b = next(stream)
            if b < limit:
                faces.append(b % sides + 1)
        groups.append(faces)
    return groups


def _check_pool(pool: Any) -> list[list[Any]]:
    """The pool must be [[kind, count, sides], ...] with the spec's sides and a sane count
    (a forged count of billions must not make the verifier loop for hours)."""

    def good(g: Any) -> bool:
        if not (isinstance(g, list) and len(g) == 3 and isinstance(g[0], str)):
            return False
        return type(g[1]) is int and 0 <= g[1] <= 1000 and type(g[2]) is int and g[2] in (6, 10)

    if not isinstance(pool, list) or not all(good(group) for group in pool):
        raise ProofError(f"alpha's pool {pool!r} is not [[kind, count, 6 or 10 sides], ...]")
    return pool


def _check_alpha_matches(alpha: dict[str, Any], record: dict[str, Any]) -> list[list[Any]]:
    """The proof must be about this entry: its label and the kinds and counts of its dice."""
    # Version 2 commits to the roller's counter where version 1 committed to the chain position.
    nonce, version = str(alpha.get("nonce")), alpha.get("v")
    bound = "counter" if version == 2 else "position"
    where = str(alpha.get(bound))
    names = {"v", "campaign", "target", "pool", "nonce", bound}
    shape = version in (1, 2) and type(alpha.get("campaign")) is int and set(alpha) == names
    if not (shape and NONCE_RE.fullmatch(nonce) and HEX64_RE.fullmatch(where)):
        raise ProofError("alpha is not a version 1 or 2 alpha (campaign, position/counter, nonce)")
    if (target := alpha.get("target")) != (label := record.get("label")):
        raise ProofError(f"alpha's target {target!r} is not the entry's label {label!r}")
    pool = _check_pool(alpha.get("pool"))
    expected = [kind for kind, count, _ in pool for _ in range(count)]
    faces = record.get("faces")
    if not isinstance(faces, list) or not all(isinstance(f, dict) for f in faces):
        raise ProofError("entry's faces are not a list of dice")
    if [f.get("kind") for f in faces] != expected:
        raise ProofError("alpha's pool (kinds and counts) does not match the entry's dice")
    if bad := pool_problem(record, pool):
        raise ProofError(bad)
    return pool


def check_proof(entry_record: dict[str, Any], keys: dict[str, dict[str, Any]]) -> None:
    """Check an entry's proof record against the entry; raise ProofError saying what is wrong."""
    proof = entry_record.get("proof")
    if not isinstance(proof, dict) or proof.get("v") != 1 or proof.get("suite") != SUITE:
        raise ProofError(f"proof record is not a version 1 {SUITE} proof")
    key = keys.get(proof.get("key"))  # type: ignore[arg-type]
    if key is None:
        raise ProofError(f"proof names unknown or unpublished key {proof.get('key')!r}")
    alpha = proof.get("alpha")
    if not isinstance(alpha, dict):
        raise ProofError("proof's alpha is not an object")
    pool = _check_alpha_matches(alpha, entry_record)
    try:
        pi, vrf_key = bytes.fromhex(proof.get("pi", "")), bytes.fromhex(key["vrf_key"])
    except (TypeError, ValueError, KeyError) as exc:
        raise ProofError("proof's pi or the key's vrf_key is not hex") from exc
    beta = ecvrf_verify(vrf_key, pi, alpha_bytes(alpha))
    drawn = [face for group in faces_from_beta(beta, pool) for face in group]
    stored = [f.get("face") for f in entry_record["faces"]]
    # Compared as canonical JSON, where true is not 1 and 6.0 is not 6, as the hash sees them.
    if canonical(drawn) != canonical(stored):
        raise ProofError("entry's faces do not follow from the VRF output")


def head_message(campaign: int, length: int, hash: str) -> bytes:
    """What the server signs: the log as it stood at ``length`` entries, ending in ``hash``."""
    return b"poolside head v1\n" + canonical({"campaign": campaign, "hash": hash, "length": length})


def entry_message(campaign: int, seq: int, hash: str) -> bytes:
    """What the server signs for each entry: the entry at ``seq``, by its hash. Not the head's
    message, so an entry's signature can't stand in for a head the log was cut back to."""
    return b"poolside entry v1\n" + canonical({"campaign": campaign, "hash": hash, "seq": seq})


@dataclass
class Report:
    """What verify_export found: counts and one line per problem."""

    entries: int = 0
    hidden: int = 0
    proofs: int = 0
    not_vrf: int = 0
    removed: int = 0  # committed texts removed (hash version 6): the commitment stays
    nonces: int = 0  # proofs that use the nonce the player kept (--nonces)
    chain: str = "chain not checked (no chain head: not a GM's export)"
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        counts = f"{self.entries} entries, {self.proofs} proofs verified"
        counts += f", {self.not_vrf} not from the VRF" if self.not_vrf else ""
        counts += f", {self.hidden} hidden" if self.hidden else ""
        counts += f", {self.removed} text(s) removed" if self.removed else ""
        counts += f", {self.nonces} with your nonce" if self.nonces else ""
        if self.ok:
            return f"OK: {counts}, {self.chain}"
        return f"FAILED: {len(self.problems)} problem(s), first: {self.problems[0]} ({counts})"


def index_keys(published: Any, report: Report) -> dict[str, dict[str, Any]]:
    """Published keys by id, leaving out (and reporting) any whose id is not its keys' hash."""
    keys: dict[str, dict[str, Any]] = {}
    for key in published if isinstance(published, list) else []:
        try:
            good = key_id(key["signing_key"], key["vrf_key"]) == key["id"]
        except (KeyError, TypeError, ValueError):
            good = False
        if good:
            keys[key["id"]] = key
        else:
            report.problems.append(f"published key {str(key)[:60]} is malformed or its id is wrong")
    return keys


def _signature_problem(keys: dict[str, Any], signer: Any, message: bytes, sig: Any) -> str | None:
    key = keys.get(signer) if isinstance(signer, str) else None
    if key is None:
        return f"unknown or unpublished key {signer!r}"
    try:
        check_signature(key["signing_key"], message, str(sig))
    except ProofError as exc:
        return str(exc)
    return None


def _link_problems(
    export: dict[str, Any], n: int, prev: str, record: dict[str, Any], keys: dict[str, Any]
) -> list[str]:
    """Entry n of a GM export: its place, its link, its signature, its position commitment."""
    campaign, secret, problems = export["campaign"]["id"], export.get("position_secret"), []
    if record.get("seq") != n:
        problems.append(f"seq is {record.get('seq')!r}, expected {n}: the chain has a gap")
    if record.get("prev_hash") != prev:
        problems.append("prev_hash does not link to the entry before")
    if bad := hash_problem(campaign, record):
        problems.append(bad)
    message = entry_message(campaign, n, str(record.get("hash")))
    if bad := _signature_problem(keys, record.get("signed_by"), message, record.get("signature")):
        problems.append(f"entry signature: {bad}")
    proof = record.get("proof")
    alpha = proof.get("alpha") if isinstance(proof, dict) else None
    committed = position(campaign, n, prev, secret) if isinstance(secret, str) else None
    if isinstance(alpha, dict) and committed and alpha.get("position", committed) != committed:
        problems.append("proof's position does not match the entry's place in the chain")
    return [f"entry {n}: {problem}" for problem in problems]


def _check_chain(export: dict[str, Any], keys: dict[str, Any], report: Report) -> None:
    """A GM export: seq 1..n, linked prev_hash, every signature, the head, the positions."""
    problems, head, prev = [], export["chain_head"], ZERO_HASH
    if not isinstance(export.get("position_secret"), str):
        problems.append("GM export has no position_secret: proofs' positions not checked")
    if export.get("filters"):
        # A filtered export leaves entries out: each entry is checked at its own seq, and the
        # chain's continuity and head are not (export the whole log for that).
        for record in export["entries"]:
            seq, prev = record.get("seq"), record.get("prev_hash")
            problems += _link_problems(export, seq, prev, record, keys)
        report.problems += problems
        report.chain = "filtered export: each entry's signature checked, not the chain's links"
        return
    secret = export.get("position_secret")
    counters = Counters(export["campaign"]["id"], secret) if isinstance(secret, str) else None
    for n, record in enumerate(export["entries"], start=1):
        problems += _link_problems(export, n, prev, record, keys)
        if counters and (gap := counters.problem(record)):
            problems.append(f"entry {n}: {gap}")
        prev = str(record.get("hash"))
    if head.get("length") != len(export["entries"]) or head.get("hash") != prev:
        problems.append("chain head's length or hash is not the last entry's")
    message = head_message(export["campaign"]["id"], head.get("length"), head.get("hash"))
    if bad := _signature_problem(keys, head.get("key"), message, head.get("signature")):
        problems.append(f"chain head signature: {bad}")
    report.problems += problems
    report.chain = "chain broken or unsigned" if problems else "chain intact and signed"


def is_placeholder(record: Mapping[str, object]) -> bool:
    """A hidden roll's placeholder: ``"placeholder": true`` (exports before hash version 6 called
    it ``"redacted"``, which still reads)."""
    return bool(record.get("placeholder") or record.get("redacted"))


def trusted_keys(
    export: Mapping[str, object], keys: Mapping[str, object] | None, report: Report
) -> dict[str, dict[str, Any]]:
    """The keys to check against: the export's own list when ``keys`` is None; else the keys
    file the player saved earlier, plus each key of the export's list that a rotation signed by
    the key before it hands over to (``pin_keys``). Every other key is reported, and unused."""
    offered = index_keys(export.get("keys"), report)
    if keys is None:
        return offered
    saved = index_keys(keys["keys"] if "keys" in keys else list(keys.values()), report)
    pinned, problems = pin_keys(list(saved.values()), list(offered.values()))
    report.problems += [f"keys: {problem}" for problem in problems]
    return pinned


def verify_export(
    export: dict[str, Any],
    keys: dict[str, Any] | None = None,
    nonces: Mapping[str, object] | None = None,
) -> Report:
    """Check an exported log. ``keys``: the keys file the player saved ({"keys": [...]}) or
    keys by id; None trusts the export's own list. ``nonces``: the nonces the player sent, by
    the entry's hash (``nonce_problems``)."""
    report = Report()
    keys = trusted_keys(export, keys, report)
    report.hidden = sum(is_placeholder(r) for r in export["entries"])
    report.entries = len(export["entries"]) - report.hidden
    # Numbered by place in the export, placeholders included, so a reader can find the entry.
    for n, record in enumerate(export["entries"], start=1):
        if is_placeholder(record):
            continue
        report.problems += [f"entry {n}: {problem}" for problem in text_problems(record)]
        report.removed += sum(record.get(name) is None for name in record.get("commitments") or {})
        if not record.get("proof"):
            report.not_vrf += 1
            continue
        try:
            check_proof(record, keys)
            if record["proof"]["alpha"].get("campaign") != export["campaign"]["id"]:
                raise ProofError("proof's campaign is not the export's campaign")
            report.proofs += 1
        except ProofError as exc:
            report.problems.append(f"entry {n} ({record.get('label')!r}): {exc}")
    if nonces is not None:
        complete = not export.get("filters")
        report.nonces, problems = nonce_problems(export["entries"], nonces, complete)
        report.problems += problems
    if "chain_head" in export:
        _check_chain(export, keys, report)
    elif isinstance(export.get("counter"), dict) and not export.get("filters"):
        mine, me = export["counter"], export.get("exported_by")
        report.problems += own_counts(mine, me, export["entries"])
    return report


def own_counts(mine: Mapping[str, object], me: object, rows: list[dict[str, object]]) -> list[str]:
    """A member's rolls (``mine``: roller id, secret) count 1, 2, …; a blind one may fill a gap."""
    roller, secret, blind, seen, problems = mine.get("roller"), str(mine.get("secret")), 0, 0, []
    for n, record in enumerate(rows, start=1):
        if record.get("player") != me or type(roller) is not int:
            continue
        blind += is_placeholder(record)
        if alpha := _v2_alpha(record):
            found = counter_n(alpha, roller, secret, len(rows) + 1)
            if bad := gap_problem("your", found, seen, blind):
                problems.append(f"entry {n}: {bad}")
            blind, seen = max(0, blind - (found or seen + 1) + seen + 1), max(seen, found or 0)
    return problems


def _load(path: str, *needed: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or any(name not in data for name in needed):
        raise ValueError(f"{path} is not a JSON object with {', '.join(needed)}")
    return data


# --- a member's view of the log (docs/verifiable-dice.md#your-view-of-the-log) -------------


def view_start(campaign: int, member: int) -> str:
    """The empty view's hash: what a member's view chain starts from."""
    start = canonical({"campaign": campaign, "member": member})
    return hashlib.sha256(b"poolside view v1\n" + start).hexdigest()


def view_bound(item: Mapping[str, object]) -> Mapping[str, object]:
    """What of an item the view chains: all of it, except (view item format 2, an entry of hash
    version 6) the committed texts and their salts — the commitments stand for them, so a text
    can be removed and the view still verifies."""
    committed = item.get("commitments")
    if not committed or not isinstance(committed, dict):
        return item
    return {k: v for k, v in item.items() if k not in committed and k != "salts"}


def view_step(previous: str, item: Mapping[str, object]) -> str:
    """The view's hash after one more item: SHA-256 of the hash before and the digest of the
    item as bound (``view_bound``)."""
    digest = hashlib.sha256(canonical(view_bound(item))).digest()
    return hashlib.sha256(bytes.fromhex(previous) + digest).hexdigest()


def view_message(campaign: int, member: int, role: str, length: int, hash: str) -> bytes:
    """What the server signs for a member's view: its length and hash, for whom, in what role."""
    head = {"campaign": campaign, "hash": hash, "length": length, "member": member, "role": role}
    return b"poolside view head v1\n" + canonical(head)


def verify_view(view: dict[str, Any], keys: Any, saved: dict[str, Any] | None = None) -> list[str]:
    """Problems with a view export (``"format": "poolside-view"``): its items must chain to its
    signed head, and — given a ``saved`` head ({"length", "hash"}) — pass through it."""
    campaign, member, head = view["campaign"]["id"], view["member"], view["head"]
    running, problems = view_start(campaign, member), []
    if saved is not None and saved.get("length") == 0 and saved.get("hash") != running:
        problems.append("the saved head is not this member's empty view")
    for n, item in enumerate(view["items"], start=1):
        running = view_step(running, item)
        problems += [f"item {n}: {problem}" for problem in text_problems(item)]
        if saved is not None and n == saved.get("length") and running != saved.get("hash"):
            problems.append(f"history changed: item {n} no longer ends where the saved head did")
    if saved is not None and int(saved.get("length", 0)) > len(view["items"]):
        problems.append(
            f"history removed: the saved head has {saved['length']} items, "
            f"the view {len(view['items'])}"
        )
    if (head.get("length"), head.get("hash")) != (len(view["items"]), running):
        problems.append("the items do not chain to the signed head")
    role = str(view.get("role"))
    message = view_message(campaign, member, role, head.get("length"), head.get("hash"))
    if bad := _signature_problem(
        index_keys(keys, Report()), head.get("key"), message, head.get("signature")
    ):
        problems.append(f"view head signature: {bad}")
    return problems


def _needs(data: dict[str, Any], *names: str) -> dict[str, Any]:
    if any(name not in data for name in names):
        raise ValueError(f"the file has no {', '.join(names)}")
    return data


def main(argv: list[str] | None = None) -> int:
    """The command line: exit 0 all good, 1 a problem found, 2 input unreadable."""
    parser = argparse.ArgumentParser(description="Verify a Poolside campaign log export.")
    parser.add_argument("export", help="the exported log (JSON)")
    parser.add_argument(
        "--keys",
        help="the keys file (/keys.json) you saved earlier: new keys need a signed rotation",
    )
    parser.add_argument(
        "--nonces", help="the nonces you sent, by the entry's hash (JSON: {hash: nonce})"
    )
    parser.add_argument("--saved-head", help="a view head saved earlier (JSON: length, hash)")
    args = parser.parse_args(argv)
    try:
        export = _load(args.export, "campaign")
        keys = _load(args.keys, "keys") if args.keys else {"keys": export.get("keys")}
        if export.get("format") == "poolside-view":
            saved = _load(args.saved_head, "length", "hash") if args.saved_head else None
            problems = verify_view(_needs(export, "member", "head", "items"), keys["keys"], saved)
            for problem in problems:
                print(problem)
            print(f"{'FAILED' if problems else 'OK'}: {len(export['items'])} items in the view")
            return 1 if problems else 0
        nonces = _load(args.nonces) if args.nonces else None
        report = verify_export(_needs(export, "entries"), keys if args.keys else None, nonces)
    except (OSError, ValueError, AttributeError, KeyError, TypeError) as exc:
        print(f"cannot read the input: {exc}", file=sys.stderr)
        return 2
    for problem in report.problems:
        print(problem)
    print(report.summary())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
