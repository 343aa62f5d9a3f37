"""The API's one version, /api/v1/: the NinjaAPI with its error answers and its resources
(building blocks in api/base.py; docs/api.md)."""

from __future__ import annotations

import logging

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError

from api.base import NO_TOKEN, READ_THROTTLE, ApiError, TokenAuth, by_field
from api.campaigns import router as sheets_router
from api.keys import router as keys_router
from api.messages import router as messages_router
from api.rolls import router as rolls_router
from api.seen import router as seen_router
from api.sessions import router as sessions_router
from rolls.messages.actions import TooFast
from sheets.models import Refused
from web.errors import (
    API_FORBIDDEN,
    API_SERVER_ERROR,
    DATABASE_DOWN_MESSAGE,
    DATABASE_RETRY_SECONDS,
    TIMEOUT_MESSAGE,
    TIMEOUT_RETRY_SECONDS,
    is_database_down,
    is_statement_timeout,
    too_large_message,
)
from web.text import Parser

logger = logging.getLogger("django.request")

api = NinjaAPI(
    title="Poolside API",
    version="1",
    description=(
        "Campaigns, characters, exact odds, server-side rolls and the roll log — with the "
        "permissions and visibility of the pages. Authenticate with a personal access token: "
        "`Authorization: Bearer pst_…`. Guide: docs/api.md."
    ),
    urls_namespace="api",
    auth=TokenAuth(),
    throttle=[READ_THROTTLE],
    docs_url="/docs",
    openapi_url="/openapi.json",
    parser=Parser(),  # JSON bodies without bidi controls (web/text.py)
)


def _error(
    request: HttpRequest, detail: str, status: int, errors: dict[str, list[str]] | None = None
) -> HttpResponse:
    response = api.create_response(
        request, {"detail": detail, "errors": errors or {}}, status=status
    )
    if status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="poolside"'
    return response


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return _error(request, str(exc), exc.status_code, exc.errors)


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    # django-ninja's own refusals, such as a body that isn't JSON (400), in our shape.
    return _error(request, str(exc), exc.status_code)


@api.exception_handler(Exception)
def _server_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    """A bug: logged with its traceback as Django logs a page's 500, answered in JSON. (A
    statement cancelled at the statement timeout, or the database out of reach, is no bug: a
    503 with a sentence and Retry-After.)"""
    if is_statement_timeout(exc):
        logger.warning("Statement timeout: %s", request.path)
        response = _error(request, TIMEOUT_MESSAGE, 503)
        response["Retry-After"] = str(TIMEOUT_RETRY_SECONDS)
        return response
    if is_database_down(exc):
        # No bug either: the database is out of reach, nothing was written. A client retries
        # after Retry-After, with the same nonce for a roll (docs/api.md, "Retrying a roll").
        logger.error("Database unavailable: %s %s", request.method, request.path)
        response = _error(request, DATABASE_DOWN_MESSAGE, 503)
        response["Retry-After"] = str(DATABASE_RETRY_SECONDS)
        return response
    logger.error(
        "Internal Server Error: %s", request.path, exc_info=exc, extra={"request": request}
    )
    return _error(request, API_SERVER_ERROR, 500)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return _error(request, exc.message if exc.message != "Unauthorized" else NO_TOKEN, 401)


@api.exception_handler(Throttled)
def _throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    return _error(
        request,
        "Too many requests from this account (all its tokens count together); wait and try again.",
        429,
    )


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    # The pages' own sentence ("No such campaign."): never more than a page would say.
    return _error(request, str(exc) or "Not found.", 404)


@api.exception_handler(PermissionDenied)
def _forbidden(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
    return _error(request, str(exc) or API_FORBIDDEN, 403)


@api.exception_handler(Refused)
def _refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    return _error(request, str(exc), 409)


@api.exception_handler(TooFast)
def _too_fast(request: HttpRequest, exc: TooFast) -> HttpResponse:
    # Over MESSAGE_RATE (docs/messages.md): a 429 like the API's own throttles, not a 409.
    response = _error(request, str(exc), 429)
    response["Retry-After"] = str(exc.wait)
    return response


@api.exception_handler(RequestDataTooBig)
def _too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    # Django refuses to read a body over DATA_UPLOAD_MAX_MEMORY_SIZE; it was a JSON 500 here.
    return _error(request, too_large_message(), 413)


@api.exception_handler(ValidationError)
def _validation(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    return _error(request, "Some values are not valid.", 422, by_field(exc.errors))


@api.get("/", auth=None, include_in_schema=False, url_name="api-root")
def index(request: HttpRequest) -> dict[str, object]:
    """What a client (or a person) finds at /api/v1/: where the schema, the docs and the first
    resources are, and how to authenticate. Needs no token, like the schema."""
    root = request.build_absolute_uri("/api/v1/")
    return {
        "name": api.title,
        "version": api.version,
        "authentication": "Authorization: Bearer pst_… (a personal access token from your "
        "account page)",
        "schema": root + "openapi.json",
        "docs": root + "docs",
        "resources": {"me": root + "me", "campaigns": root + "campaigns"},
    }


api.add_router("", sheets_router)
api.add_router("", rolls_router)
api.add_router("", sessions_router)
api.add_router("", messages_router)
api.add_router("", keys_router)
api.add_router("", seen_router)
