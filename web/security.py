"""Request helpers and middleware for security features."""

from collections.abc import Awaitable, Callable
from typing import Any, cast

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.decorators import sync_and_async_middleware


def client_ip(request: HttpRequest) -> str:
    """The client's address for login throttling.

    Without proxies (PROXY_COUNT=0) it is REMOTE_ADDR. Behind N proxies that each append to
    X-Forwarded-For, it is the N-th address from the right: everything left of that was written by
    the client and can't be trusted.
    """
    count = settings.PROXY_COUNT
    if count > 0:
        hops = [
            h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()
        ]
        if len(hops) >= count:
            return hops[-count]
    return request.META.get("REMOTE_ADDR", "")


# What a middleware gets from Django and gives back: sync or async, as the stack around it is.
GetResponse = Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]]


@sync_and_async_middleware
def private_no_store(get_response: GetResponse) -> GetResponse:
    """`Cache-Control: private, no-store` on every response Django renders.

    Nearly every page shows campaign data (sheets, rolls, the log, exports, statistics, the GM
    table, the live stream, and every HTMX partial of them), and a page that doesn't today might
    tomorrow: marking them all is simpler and safer than a list to keep up to date. No shared
    cache may keep them and the browser stores none on disk. Static files are answered by
    WhiteNoise before this middleware and keep their long-lived caching. A view's own directives
    (the stream's no-cache) stay; a `public` one is dropped.
    """
    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> HttpResponseBase:
            response: HttpResponseBase = await get_response(request)
            patch_cache_control(response, private=True, no_store=True)
            return response

        return async_middleware

    def middleware(request: HttpRequest) -> HttpResponseBase:
        # Not a coroutine function, so Django calls it in a sync stack: it answers a response.
        response = cast(HttpResponseBase, get_response(request))
        patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


class RequestSizeLimit(FileUploadHandler):
    """First upload handler: refuses a multipart body over MAX_REQUEST_BYTES before it is parsed.

    Django caps form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) but not uploaded files, which it would
    spool to disk whatever their size. The only upload is a character file (256 KiB), so a body
    over the limit is refused whole: RequestDataTooBig, answered by web.errors.bad_request with
    a readable 413. A body without a Content-Length is counted as it arrives."""

    def __init__(self, request: HttpRequest | None = None, limit: int | None = None) -> None:
        super().__init__(request)
        self.received = 0
        self.limit: int = settings.MAX_REQUEST_BYTES if limit is None else limit

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],
        content_length: int,
        # Django passes the boundary as bytes (MultiPartParser encodes it); django-stubs says str.
        boundary: bytes,  # type: ignore[override]
        encoding: str | None = None,
    ) -> None:
        if content_length and content_length > self.limit:
            raise RequestDataTooBig("Request body exceeded its limit.")

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > self.limit:
            raise RequestDataTooBig("Uploaded files exceeded their limit.")
        return raw_data  # the next handlers store it

    def file_complete(self, file_size: int) -> None:
        return None


def allow_body_of(request: HttpRequest, limit: int) -> None:
    """Let this one request's multipart body reach ``limit`` bytes instead of MAX_REQUEST_BYTES
    (a portrait upload). Django's documented way to change a request's upload handlers: before
    anything reads the body, so the view is csrf_exempt and runs csrf_protect itself after."""
    others = [h for h in request.upload_handlers if not isinstance(h, RequestSizeLimit)]
    request.upload_handlers = [RequestSizeLimit(request, limit), *others]
