import os
import secrets

import pytest
from django.core.servers.basehttp import WSGIServer
from hypothesis import settings as hypothesis_settings

from sheets.models import System
from tests.worlds import Party, World, build_parties, build_party, build_world

# No per-example deadline anywhere: on a busy 2-core machine a property test's example can take
# longer than hypothesis's default 200 ms, and a test must fail on behaviour, not on load (speed is
# what the benchmarks measure, docs/performance.md).
hypothesis_settings.register_profile("poolside", deadline=None)
hypothesis_settings.load_profile("poolside")

# The live server listens with Django's backlog of 10. The concurrency tests open 50 connections at
# once, as a busy table would; past the backlog the kernel drops handshakes and a client can see
# "connection reset" before the server ever reads its request. A production server (uvicorn) listens
# with 2048, so the tests' live server gets a deep queue too. Set before the session-scoped live
# server binds its socket.
WSGIServer.request_queue_size = 128


@pytest.fixture(autouse=True)
def _fast_and_self_contained(settings):
    # MD5 hashing keeps the suite fast on 2 cores; tests never need real password strength.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The manifest storage needs `collectstatic`; tests render templates without it.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # WhiteNoise warns about a missing STATIC_ROOT on a fresh clone; the sources stand in for it.
    settings.STATIC_ROOT = settings.BASE_DIR / "static"


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request):
    """Each test that uses the database starts with no rate-limit counts. They live in the
    ``ratelimit`` cache's table (web/ratelimit.py), which no model owns: a transactional test's
    flush leaves its counts there, and a later test on the same worker (pytest-xdist runs them in
    any order) found its address's window already spent."""
    marker, names = request.node.get_closest_marker("django_db"), request.fixturenames
    if marker is None and "db" not in names and "transactional_db" not in names:
        return
    transactional = "transactional_db" in names or (
        marker is not None and marker.kwargs.get("transaction", False)
    )
    request.getfixturevalue("transactional_db" if transactional else "db")
    from django.core.cache import caches

    caches["ratelimit"].clear()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """On PostgreSQL the roll log refuses TRUNCATE unless its owner sets the maintenance switch
    (rolls/migrations/0006). Tests that commit (live servers, concurrency) are emptied with a
    TRUNCATE between tests, so every connection the suite opens to its throwaway database turns
    the switch on; tests/rolls/test_integrity.py turns it off again to show the refusal. (Set in
    the connection's startup options, so pooled connections have it too.)"""
    from django.db import connections

    for connection in connections.all():
        if connection.vendor == "postgresql":
            options = connection.settings_dict.setdefault("OPTIONS", {})
            switch = "-c poolside.log_maintenance=on"
            options["options"] = f"{options.get('options', '')} {switch}".strip()


@pytest.fixture(scope="session", autouse=True)
def _own_live_channels(request):
    """Each test session — each pytest-xdist worker, each engineer's run on a shared machine —
    hears only its own live events, on Redis and on PostgreSQL. Redis pub/sub ignores database
    numbers, so what keeps sessions apart is the channel prefix (rolls/live):

    * LIVE_CHANNEL_PREFIX set (`LIVE_CHANNEL_PREFIX=hc pytest -n 2`): each worker takes it with
      its worker id (``hc_gw0``, ``hc_gw1``), in the environment too, so the servers the tests
      start (tests/live_servers.py) use the same one.
    * Unset, on PostgreSQL: the default, made from the database's identity, is already the
      worker's own (pytest-django gives each worker its test database, ``test_hc_gw0``); the
      servers derive the same one from the same database.
    * Unset, on SQLite: every session's in-memory test database has the same name, so the default
      would be shared by every run on the machine; this process takes a random prefix (the
      servers derive theirs from the file they are given, unique already).

    The session's Redis connections also carry a client name of their own (``client_name`` in
    REDIS_URL), so a test that kills connections to simulate a Redis restart kills this
    session's only (``tests.redis_available.kill_own_connections``)."""
    from django.conf import settings

    worker = getattr(request.config, "workerinput", {}).get("workerid", "")
    configured = os.environ.get("LIVE_CHANNEL_PREFIX", "").strip()
    if configured:
        prefix = f"{configured[: 39 - len(worker)]}_{worker}" if worker else configured
        os.environ["LIVE_CHANNEL_PREFIX"] = prefix
    elif settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        prefix = f"poolside_t{secrets.token_hex(6)}"
    else:
        prefix = ""
    settings.LIVE_CHANNEL_PREFIX = prefix
    separator = "&" if "?" in settings.REDIS_URL else "?"
    name = f"poolside_test_{secrets.token_hex(6)}"
    settings.REDIS_URL = f"{settings.REDIS_URL}{separator}client_name={name}"


# --- the people at the table (tests/worlds.py) ------------------------------------------------


@pytest.fixture
def system() -> str:
    """The rule system of ``party``: Cogent, unless a module overrides this fixture or a test
    parametrizes it."""
    return System.COGENT


@pytest.fixture
def party(system) -> Party:
    """One campaign of ``system``: the GM, ana playing Ada, ben playing Bo, an observer, the GM's
    NPCs Warden (seen) and Spy (hidden), and a non-member (tests/worlds.py). Blank sheets."""
    return build_party(system)


@pytest.fixture
def parties() -> dict[str, Party]:
    """A party per system, the same people at each."""
    return build_parties()


@pytest.fixture
def world(db) -> World:
    """For the bad-input fuzzing: a furnished party per system (one of every object a URL can
    name) and another campaign none of their people belongs to, whose ids are forgeries."""
    return build_world()


def pytest_collection_modifyitems(config, items):
    """Every test in a `test_live*` module is a live-events test (marker `live`): .ci/run runs
    them again against the Redis transport. With LIVE_BACKEND=redis they need Redis, and skip
    with a message without it (fail under CI=true), like the other services' tests."""
    import os

    from tests.redis_available import redis_answers

    live_items = [item for item in items if item.path.name.startswith("test_live")]
    for item in live_items:
        item.add_marker(pytest.mark.live)
    if os.environ.get("LIVE_BACKEND", "").strip().lower() != "redis" or not live_items:
        return
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    problem = redis_answers(url)
    if problem is None:
        return
    message = f"LIVE_BACKEND=redis but Redis at {url} doesn't answer ({problem})."
    if os.environ.get("CI") == "true":
        raise pytest.UsageError(f"{message} Redis is mandatory under CI=true.")
    for item in live_items:
        item.add_marker(pytest.mark.skip(reason=f"{message} Skipped."))
