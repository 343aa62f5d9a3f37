"""Per-user limits on heavy reads (statistics, exports, log searches), counted in the user's
``ApiUsage`` row as the API's throttles count (``settings.HEAVY_RATES``); the 429 page is
``web.ratelimit.too_many``."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase

from sheets.models import ApiUsage
from web.ratelimit import rate, too_many


def heavy_wait(user_id: int | None, scope: str) -> int:
    """Count one heavy read of ``scope`` by the user against ``settings.HEAVY_RATES``: 0 if
    allowed, else the seconds to wait."""
    limit, seconds = rate(settings.HEAVY_RATES[scope])
    if limit <= 0 or user_id is None:
        return 0
    # One UPDATE on the user's usage row (as the API's throttle counts), not the cache's
    # several statements: a search is a page that must stay cheap.
    now = time.time()
    count, start = ApiUsage.count_request(user_id, f"{scope}_window", seconds, now)
    return 0 if count <= limit else max(1, math.ceil(start + seconds - now))


def heavy_limited(
    scope: str, when: Callable[[HttpRequest], bool] = lambda request: True
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Limit a heavy read (statistics, an export, a log search) per logged-in user: a script
    looping on one gets a readable 429 rather than holding server workers. ``when`` says
    whether this request is the heavy kind (a log page is heavy only when it searches)."""

    def decorator(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
            if request.user.is_authenticated and when(request):
                wait = heavy_wait(request.user.pk, scope)
                if wait:
                    return too_many(request, scope, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
