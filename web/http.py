"""Request types for annotating views, so the type checker knows what our middleware adds.

django-htmx's middleware (settings.MIDDLEWARE) sets ``request.htmx`` on every request; Django's
``HttpRequest`` doesn't declare it. Views annotate ``request: HtmxHttpRequest`` (as django-htmx's
documentation suggests) to use it. These classes are never instantiated: Django still builds its
own request objects, and the annotation only describes them.
"""

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.http import HttpRequest, QueryDict
from django_htmx.middleware import HtmxDetails


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
