"""Schemathesis against the API's own OpenAPI schema, as a client would meet it (`make api-check`,
run by .ci/run; docs/api.md).

A throwaway SQLite database gets the demo campaigns (`manage.py demo`) and a "roll" token for the
demo GM, who may read and roll everything in them; uvicorn serves the app as `make run` does; then
``schemathesis run /api/v1/openapi.json`` sends generated requests — valid, invalid and odd —
with that token, and fails on any 5xx, on an answer the schema doesn't describe (status code,
content type, body) and on a response that doesn't match its schema.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CHECKS = ",".join(
    (
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    )
)


def main() -> int:
    sys.path.insert(0, str(ROOT))
    from tests.live_servers import free_port

    with tempfile.TemporaryDirectory(prefix="poolside-api-check-") as folder:
        env, token = _throwaway_site(folder)
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "config.asgi:application",
                "--port",
                str(port),
                "--no-proxy-headers",
                "--log-level",
                "warning",
            ],
            env=env,
            cwd=ROOT,
        )
        try:
            return _schemathesis(port, token)
        finally:
            server.terminate()
            server.wait(timeout=10)


def _throwaway_site(folder: str) -> tuple[dict[str, str], str]:
    """The environment of a demo site on a new SQLite database in ``folder``, and a GM's token."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3",
        "SECRET_KEY": "api-check-" + "x" * 40,
        "DEBUG": "1",  # static files from the sources: no collectstatic for a throwaway run
        # Generated requests are refused by design (404, 409, 422): Django would log each.
        "LOG_LEVEL": "ERROR",
        # Generated requests come fast; a 429 would only hide what the next one finds.
        "API_RATE": "0/60",
        "API_ROLL_RATE": "0/60",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "--noinput", "-v0"], ["createcachetable"], ["demo"]):
        subprocess.run([*manage, *command], env=env, cwd=ROOT, check=True, capture_output=True)
    token = subprocess.run(
        [*manage, "api_token", "gm", "--scope", "roll", "--name", "schemathesis"],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return env, token


def _schemathesis(port: int, token: str) -> int:
    run = subprocess.run(
        [
            str(BIN / "schemathesis"),
            "run",
            f"http://127.0.0.1:{port}/api/v1/openapi.json",
            "--wait-for-schema",
            "30",
            "--header",
            f"Authorization: Bearer {token}",
            "--checks",
            CHECKS,
            "--max-examples",
            os.environ.get("API_CHECK_EXAMPLES", "40"),
            "--workers",
            "1",
            "--seed",
            "20261201",
        ],
        cwd=ROOT,
        env={**os.environ, "SCHEMATHESIS_HOOKS": ""},
    )
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
