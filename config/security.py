"""Request helpers for security features that must not trust what a client can forge."""

from django.conf import settings
from django.http import HttpRequest


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
