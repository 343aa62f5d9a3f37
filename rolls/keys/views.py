"""The public keys page, the keys as JSON and the standalone verifier, for anyone: they are what a
player checks the server against, so they ask for no login (docs/verifiable-dice.md)."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from log.models.keys import published_keys
from proofs.bundle import standalone_source


@require_GET
def keys_page(request: HttpRequest) -> HttpResponse:
    """Every key the server has used, newest first, with the span each signed."""
    keys = [
        key
        | {
            "from": datetime.fromisoformat(key["from"]),
            "until": key["until"] and datetime.fromisoformat(key["until"]),
        }
        for key in reversed(published_keys())
    ]
    return render(request, "rolls/keys.html", {"keys": keys})


@require_GET
def keys_json(request: HttpRequest) -> JsonResponse:
    """``{"keys": [...]}``, oldest first: the file the standalone verifier takes as ``--keys``."""
    response = JsonResponse({"keys": published_keys()}, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = 'inline; filename="poolside-keys.json"'
    return response


@require_GET
def verifier(request: HttpRequest) -> HttpResponse:
    """The standalone verifier, as the server runs it: the protocol module and what it imports
    of the package, written into one Python file needing only PyNaCl (proofs/bundle.py)."""
    response = HttpResponse(
        standalone_source().encode("utf-8"), content_type="text/x-python; charset=utf-8"
    )
    response["Content-Disposition"] = 'attachment; filename="poolside_verify.py"'
    return response
