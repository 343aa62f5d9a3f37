"""What the permalink's "Verify these dice" checks in the player's browser (static/js/verify-dice.js,
docs/verifiable-dice.md): the entry's dice, outcome and options, its proof record, and the server
key that proof names as the server publishes it. The page carries it as a ``json_script`` island,
so the browser checks exactly what the page shows, against a key it can compare with the keys page.
"""

from __future__ import annotations

from log.models import RollEntry
from log.models.keys import keys_by_id
from log.tokens import entry_token


def has_proof(entry: RollEntry) -> bool:
    """Whether the entry's dice came from the VRF (its ``proof`` is ``{}`` otherwise)."""
    return bool(entry.proof) and entry.info.has_dice


def verify_data(entry: RollEntry) -> dict[str, object]:
    """The island's contents. The key is looked up by the id the proof names, never taken from the
    proof itself: a proof that brought its own key would prove nothing. An id the server never
    published gives ``None``, and the browser says so."""
    proof = entry.proof
    key_id = proof.get("key")
    return {
        # The id the roll's answer named: the browser's kept nonce is filed under it.
        "entry": entry_token(entry.pk),
        "system": entry.system,
        "kind": entry.kind,
        "label": entry.label,
        "faces": entry.faces,
        "outcome": entry.outcome,
        "result": entry.result,
        "options": entry.options,
        "pool": entry.pool,
        "proof": proof,
        "key": keys_by_id().get(key_id) if isinstance(key_id, str) else None,
    }
