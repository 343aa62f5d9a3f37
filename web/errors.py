"""Readable answers for requests Django refuses before any view runs: a bad or too large body,
a failed CSRF check, and a method a view doesn't take. (403, 404 and 500 use Django's own
handlers with our templates.) Under /api/v1/ every one of them, 404 and 500 included, is the
API's JSON error instead of a page: a client of the API never has to parse HTML."""

import logging
import sys
from inspect import iscoroutinefunction
from typing import cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.decorators import sync_and_async_middleware
from django.utils.deprecation import MiddlewareMixin
from django.views import defaults

from web.security import GetResponse

logger = logging.getLogger(__name__)

# Where the API answers (config/urls.py mounts it here).
API_PREFIX = "/api/v1/"
API_NOT_FOUND = "No such address in the API; GET /api/v1/ lists what there is."
# The API's words for a refusal without a reason and for a bug, inside the NinjaAPI
# (api/v1.py) and outside it (the handlers below) alike.
API_FORBIDDEN = "You may not do that."
API_SERVER_ERROR = "Something went wrong on our side; it has been logged."


# A statement PostgreSQL cancelled at the statement timeout (DATABASE_STATEMENT_TIMEOUT_MS).
QUERY_CANCELED = "57014"  # SQLSTATE query_canceled
TIMEOUT_MESSAGE = (
    "That took the server too long, so it was stopped. Try again in a moment, or narrow it down "
    "(a shorter date range, one character)."
)
TIMEOUT_RETRY_SECONDS = 5
# The database out of reach (a restart, a failover, an outage): nothing was saved, nor rolled.
DATABASE_DOWN_MESSAGE = (
    "Poolside can't reach its database just now, so nothing was saved and no dice were rolled. "
    "Try again in a few seconds."
)
DATABASE_RETRY_SECONDS = 5


def is_statement_timeout(exception: BaseException) -> bool:
    """Is this the database cancelling a statement that ran past the statement timeout?
    (Django wraps psycopg's QueryCanceled in its OperationalError; the SQLSTATE says which.)"""
    return isinstance(exception, OperationalError) and (
        getattr(exception.__cause__, "sqlstate", None) == QUERY_CANCELED
    )


def timed_out(request: HttpRequest) -> HttpResponse:
    """The readable 503 for a request whose statement ran past the statement timeout."""
    response: HttpResponse
    if is_api(request):
        response = api_error(TIMEOUT_MESSAGE, 503)
    else:
        context = {"title": "That took too long", "message": TIMEOUT_MESSAGE, "status": 503}
        response = render(request, "400.html", context, status=503)
    response["Retry-After"] = str(TIMEOUT_RETRY_SECONDS)
    return response


class StatementTimeoutPage(MiddlewareMixin):
    """A statement cancelled at the statement timeout answers 503 with a sentence, not a 500
    that reads like a bug: the server stopped work nobody would wait for. (MiddlewareMixin:
    sync and async alike, so it adds no thread switch under ASGI.)"""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_statement_timeout(exception):
            return None
        logger.warning("Statement timeout: %s", request.path)
        return timed_out(request)


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def api_error(detail: str, status: int) -> JsonResponse:
    """The API's error shape (api.base.Error), for answers made outside the NinjaAPI."""
    return JsonResponse({"detail": detail, "errors": {}}, status=status)


def too_large_message() -> str:
    return (
        f"A request may hold at most {_size(settings.MAX_REQUEST_BYTES)} (a portrait upload "
        f"{_size(settings.PORTRAIT_REQUEST_BYTES)}), a character to import at most "
        f"{_size(settings.IMPORT_MAX_BYTES)} and a portrait at most "
        f"{_size(settings.PORTRAIT_MAX_BYTES)}. Nothing was saved."
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: Django's own page says only "Bad Request (400)". A body too large gets 413
    (Content Too Large) and the limits; too many fields or files, and anything else, a 400."""
    if isinstance(exception, RequestDataTooBig):
        status = 413
        title = "What you sent is too large"
        message = too_large_message()
    elif isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        status = 400
        title = "Too many fields"
        message = "That form had far more fields than any form here. Nothing was saved."
    else:
        status = 400
        title = "Bad request"
        message = "The request could not be understood. Nothing was saved."
    if is_api(request):
        return api_error(message if status == 413 else f"{title}. {message}", status)
    return render(
        request, "400.html", {"title": title, "message": message, "status": status}, status=status
    )


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: a path no pattern matches, or a view's Http404 outside the API's own handler."""
    if is_api(request):
        return api_error(API_NOT_FOUND, 404)
    return defaults.page_not_found(request, exception)


def forbidden(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler403."""
    if is_api(request):
        return api_error(str(exception) or API_FORBIDDEN, 403)
    return defaults.permission_denied(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a bug outside the API's own handler (which answers the same words) — or the
    database out of reach, which is no bug: 503 and Retry-After, so that a browser, a script or
    a bot tries again (a roll's retry with its nonce never rolls twice: docs/api.md)."""
    # Django calls handlers with the exception being handled, on whichever thread (asgiref
    # re-raises it there): sys.exc_info() is the one documented way to read it.
    if is_database_down(sys.exc_info()[1]):
        return database_down(request)
    if is_api(request):
        return api_error(API_SERVER_ERROR, 500)
    return defaults.server_error(request)


def is_database_down(exception: BaseException | None) -> bool:
    """Is this the database out of reach (refused, lost, shutting down), not a bug of ours?
    Django wraps the driver's errors in its own; a statement timeout is answered apart."""
    if isinstance(exception, InterfaceError):
        return True
    return isinstance(exception, OperationalError) and not is_statement_timeout(exception)


def database_down(request: HttpRequest) -> HttpResponse:
    """The 503 while the database is out of reach. The page uses no database (no user, no
    messages): templates/503.html, like 500.html."""
    logger.error("Database unavailable: %s %s", request.method, request.path)
    response: HttpResponse
    if is_api(request):
        response = api_error(DATABASE_DOWN_MESSAGE, 503)
    else:
        response = HttpResponse(
            loader.render_to_string("503.html", {"message": DATABASE_DOWN_MESSAGE}), status=503
        )
    response["Retry-After"] = str(DATABASE_RETRY_SECONDS)
    return response


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: Django's own page is unstyled and speaks of "CSRF verification" to people
    who only left a form open too long. Rendered with the request, so the header knows who is
    logged in; ``reason`` (Django's technical one) is for the log, not the page."""
    return render(request, "403_csrf.html", status=403)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n // 1024} KiB"


def _needs_a_page(request: HttpRequest, response: HttpResponseBase) -> bool:
    # Only Django's own empty 405 (require_POST and friends), and not for htmx, which shows its
    # own message for a failed request (static/js/feedback.js). Under the API, any 405 that
    # isn't JSON yet: django-ninja's says "Method not allowed" in plain text.
    if response.status_code != 405 or response.streaming:
        return False
    if is_api(request):
        return not response.get("Content-Type", "").startswith("application/json")
    return not cast(HttpResponse, response).content and "HX-Request" not in request.headers


def _method_page(request: HttpRequest, response: HttpResponseBase) -> HttpResponse:
    page: HttpResponse
    if is_api(request):
        allowed = response.get("Allow", "")
        page = api_error(f"This address takes {allowed}, not {request.method}.", 405)
    else:
        page = render(request, "405.html", status=405)
    page["Allow"] = response.get("Allow", "")
    return page


@sync_and_async_middleware
def method_not_allowed_page(get_response: GetResponse) -> GetResponse:
    """A readable 405. Django's is an empty body, so opening a POST-only address (a bookmarked
    log-out, a form's action typed in) showed a blank page."""
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponseBase:
            response: HttpResponseBase = await get_response(request)
            if _needs_a_page(request, response):
                # Rendering reads the session and the user: database work, on a thread.
                return await sync_to_async(_method_page)(request, response)
            return response

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponseBase:
        response = cast(HttpResponseBase, get_response(request))
        return _method_page(request, response) if _needs_a_page(request, response) else response

    return middleware
