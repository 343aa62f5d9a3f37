"""The public keys page, the keys as JSON and the standalone verifier, for anyone: they are what a
player checks the server against, so they ask for no login (docs/verifiable-dice.md)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

import proofs.protocol
from log.models.keys import published_keys

# The protocol module is the standalone verifier: served as it is, under the name players run.
VERIFIER = Path(proofs.protocol.__file__)


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
def verifier(request: HttpRequest) -> FileResponse:
    """The standalone verifier, as the server runs it: one Python file needing only PyNaCl."""
    response = FileResponse(
        VERIFIER.open("rb"),
        as_attachment=True,
        filename="poolside_verify.py",
        content_type="text/x-python; charset=utf-8",
    )
    return response
