"""The benchmark servers' own views: the bare baseline (the least a Django POST view can do) and
the statement count."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from benchmarks import statements as counted
from benchmarks.models import BareHit


@require_POST
def bare(request: HttpRequest) -> HttpResponse:
    """One INSERT, one small template — same middleware (CSRF, sessions, CSP, axes) as the app."""
    hit = BareHit.objects.create(note="bench")
    return render(request, "benchmarks/bare.html", {"hit": hit})


def statements(request: HttpRequest) -> JsonResponse:
    """How many SQL statements this server process has run so far (benchmarks/statements.py);
    the click benchmark reads it before and after each click. Runs none itself."""
    return JsonResponse({"statements": counted.total()})
