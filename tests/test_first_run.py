"""What a newcomer sees on a first `make run`: progress while the venv installs, and no lines they
can't act on — django-axes' start-up banner from every manage.py command, uvicorn's "lifespan
unsupported" at every server start."""

import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings

from tests.live_servers import database_url, free_port, serve

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(settings.BASE_DIR)


def test_a_management_command_prints_no_axes_banner():
    env = {**os.environ, "LOG_LEVEL": "INFO"}
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "System check identified no issues" in done.stdout
    assert "AXES" not in done.stdout + done.stderr


def test_the_server_starts_without_noise():
    """The server as `make run` starts it (its options read from the Makefile) logs that it runs
    and nothing about lifespan or axes; it still answers."""
    env = {**os.environ, "DATABASE_URL": database_url(), "DEBUG": "1", "LOG_LEVEL": "INFO"}
    port = free_port()
    with tempfile.TemporaryFile() as log:
        with contextmanager(serve)(port, env, log):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                assert answer.status == 200
            time.sleep(0.2)
        log.seek(0)
        output = log.read().decode()
    assert "Uvicorn running on" in output
    assert "lifespan" not in output.lower() and "AXES" not in output


def test_the_install_says_what_it_does():
    """`make` on a fresh clone announces each step of the install, and pip names each package as
    it installs (it was --quiet, silent for minutes)."""
    done = subprocess.run(
        ["make", "--dry-run", "--always-make", ".venv/.installed"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any("==> Installing Poolside and its dependencies" in line for line in lines)
    install = next(line for line in lines if 'install --progress-bar on -e ".[dev]"' in line)
    assert "--quiet" not in install
