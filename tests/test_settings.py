import pytest

from config import settings as cfg


def test_env_bool(monkeypatch):
    monkeypatch.setenv("X_FLAG", "yes")
    assert cfg.env_bool("X_FLAG") is True
    monkeypatch.setenv("X_FLAG", "0")
    assert cfg.env_bool("X_FLAG", default=True) is False
    monkeypatch.setenv("X_FLAG", "")
    assert cfg.env_bool("X_FLAG", default=True) is True
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ValueError, match="not a boolean"):
        cfg.env_bool("X_FLAG")


def test_env_list_and_int(monkeypatch):
    monkeypatch.setenv("X_LIST", " a.example, b.example ,")
    assert cfg.env_list("X_LIST", []) == ["a.example", "b.example"]
    monkeypatch.delenv("X_LIST")
    assert cfg.env_list("X_LIST", ["d"]) == ["d"]
    monkeypatch.setenv("X_INT", "25")
    assert cfg.env_int("X_INT", 1) == 25
    monkeypatch.setenv("X_INT", "lots")
    with pytest.raises(ValueError, match="not a whole number"):
        cfg.env_int("X_INT", 1)


def test_development_secret_key_is_generated_once(tmp_path):
    path = tmp_path / ".secret_key"
    first = cfg._development_secret_key(path)
    assert len(first) > 40
    assert cfg._development_secret_key(path) == first
    assert oct(path.stat().st_mode & 0o777) == "0o600"


def test_debug_is_off_unless_set():
    import os

    if "DEBUG" not in os.environ:
        assert cfg.DEBUG is False


def test_webhook_settings_are_safe_by_default():
    import os

    # Unset, webhooks refuse private addresses; links have no trailing slash to double up.
    if "WEBHOOKS_ALLOW_PRIVATE" not in os.environ:
        assert cfg.WEBHOOKS_ALLOW_PRIVATE is False
    if "SITE_URL" not in os.environ:
        assert cfg.SITE_URL == "http://127.0.0.1:8000"
    assert not cfg.SITE_URL.endswith("/")
    assert 0 < cfg.WEBHOOK_TIMEOUT <= 30
    assert cfg.TASKS["default"]["BACKEND"] == "django_tasks_db.DatabaseBackend"


def test_the_server_process_collects_garbage_less_often():
    """config/asgi.py tunes the collector once the app is loaded (web/memory.py)."""
    import subprocess
    import sys

    from web.memory import OLDER_THRESHOLDS, YOUNG_THRESHOLD

    out = subprocess.run(
        [sys.executable, "-c", "import gc, config.asgi; print(gc.get_threshold())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert out == str((YOUNG_THRESHOLD, *OLDER_THRESHOLDS))


@pytest.mark.parametrize(
    ("switch", "expected"),
    [
        ("", {"server_side_binding": True, "prepare_threshold": 5}),
        ("off", {}),
    ],
)
def test_postgresql_prepares_statements_unless_switched_off(switch, expected):
    """Prepared statements need server-side parameters; a pooler that can't keep them (PgBouncer
    in transaction mode before 1.21) needs both off: DATABASE_PREPARED_STATEMENTS=off."""
    import json
    import os
    import subprocess
    import sys

    env = os.environ | {
        "DATABASE_URL": "postgres://nobody@127.0.0.1:5432/none",
        "DATABASE_PREPARED_STATEMENTS": switch,
    }
    code = (
        "import json; from config import settings as s; o = s.DATABASES['default']['OPTIONS'];"
        "print(json.dumps({k: o[k] for k in ('server_side_binding', 'prepare_threshold') if k in o}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert json.loads(out) == expected


def test_portraits_go_to_the_filesystem_or_an_s3_bucket():
    """docs/portraits.md: MEDIA_ROOT/portraits by default, never under a public URL; with
    PORTRAITS_S3_BUCKET, django-storages' S3 backend, private, never overwriting."""
    import json
    import os
    import subprocess
    import sys

    code = "import json; from config import settings as s; print(json.dumps(s.STORAGES['portraits'], default=str))"

    def portraits(**env):
        base = {k: v for k, v in os.environ.items() if not k.startswith("PORTRAITS_")}
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env=base | env,
        ).stdout
        return json.loads(out)

    local = portraits(MEDIA_ROOT="/srv/poolside-media")
    assert local["BACKEND"] == "django.core.files.storage.FileSystemStorage"
    assert local["OPTIONS"] == {"location": "/srv/poolside-media/portraits", "base_url": None}
    s3 = portraits(
        PORTRAITS_S3_BUCKET="table-pictures", PORTRAITS_S3_ENDPOINT_URL="https://s3.example.net"
    )
    assert s3["BACKEND"] == "storages.backends.s3.S3Storage"
    assert s3["OPTIONS"]["bucket_name"] == "table-pictures"
    assert s3["OPTIONS"]["endpoint_url"] == "https://s3.example.net"
    assert s3["OPTIONS"]["default_acl"] == "private"
    assert s3["OPTIONS"]["file_overwrite"] is False
    assert s3["OPTIONS"]["location"] == "portraits"
