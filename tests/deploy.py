"""The documented production environment and `manage.py check --deploy` under it
(tests/test_security.py, tests/test_deploy_checks.py)."""

import atexit
import os
import secrets
import shutil
import subprocess
import sys
import tempfile


def _production_key() -> str:
    folder = tempfile.mkdtemp(prefix="poolside-deploy-key-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = os.path.join(folder, "signing.key")
    with open(path, "w") as key:
        key.write(secrets.token_hex(32) + "\n")
    return path


# The production environment README.md ("Production") documents.
PRODUCTION_ENV = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "poolside.example",
    "CSRF_TRUSTED_ORIGINS": "https://poolside.example",
    "SECURE_COOKIES": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
    "EMAIL_HOST": "smtp.poolside.example",
    # A key of its own, outside the checkout (web/checks.py warns about the development one).
    "SIGNING_KEY_FILE": _production_key(),
}


def deploy_check(env):
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
