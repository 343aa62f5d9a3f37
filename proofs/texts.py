"""Free text in the log (hash version 6): what an entry commits to of a text, and whether a
record's shown text opens its commitment. Written into the standalone verifier where
``protocol.py`` imports it (proofs/bundle.py), so it imports nothing of the project."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping


def text_commitment(salt: str, text: str) -> str:
    """What an entry of hash version 6 binds of a piece of free text: SHA-256 of the salt's 32
    bytes (given as 64 hex digits) followed by the text in UTF-8, as 64 hex digits."""
    return hashlib.sha256(bytes.fromhex(salt) + text.encode("utf-8")).hexdigest()


def text_problems(record: Mapping[str, object]) -> list[str]:
    """Where a record's shown text does not open its commitment (hash version 6: the record
    names each committed field in ``commitments``, shows its text under the field's own name and
    its salt in ``salts``). A field whose text was removed (null) is skipped: what is gone can't
    be checked, and isn't shown."""
    problems = []
    salts, commitments = record.get("salts"), record.get("commitments")
    salts = salts if isinstance(salts, dict) else {}
    for name, commitment in (commitments if isinstance(commitments, dict) else {}).items():
        text = record.get(name)
        if text is None:
            continue
        salt = salts.get(name)
        try:
            opens = (
                isinstance(text, str)
                and isinstance(salt, str)
                and text_commitment(salt, text) == commitment
            )
        except ValueError:  # a salt that isn't hex
            opens = False
        if not opens:
            problems.append(f"its {name} does not match the commitment")
    return problems
