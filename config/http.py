"""Request types for annotating views, so the type checker knows what our middleware adds.

django-htmx's middleware (settings.MIDDLEWARE: ours, below) sets ``request.htmx`` on every request; Django's
``HttpRequest`` doesn't declare it. Views annotate ``request: HtmxHttpRequest`` (as django-htmx's
documentation suggests) to use it. These classes are never instantiated: Django still builds its
own request objects, and the annotation only describes them.
"""

from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import django_htmx.middleware
from django.contrib.auth.models import User
from django.http import HttpRequest, QueryDict
from django.http.response import HttpResponseBase


class HtmxDetails(django_htmx.middleware.HtmxDetails):
    """django-htmx's ``request.htmx``, reading its headers straight from ``request.META``.

    django-htmx reads them through ``request.headers``, which turns every header of the request
    into a dict the first time it is used: 1.5% of a roll's instructions, to learn whether it came
    from htmx (docs/performance.md). ``META`` holds the same values under the CGI names."""

    def _get_header_value(self, name: str) -> str | None:
        meta, key = self.request.META, "HTTP_" + name.upper().replace("-", "_")
        value = meta.get(key) or None
        if value and meta.get(f"{key}_URI_AUTOENCODED") == "true":
            value = unquote(value)
        return value


class HtmxMiddleware(django_htmx.middleware.HtmxMiddleware):
    """django-htmx's middleware with :class:`HtmxDetails`."""

    def __call__(self, request: HttpRequest) -> Any:
        request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
        return self.__acall__(request) if self.async_mode else self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        return await self.get_response(request)  # type: ignore[misc]


class HtmxHttpRequest(HttpRequest):
    """Any request that went through django-htmx's middleware: every request Poolside serves."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request to a view behind ``login_required``: ``request.user`` is a ``User``, never the
    anonymous user."""

    user: User

    if TYPE_CHECKING:

        async def auser(self) -> User: ...


def form_data(request: HttpRequest) -> QueryDict | None:
    """Form data for a POST, even an empty one (``request.POST or None`` would treat it as a GET)."""
    return request.POST if request.method == "POST" else None
