"""Request helpers and middleware for security features."""

from collections.abc import Awaitable, Callable

from asgiref.sync import iscoroutinefunction
from django.conf import settings
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


@sync_and_async_middleware
def private_no_store(
    get_response: Callable[[HttpRequest], HttpResponseBase | Awaitable[HttpResponseBase]],
) -> Callable:
    """`Cache-Control: private, no-store` on every response Django renders.

    Nearly every page shows campaign data (sheets, rolls, the log, exports, statistics, the GM
    table, the live stream, and every HTMX partial of them), and a page that doesn't today might
    tomorrow: marking them all is simpler and safer than a list to keep up to date. No shared
    cache may keep them and the browser stores none on disk. Static files are answered by
    WhiteNoise before this middleware and keep their long-lived caching. A view's own directives
    (the stream's no-cache) stay; a `public` one is dropped.
    """
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            response = await get_response(request)
            patch_cache_control(response, private=True, no_store=True)
            return response

    else:

        def middleware(request: HttpRequest) -> HttpResponseBase:
            response = get_response(request)
            patch_cache_control(response, private=True, no_store=True)
            return response

    return middleware
