"""The home page and sign-up."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from config.http import HtmxHttpRequest, form_data
from config.ratelimit import rate_limited
from sheets.forms import (
    SignupForm,
)
from sheets.models import (
    Campaign,
)

User = get_user_model()


# ---------------------------------------------------------------------------------------------
# Home and accounts
# ---------------------------------------------------------------------------------------------


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    campaigns = Campaign.objects.for_home(user) if user.is_authenticated else []
    return render(request, "sheets/home.html", {"campaigns": campaigns})


@require_http_methods(["GET", "POST"])
@rate_limited("signup", target=lambda request: request.POST.get("username", ""))
def signup(request: HtmxHttpRequest) -> HttpResponse:
    # The form must say when a username is taken; that is the only difference between a taken and
    # a free name (no email check, the same queries either way), and the rate limit keeps anyone
    # from asking about many names (docs/permissions.md, "Authentication and abuse").
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(form_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the name between the form's check and the insert.
            form.add_error("username", form.instance.unique_error_message(User, ["username"]))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to Poolside, {user.username}.")
            next_url = request.POST.get("next", "")
            if next_url.startswith("/invite/"):
                return redirect(next_url)
            return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": request.GET.get("next", request.POST.get("next", ""))},
        status=status,
    )
