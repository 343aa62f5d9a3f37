from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

import sheets.converters  # noqa: F401 — registers <id:…>
from api.v1 import api
from rolls.live import stream
from sheets.views import accounts
from web.ratelimit import rate_limited

# Django's default 400 page says nothing; ours says what was too large (413) or wrong.
handler400 = "web.errors.bad_request"
# Django's pages, except under /api/v1/, where they are the API's JSON errors.
handler403 = "web.errors.forbidden"
handler404 = "web.errors.not_found"
handler500 = "web.errors.server_error"

urlpatterns = [
    # The live stream first: an open stream keeps its request for as long as a tab stays open,
    # and the request keeps the list of every pattern tried before its own (ResolverMatch.tried),
    # a hundred small lists per stream when it came after the pages (docs/performance.md).
    path("campaigns/<id:pk>/events/", stream.campaign_events, name="campaign_events"),
    # Then the pages, rolls first: every request keeps that list too, and a roll that had to
    # fail the API's, the admin's and every page's patterns first made forty of them, garbage
    # the collector then walked (docs/performance.md). No pattern of one include matches a path
    # another's does, so the order changes nothing else.
    path("", include("rolls.urls")),
    path("", include("sheets.urls")),
    path("", include("discord.urls")),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
    # Before Django's auth URLs, so this rate-limited view answers at the same path and name.
    path(
        "accounts/password_reset/",
        rate_limited("password_reset", target=lambda request: request.POST.get("email", ""))(
            auth_views.PasswordResetView.as_view()
        ),
        name="password_reset",
    ),
    # Also before them: the password change that asks about API tokens (sheets/views/accounts.py).
    path("accounts/password_change/", accounts.password_change, name="password_change"),
    path("accounts/", include("django.contrib.auth.urls")),
]
