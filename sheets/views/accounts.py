"""The home page (the landing page when logged out), sign-up and the one-click demo logins."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate, get_user_model, login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.hashers import check_password
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from sheets.forms import (
    ApiTokenForm,
    PasswordChangeWithTokensForm,
    SignupForm,
)
from sheets.invites import pending_invite
from sheets.management.commands.demo import PASSWORD as DEMO_PASSWORD
from sheets.management.commands.demo import USERS as DEMO_USERS
from sheets.models import (
    MAX_ACTIVE_TOKENS,
    ApiToken,
    Campaign,
    TokenLimitReached,
)
from web.http import AuthenticatedHttpRequest, HtmxHttpRequest, form_data
from web.ratelimit import rate_limited

User = get_user_model()


# ---------------------------------------------------------------------------------------------
# Home and accounts
# ---------------------------------------------------------------------------------------------


@require_safe  # GET and HEAD: a monitor's or a proxy's HEAD / is answered like a GET, not 405
def home(request: HtmxHttpRequest) -> HttpResponse:
    user = request.user
    if user.is_authenticated:
        context = {
            "campaigns": Campaign.objects.for_home(user).with_my_characters(user),
            "invite": pending_invite(request),
        }
        return render(request, "sheets/home.html", context)
    return render(request, "sheets/home.html", {"demo_users": demo_users()})


def demo_users() -> list[str]:
    """The demo users one click can log in as: none unless DEMO_LOGINS is on, then those of
    `manage.py demo` that exist and still have the published demo password, in the demo's order."""
    if not settings.DEMO_LOGINS:
        return []
    found = User.objects.filter(username__in=DEMO_USERS, is_active=True).only(
        "username", "password"
    )
    ready = set()
    for user in found:
        # A password check is a deliberately slow hash; the landing page must not pay three per
        # visit. The answer is cached under the stored hash, which changes with the password.
        key = "demo-password:" + hashlib.sha256(user.password.encode()).hexdigest()
        ok = cache.get(key)
        if ok is None:
            # hashers.check_password, not user.check_password: no hash upgrade, so a GET writes
            # nothing.
            ok = check_password(DEMO_PASSWORD, user.password)
            cache.set(key, ok, 3600)
        if ok:
            ready.add(user.username)
    return [name for name in DEMO_USERS if name in ready]


@require_POST
def demo_login(request: HtmxHttpRequest) -> HttpResponse:
    """Log in as a demo user with one click (the landing page's "Try it as …" forms).

    404 unless DEMO_LOGINS is on and the posted user is one of the demo's that still has the
    demo password: a demo user whose password was changed is an account like any other, and a
    deployment without the setting has no such door at all. The password is checked through
    ``authenticate`` like the login form's, so django-axes sees the attempt: a username/address
    pair locked out for wrong passwords stays locked out here (AxesMiddleware answers 429), and a
    refused attempt counts as a failure. What this skips is only typing a password that is
    published anyway (README, `make run`), so it is no stronger than the login form with it.
    """
    username = request.POST.get("username", "")
    if not settings.DEMO_LOGINS or username not in DEMO_USERS:
        raise Http404("No demo login here.")
    user = authenticate(request, username=username, password=DEMO_PASSWORD)
    if user is None:
        raise Http404("No demo login here.")
    login(request, user)
    messages.success(
        request,
        f"You are logged in as {user.username}, a demo user. Everything here is demo data: "
        "roll, edit and explore freely.",
    )
    return redirect("home")


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


@login_required
@require_http_methods(["GET", "POST"])
def password_change(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Django's password change (same URL, template and done page), which also asks whether the
    user's API tokens are revoked — yes unless they untick it — and says what became of them."""
    form = PasswordChangeWithTokensForm(request.user, form_data(request))
    if request.method == "POST" and form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)  # this browser stays logged in, as Django's does
        said = ""
        if form.revokes_tokens():
            if revoked := ApiToken.objects.revoke_all(user):
                said = (
                    f" {revoked} API token{'s were' if revoked != 1 else ' was'} revoked: scripts"
                    " and bots using them stop working. Make new ones on your account page."
                )
        else:
            kept = ApiToken.objects.filter(user=user).active().count()
            said = f" Your API tokens were kept: {kept} still work{'s' if kept == 1 else ''}."
        messages.success(request, f"Your password was changed.{said}")
        return redirect("password_change_done")
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/password_change_form.html", {"form": form}, status=status)


# ---------------------------------------------------------------------------------------------
# The account page: API tokens
# ---------------------------------------------------------------------------------------------


def _account_context(request: AuthenticatedHttpRequest, form: ApiTokenForm) -> dict[str, object]:
    return {
        "form": form,
        "tokens": ApiToken.objects.filter(user=request.user),
        "api_docs_url": reverse("api:openapi-view"),
        "max_tokens": MAX_ACTIVE_TOKENS,
    }


@login_required
@require_http_methods(["GET", "POST"])
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The user's account: password, and personal access tokens for the API (docs/api.md).

    A new token is shown in the answer to the POST that made it, once: it isn't stored anywhere
    it could be shown from again (not in the session, not in a message), so there is no redirect
    to show it after. Reloading that answer asks to post again, as browsers do."""
    form = ApiTokenForm(form_data(request))
    created = None
    if request.method == "POST" and form.is_valid():
        try:
            token, raw = ApiToken.issue(
                request.user,
                name=form.cleaned_data["name"],
                scope=form.cleaned_data["scope"],
                expires_at=form.expires_at(),
            )
        except TokenLimitReached as full:
            # MAX_ACTIVE_TOKENS: said above the form, which keeps what was typed.
            form.add_error(None, str(full))
        else:
            created = {"token": token, "raw": raw}
            form = ApiTokenForm()
    # htmx swaps only a 2xx: refused, the section comes back as a 200 with the messages (the cap
    # on active tokens included) beside the form; a plain POST gets its 400.
    refused = request.method == "POST" and created is None
    status = 400 if refused and not request.htmx else 200
    context = _account_context(request, form) | {"created": created}
    template = "sheets/account.html#tokens" if request.htmx else "sheets/account.html"
    return render(request, template, context, status=status)


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Revoke one of the user's own tokens; anyone else's is a 404, like one that doesn't exist."""
    token = get_object_or_404(ApiToken, pk=pk, user=request.user)
    token.revoke()
    if request.htmx:
        context = _account_context(request, ApiTokenForm()) | {"revoked": token}
        return render(request, "sheets/account.html#tokens", context)
    messages.success(request, f"The token “{token.name}” was revoked; it no longer works.")
    return redirect("account")
