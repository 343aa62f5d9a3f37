"""The documented production environment and `manage.py check --deploy` under it
(tests/test_security.py, tests/test_deploy_checks.py)."""

import os
import secrets
import subprocess
import sys

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
