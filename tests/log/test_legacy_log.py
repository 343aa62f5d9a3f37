"""A log written before issue 55 (the code of 86fccab: the log's models still the rolls app's)
still verifies after today's migrations: by verify_log, by the standalone verifier on every
campaign's GM export, and by the verifier on every member's signed view.

tests/log/data/legacy-86fccab.sqlite3.gz was written by the script in tests/log/data/README.md, run with
that commit's code and tests.settings (so the tests' signing key): four campaigns, 57 entries at
hash version 5, with and without dice proofs; public, GM-only, blind (one revealed), secret and
whispered entries; a hidden NPC's public and secret rolls; destiny follow-ups; messages and a
correction; session markers. Each member then fetched their signed view with that code, whose
heads (tests/log/data/legacy-86fccab-heads.json) are what their browsers saved: today's views
must fold onto them. It runs on SQLite whatever DATABASE_URL says: the point is the
rows as that code wrote them, moved through every migration since."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEGACY = ROOT / "tests" / "log" / "data" / "legacy-86fccab.sqlite3.gz"
SECRET_KEY = "poolside-legacy-fixture-secret-key-not-for-production-0123456789"


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_a_log_written_before_verifies_after_every_migration(tmp_path):
    database = tmp_path / "legacy.sqlite3"
    database.write_bytes(gzip.decompress(LEGACY.read_bytes()))
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        # The key the fixture's server had: a view item names its entry by a token of it.
        "SECRET_KEY": SECRET_KEY,
    }
    migrated = _run(env, "manage.py", "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    assert "Applying log.0001_initial... OK" in migrated.stdout

    verified = _run(env, "manage.py", "verify_log")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    lines = verified.stdout.strip().splitlines()
    assert len(lines) == 4 and all("chain intact and signed" in line for line in lines)
    assert "23 entries" in lines[0]

    checked = _run(env, "-m", "tests.log.legacy_check", str(tmp_path))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count(": exit 0") == 4 + 16  # four exports, sixteen members' views
    assert "proofs verified" in checked.stdout
