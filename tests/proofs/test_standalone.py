"""poolside_verify.py works on its own: copied out of the project and run in an isolated Python
(no project on the path, no settings), as a player would run it."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from proofs.bundle import standalone_source
from tests.proofs.builders import OTHER_KEY, TEST_KEY, gm_export, player_export, published

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "proofs"


@pytest.fixture
def verifier(tmp_path):
    copy = tmp_path / "poolside_verify.py"
    copy.write_text(standalone_source(), encoding="utf-8")
    return copy


def _run(verifier, export, *args):
    path = verifier.parent / "export.json"
    path.write_text(json.dumps(export) if not isinstance(export, str) else export)
    command = [sys.executable, "-I", str(verifier), str(path), *args]
    return subprocess.run(command, cwd=verifier.parent, capture_output=True, text=True, timeout=60)


def test_it_imports_only_the_standard_library_and_pynacl():
    imported = set()
    for node in ast.walk(ast.parse(standalone_source())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "a relative import ties the file to the project"
            imported.add(node.module.split(".")[0])
    assert imported - set(sys.stdlib_module_names) == {"nacl"}


def test_the_package_imports_without_django():
    code = (
        "import sys, proofs.dice, proofs.keys, proofs.ecvrf;"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'django'], 'django imported'"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not [n for n in names if n.split(".")[0] == "django"], path.name


def test_a_gm_export_checks_out(verifier):
    done = _run(verifier, gm_export())
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == (
        "OK: 4 entries, 3 proofs verified, 1 not from the VRF, chain intact and signed\n"
    )


def test_a_player_export_checks_out_against_the_published_keys_file(verifier):
    keys = verifier.parent / "keys.json"
    keys.write_text(json.dumps({"keys": [published()]}))
    done = _run(verifier, player_export(), "--keys", str(keys))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: 4 entries, 3 proofs verified, 1 not from the VRF, 1 hidden")


def test_a_tampered_export_fails_with_the_reason(verifier):
    export = player_export()
    export["entries"][2]["faces"][0]["face"] = export["entries"][2]["faces"][0]["face"] % 10 + 1
    done = _run(verifier, export)
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert (
        lines[0] == "entry 3 ('Pilot the skiff'): entry's faces do not follow from the VRF output"
    )
    assert lines[-1].startswith("FAILED: 1 problem(s)")


def test_another_servers_keys_fail_every_proof(verifier):
    keys = verifier.parent / "keys.json"
    keys.write_text(json.dumps({"keys": [published(OTHER_KEY)]}))
    done = _run(verifier, player_export(), "--keys", str(keys))
    assert done.returncode == 1
    pin, *problems = done.stdout.splitlines()[:-1]  # the last line is the summary
    # The export's key is neither the one saved nor a rotation it signed: not trusted.
    assert pin.startswith(f"keys: key {TEST_KEY.id} is not pinned")
    assert len(problems) == 3 and all("unknown or unpublished key" in p for p in problems)


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"entries": []}'])
def test_unreadable_input_exits_2(verifier, text):
    done = _run(verifier, text)
    assert done.returncode == 2
    assert done.stderr.startswith("cannot read the input:")
