from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.ratelimit import rate_limited

# Django's default 400 page says nothing; ours says what was too large (413) or wrong.
handler400 = "config.errors.bad_request"

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's auth URLs, so this rate-limited view answers at the same path and name.
    path(
        "accounts/password_reset/",
        rate_limited("password_reset", target=lambda request: request.POST.get("email", ""))(
            auth_views.PasswordResetView.as_view()
        ),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("sheets.urls")),
    path("", include("rolls.urls")),
]
