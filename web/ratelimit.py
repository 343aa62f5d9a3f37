"""Rate limits for the forms a stranger can post without logging in (signup and password reset)
and the 429 of a member's heavy reads (statistics, exports, log searches: ``sheets.usage``).

Counts live in the ``ratelimit`` cache (settings.CACHES): Django's DatabaseCache, so every server
process on one database shares them (PostgreSQL or SQLite alike) with no extra service. Each
allowed attempt claims one of ``limit`` slots of the current fixed window with ``cache.add``, which
the database makes atomic (the key is the table's primary key): concurrent requests from many
processes cannot claim more slots than there are, as a get-then-set counter would let them.

A POST is counted before the form is validated, whatever it holds, so the count itself says
nothing about whether a username or an email exists. Limits are per client address (the same
``client_ip`` as login throttling, honouring PROXY_COUNT) and per target (the username or email
posted); either one running out answers a readable 429. Windows are fixed, so a burst across a
window's end can get up to twice the limit; that is the price of one query per attempt.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.response import TemplateResponse

from web.security import client_ip

CACHE = "ratelimit"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rate:
    limit: int  # attempts allowed per window
    seconds: int  # the window's length


def _hash(value: str) -> str:
    # Cache keys hold no user input as such: safe characters, bounded length, no email at rest.
    return hashlib.sha256(value.encode()).hexdigest()[:32]


def attempt(scope: str, key: str, rate: Rate, *, now: float | None = None) -> int:
    """Count one attempt of ``key`` in ``scope``: 0 if allowed, else the seconds until the
    window ends (a refused attempt is not counted)."""
    now = time.time() if now is None else now
    window = int(now // rate.seconds)
    base = f"rl:{scope}:{_hash(key)}:{window}"
    cache = caches[CACHE]
    slots = [f"{base}:{n}" for n in range(rate.limit)]
    taken = cache.get_many(slots)
    free = [slot for slot in slots if slot not in taken]
    for slot in free:
        # add() is atomic: when another process claims this slot first it answers False and the
        # next free one is tried. The timeout outlives the window so a slot can't be re-added.
        if cache.add(slot, 1, timeout=2 * rate.seconds):
            return 0
    if free and len(cache.get_many(slots)) < rate.limit:
        # add() also answers False when the database refused the write (DatabaseCache swallows
        # the error): slots are still free, so this is not a full window. Let the attempt through
        # rather than lock people out over a database hiccup; the form's own writes will tell.
        logger.warning("Rate limit %s: could not record an attempt; allowed it", scope)
        return 0
    return max(1, math.ceil((window + 1) * rate.seconds - now))


def rate_limited(
    scope: str, target: Callable[[HttpRequest], str]
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Limit a view's POSTs per client address and per ``target(request)`` (a username or email)
    with the rates of ``settings.RATE_LIMITS[scope]``; GETs are never limited."""

    def decorator(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
            if request.method == "POST":
                rates = settings.RATE_LIMITS[scope]
                wait = attempt(f"{scope}:address", client_ip(request), Rate(*rates["address"]))
                if not wait:
                    name = target(request).strip().lower()
                    wait = attempt(f"{scope}:target", name, Rate(*rates["target"]))
                if wait:
                    return too_many(request, scope, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


HEAVY_SCOPES = {
    "statistics": "statistics pages",
    "export": "log exports",
    "search": "log searches",
}


def rate(text: str) -> tuple[int, int]:
    """``"120/60"`` → (120 requests, per 60 seconds): the API's and the heavy reads' limits."""
    count, _, seconds = text.partition("/")
    return int(count), int(seconds or 60)


def too_many(request: HttpRequest, scope: str, wait: int) -> HttpResponse:
    response = TemplateResponse(
        request,
        "registration/rate_limited.html",
        {
            "scope": scope,
            "minutes": max(1, math.ceil(wait / 60)),
            "seconds": wait,
            "heavy": HEAVY_SCOPES.get(scope),
        },
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response
