"""Run by tests/log/test_legacy_log.py in a process of its own, on a copy of the legacy database
(migrated to today's schema first): every campaign's GM export, checked by the standalone
verifier, and every member's signed view, checked as a browser folds it onto the head it saved
before the upgrade. Prints one line per
check; exits 1 on the first that fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
django.setup()

from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402

from proofs.bundle import standalone_source  # noqa: E402
from sheets.models import Campaign, Membership, Role  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
# Each member's signed view head as that commit's server signed it, which their browser saved.
SAVED = json.loads((ROOT / "tests/log/data/legacy-86fccab-heads.json").read_text())


def main(out: Path) -> int:
    client = Client()
    # The verifier as players download it: one file, run in an isolated Python.
    verifier = out / "poolside_verify.py"
    verifier.write_text(standalone_source(), encoding="utf-8")
    for campaign in Campaign.objects.order_by("pk"):
        client.force_login(campaign.memberships.get(role=Role.GM).user)
        export = client.get(reverse("campaign_log_json", args=[campaign.pk]))
        assert export.status_code == 200, export.status_code
        path = out / f"export-{campaign.pk}.json"
        path.write_bytes(b"".join(export.streaming_content))
        done = subprocess.run(
            [sys.executable, "-I", str(verifier), str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        print(f"campaign {campaign.pk} export: exit {done.returncode}", done.stdout.strip()[-200:])
        if done.returncode:
            print(done.stdout, done.stderr)
            return 1
        for membership in Membership.objects.filter(campaign=campaign).select_related("user"):
            client.force_login(membership.user)
            view = client.get(reverse("seen_export", args=[campaign.pk]))
            assert view.status_code == 200, (membership.user.username, view.status_code)
            body = view.content if not view.streaming else b"".join(view.streaming_content)
            path = out / f"view-{campaign.pk}-{membership.user.pk}.json"
            path.write_bytes(body)
            saved = out / f"head-{campaign.pk}-{membership.user.pk}.json"
            saved.write_text(json.dumps(SAVED[f"{campaign.pk}/{membership.user.username}"]))
            done = subprocess.run(
                [sys.executable, "-I", str(verifier), str(path), "--saved-head", str(saved)],
                capture_output=True,
                text=True,
                timeout=120,
            )
            print(
                f"campaign {campaign.pk} view of {membership.user.username}: exit {done.returncode}"
            )
            if done.returncode:
                print(done.stdout, done.stderr, json.dumps(json.loads(body))[:500])
                return 1
    return 0


if __name__ == "__main__":
    with override_settings(ALLOWED_HOSTS=["*"]):
        sys.exit(main(Path(sys.argv[1])))
