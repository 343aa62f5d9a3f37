"""Readable answers for requests Django refuses before any view runs: a bad or too large body,
a failed CSRF check, and a method a view doesn't take. (403, 404 and 500 use Django's own
handlers with our templates.)"""

from inspect import iscoroutinefunction
from typing import cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.decorators import sync_and_async_middleware

from config.security import GetResponse
from sheets.ranges import IMPORT_MAX_BYTES


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler400: Django's own page says only "Bad Request (400)". A body too large gets 413
    (Content Too Large) and the limits; too many fields or files, and anything else, a 400."""
    if isinstance(exception, RequestDataTooBig):
        status = 413
        title = "What you sent is too large"
        message = (
            f"A request may hold at most {_size(settings.MAX_REQUEST_BYTES)}, and a character "
            f"to import at most {_size(IMPORT_MAX_BYTES)}. Nothing was saved."
        )
    elif isinstance(exception, TooManyFieldsSent | TooManyFilesSent):
        status = 400
        title = "Too many fields"
        message = "That form had far more fields than any form here. Nothing was saved."
    else:
        status = 400
        title = "Bad request"
        message = "The request could not be understood. Nothing was saved."
    return render(
        request, "400.html", {"title": title, "message": message, "status": status}, status=status
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: Django's own page is unstyled and speaks of "CSRF verification" to people
    who only left a form open too long. Rendered with the request, so the header knows who is
    logged in; ``reason`` (Django's technical one) is for the log, not the page."""
    return render(request, "403_csrf.html", status=403)


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n // 1024} KiB"


def _needs_a_page(request: HttpRequest, response: HttpResponseBase) -> bool:
    # Only Django's own empty 405 (require_POST and friends), and not for htmx, which shows its
    # own message for a failed request (static/js/feedback.js).
    return (
        response.status_code == 405
        and not response.streaming
        and not cast(HttpResponse, response).content
        and "HX-Request" not in request.headers
    )


def _method_page(request: HttpRequest, response: HttpResponseBase) -> HttpResponse:
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
