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
