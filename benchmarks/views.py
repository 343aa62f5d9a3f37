"""The baseline for the roll-request benchmark: the least a Django POST view can do."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from benchmarks.models import BareHit


@require_POST
def bare(request: HttpRequest) -> HttpResponse:
    """One INSERT, one small template — same middleware (CSRF, sessions, CSP, axes) as the app."""
    hit = BareHit.objects.create(note="bench")
    return render(request, "benchmarks/bare.html", {"hit": hit})
