"""Migrations freeze their own formats: what a migration did must not change when app code does.
They import the standard library, Django and PyNaCl, never our packages, with two designed
exceptions: the callable defaults of fields (below), and the registries of rule systems and of
log kinds, whose keys the `system`, contest `kind` and entry `kind` columns' choices and check
constraints follow (settings.RULE_SYSTEMS and LOG_KINDS; docs/architecture.md, "Adding a rule
system" and "Adding a kind of log entry")."""

from __future__ import annotations

import ast
import hashlib
import importlib
import sys
from pathlib import Path

from proofs.keys import ServerKey
from proofs.protocol import head_message

ROOT = Path(__file__).resolve().parents[2]
OURS = {"api", "config", "discord", "live", "log", "proofs", "rolls", "rules", "sheets", "web"}
REGISTRY = {"sheets.models.base", "sheets.registry", "log.models.kinds"}
# A field's callable default, which Django's migrations name by its import path: it makes new
# random values (a webhook's secret, a delivery's opaque id) and decides no stored format.
DEFAULTS = {"rolls.models.webhooks"}


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_migrations_import_none_of_our_code_but_the_registry():
    migrations = sorted(ROOT.glob("*/migrations/0*.py"))
    assert len(migrations) > 40
    leaning = {
        str(path.relative_to(ROOT)): sorted(module)
        for path in migrations
        for module in [{m for m in _imports(path) if m.split(".")[0] in OURS} - REGISTRY - DEFAULTS]
        if module
    }
    assert leaning == {}
    allowed = set(sys.stdlib_module_names) | {"django", "nacl"} | OURS
    assert {m.split(".")[0] for p in migrations for m in _imports(p)} <= allowed


def test_the_signing_migration_wrote_what_the_proofs_read(tmp_path):
    """rolls.0027 signed every head with its own frozen copy of the key derivation and the head
    message; held equal to proofs/ so that a head it signed verifies as any other."""
    frozen = importlib.import_module("rolls.migrations.0027_verifiable_dice")
    for n in range(4):
        seed = hashlib.sha256(bytes([n])).hexdigest()
        key_file = tmp_path / f"key{n}"
        key_file.write_text(seed + "\n", encoding="ascii")
        key_id, signing_public, vrf_public, signer = frozen._server_key(key_file)
        key = ServerKey.from_file(key_file)
        assert (key_id, signing_public, vrf_public) == (
            key.id,
            key.signing_public_hex,
            key.vrf_public_hex,
        )
        message = frozen._head_message(n, 7 * n, "ab" * 32)
        assert message == head_message(n, 7 * n, "ab" * 32)
        assert signer.sign(message).signature.hex() == key.sign(message)
