"""Portraits: the page that uploads, replaces or removes one, and the view that serves its files
to those who may read the character (never as public media; docs/portraits.md)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_safe

from sheets import portraits
from sheets.access import character_for_editor, character_for_reader
from sheets.forms import PortraitForm
from sheets.models import Character
from web.http import AuthenticatedHttpRequest
from web.ratelimit import Rate, attempt, rate
from web.security import allow_body_of


@login_required
@require_http_methods(["GET", "POST"])
@csrf_exempt  # only until the body limit is raised: _portrait_page checks the token itself
def character_portrait(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The portrait page: the current portrait, a plain multipart form to upload a new one and
    a Remove button. A refused file is answered with the page and the reason beside the field;
    the portrait already there stays."""
    if request.method == "POST":
        # A picture may be larger than any other body (MAX_REQUEST_BYTES): this request alone
        # gets PORTRAIT_REQUEST_BYTES, so a file over PORTRAIT_MAX_BYTES is still read far
        # enough to be refused beside its field.
        allow_body_of(request, settings.PORTRAIT_REQUEST_BYTES)
    return _portrait_page(request, pk)


@csrf_protect
def _portrait_page(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, _ = character_for_editor(request, pk)
    form = PortraitForm()
    if request.method == "POST" and "remove" in request.POST:
        if character.portrait:
            portraits.remove(character)
            messages.success(request, f"Removed {character.name}'s portrait.")
        return redirect(character)
    wait = 0
    if request.method == "POST":
        wait = _upload_wait(request.user.pk)
        refusal = (
            f"You have uploaded many portraits in a short time. Please wait {wait} seconds "
            "and send it again."
        )
        form = PortraitForm(request.POST, request.FILES, refusal=refusal if wait else "")
        if form.is_valid():
            had = bool(character.portrait)
            portraits.store(character, form.cleaned_data["portrait"])
            messages.success(
                request, f"{'Replaced' if had else 'Added'} {character.name}'s portrait."
            )
            return redirect(character)
    # Refused: the file's fault (400), the user's upload rate (429) or no decoding turn free
    # in this process (503); the last two say when to try again.
    status = 429 if wait else 503 if form.busy else 400 if form.is_bound else 200
    response = render(
        request,
        "sheets/character_portrait.html",
        {"character": character, "campaign": character.campaign, "form": form},
        status=status,
    )
    if status in (429, 503):
        response["Retry-After"] = str(wait or settings.PORTRAIT_DECODE_WAIT or 1)
    return response


def _upload_wait(user_id: int) -> int:
    """Count one upload of the user against settings.PORTRAIT_RATE: 0 if allowed, else the
    seconds until the next (a script looping on uploads would hold the decoding turns)."""
    count, seconds = rate(settings.PORTRAIT_RATE)
    return attempt("portrait", str(user_id), Rate(count, seconds)) if count else 0


@login_required
@require_safe
def character_portrait_file(
    request: AuthenticatedHttpRequest, pk: int, version: str, size: str
) -> HttpResponse:
    """One stored size of the character's current portrait, to a member who may read the
    character: a hidden NPC's is a 404 for players, as its sheet is, whatever the address.

    The address carries the portrait's random key, so an old one stops working when the
    portrait is replaced or removed, and a browser never shows a stale picture."""
    character, _ = character_for_reader(request, pk)
    if size not in portraits.SIZES or not character.portrait or version != character.portrait:
        raise Http404("No such portrait.")
    return _file(version, size)


def _file(key: str, size: str) -> HttpResponse:
    stored = portraits.open_file(key, size)
    if stored is None:
        raise Http404("No such portrait.")
    with stored:
        # At most a few dozen KB (512 px WebP): read whole rather than streamed.
        body = stored.read()
    response = HttpResponse(body, content_type=portraits.CONTENT_TYPE)
    response["ETag"] = f'"{key}-{size}"'
    # SecurityMiddleware adds nosniff too; said here as well because this body came from a user.
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Disposition"] = "inline"
    return response


@require_safe
def portrait_avatar(request: HttpRequest, token: str) -> HttpResponse:
    """A portrait as the webhooks' avatar (``avatar_url``): no login — Discord fetches it — but
    only by a token this site signed (sheets/portraits.py), only while the portrait is the
    character's current one, and never a hidden NPC's (docs/portraits.md)."""
    named = portraits.avatar_of(token)
    if named is None:
        raise Http404("No such portrait.")
    pk, key = named
    character = Character.objects.filter(pk=pk, hidden_from_players=False).first()
    if character is None or not key or character.portrait != key:
        raise Http404("No such portrait.")
    return _file(key, "thumb")
