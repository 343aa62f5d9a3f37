"""The JSON API, /api/v1/ (docs/api.md): django-ninja for routing, validation and the OpenAPI
schema; the resources (api/campaigns.py, api/rolls.py) mirror the pages of their apps and load
everything through the same permission helpers, so the API can't see more than the pages do.

* **Personal access tokens only** (``Authorization: Bearer pst_…``, sheets/models/tokens.py). A
  session cookie authenticates nothing here, so a page can't be tricked into writing through the
  API (no CSRF to forge), and a token's scope decides what it may do.
* **Errors are JSON**: ``{"detail": "…", "errors": {"field": ["…"]}}`` — the sentence a page would
  show, and per field the words the form shows beside it.
* **Throttled per user, across all their tokens** (``API_RATE``, ``API_ROLL_RATE``): 429 with
  ``Retry-After``. A user holds at most ``MAX_ACTIVE_TOKENS`` active tokens.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja import Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.security import HttpBearer
from ninja.throttling import BaseThrottle
from pydantic import Field

from api.inputs import pattern_words
from sheets.models import ApiToken, ApiUsage
from web.ratelimit import rate


class Error(Schema):
    """Every error answer: a sentence, and for bad input the messages per field."""

    detail: str
    errors: dict[str, list[str]] = Field(default_factory=dict)


# 503: a statement that ran past the database's statement timeout (web/errors.py).
ERRORS: dict[int | frozenset[int], Any] = {
    frozenset({400, 401, 403, 404, 409, 422, 429, 503}): Error
}


class ApiError(HttpError):
    """An answer other than 2xx with a sentence and, optionally, per-field messages."""

    def __init__(self, status: int, detail: str, errors: dict[str, list[str]] | None = None):
        super().__init__(status, detail)
        self.errors = errors or {}


def form_errors(form: Any) -> dict[str, list[str]]:
    """A Django form's errors as the API gives them: ``__all__`` for those of no one field."""
    return {name: [str(message) for message in messages] for name, messages in form.errors.items()}


def invalid(form: Any, detail: str = "Some values are not valid.") -> ApiError:
    return ApiError(422, detail, form_errors(form))


# ---------------------------------------------------------------------------------------------
# Authentication
# ---------------------------------------------------------------------------------------------

# A message about tokens, not one.
NO_TOKEN = (
    "Send a personal access token: “Authorization: Bearer pst_…”. Make one on your account page."  # noqa: S105
)


class TokenAuth(HttpBearer):
    """A usable token; the request then acts as its user (``request.user``), as a page would."""

    def __call__(self, request: HttpRequest) -> ApiToken | None:
        if not request.headers.get("Authorization"):
            raise AuthenticationError(message=NO_TOKEN)
        return super().__call__(request)

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        found = ApiToken.objects.find(token.strip())
        if found is None:
            raise AuthenticationError(message="This token is not valid.")
        if not found.user.is_active:
            raise AuthenticationError(message="This token's account is deactivated.")
        status = found.status()
        if status != "active":
            raise AuthenticationError(message=f"This token is {status}.")
        found.touch()
        request.user = found.user
        return found


def needs_roll_scope(request: HttpRequest) -> None:
    """Writes need a token with the roll scope (its owner's permissions still apply)."""
    token: ApiToken = request.auth  # type: ignore[attr-defined]
    if not token.can_roll:
        raise ApiError(
            403, "This token may only read. Rolling needs a token with the “roll” scope."
        )


# ---------------------------------------------------------------------------------------------
# Throttling, per user
# ---------------------------------------------------------------------------------------------


class TokenThrottle(BaseThrottle):
    """A fixed window per user, whichever of their tokens sent the request, counted on the
    user's ``ApiUsage`` row: making more tokens buys no more requests (one user once made 40 in
    two seconds to multiply the roll limit), and every server process counts together, one
    UPDATE per request. ``setting`` names the limit,
    "count/seconds" (0 turns it off). A burst across a window's end can reach twice the limit:
    the price of one statement instead of a log of every request."""

    def __init__(self, window: str, setting: str):
        self.window, self.setting = window, setting
        self._wait = threading.local()  # one throttle object serves every request thread

    def allow_request(self, request: HttpRequest) -> bool:
        limit, seconds = rate(getattr(settings, self.setting))
        token = getattr(request, "auth", None)
        if token is None or limit <= 0:
            return True
        now = time.time()
        count, start = ApiUsage.count_request(token.user_id, self.window, seconds, now)
        if count <= limit:
            return True
        self._wait.seconds = max(1.0, start + seconds - now)
        return False

    def wait(self) -> float | None:
        return getattr(self._wait, "seconds", None)


READ_THROTTLE = TokenThrottle("window", "API_RATE")
ROLL_THROTTLE = TokenThrottle("roll_window", "API_ROLL_RATE")


def by_field(errors: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """pydantic's error list (``loc`` like ``["query", "limit"]``) as messages per field."""
    found: dict[str, list[str]] = {}
    for error in errors:
        loc = [str(part) for part in error.get("loc", ()) if part not in ("query", "path", "body")]
        message = pattern_words(error) or str(error.get("msg", "Invalid."))
        found.setdefault(".".join(loc) or "__all__", []).append(message)
    return found
