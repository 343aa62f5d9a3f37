"""Tests that need Redis (the live transport's Redis backend) skip with a message where it doesn't
answer; under CI=true they fail instead (.ci/run makes them mandatory)."""

import os

import pytest


def redis_answers(url: str) -> str | None:
    """None if Redis at ``url`` answers PING, else why not."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1).ping()
    except redis.RedisError as error:
        return str(error)
    return None


def require_redis(url: str) -> None:
    problem = redis_answers(url)
    if problem is None:
        return
    message = f"Redis at {url} doesn't answer ({problem}); start redis-server or set REDIS_URL."
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} It is mandatory under CI=true.")
    pytest.skip(f"{message} Skipped.")


def kill_own_connections(url: str, kind: str) -> int:
    """CLIENT KILL this test session's Redis connections of one kind ("normal", "pubsub"), as a
    Redis restart would, and nobody else's: not another pytest-xdist worker's, not another run's
    on the same Redis. They are the ones named by ``client_name`` in ``url`` (tests/conftest.py
    names them per session); the connection that does the killing is spared."""
    from urllib.parse import parse_qs, urlsplit

    import redis

    name = parse_qs(urlsplit(url).query).get("client_name", [""])[0]
    assert name, f"REDIS_URL {url!r} names no client: tests/conftest.py names them per session"
    admin = redis.Redis.from_url(url)
    try:
        me = admin.client_id()
        return sum(
            admin.client_kill_filter(_id=client["id"])
            for client in admin.client_list(_type=kind)
            if client["name"] == name and int(client["id"]) != me
        )
    finally:
        admin.close()
