"""A member's signed view of the log: the answer a browser checks its saved head against, and the
whole view as a file for the standalone verifier (docs/verifiable-dice.md#your-view-of-the-log)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.http import require_GET

from log.models.keys import published_keys
from proofs.protocol import view_start, view_step
from rolls.log.exports import streamed
from rolls.seen.chain import VALUES, answer, item, newest_entry, role, seen_entries, signed
from sheets.access import campaign_for_member
from sheets.models import Membership
from sheets.usage import heavy_limited
from web.abandon import stops_when_abandoned
from web.http import AuthenticatedHttpRequest

CHUNK = 2000


def _position(value: str | None, name: str) -> int | None:
    if value is None or value == "":
        return None
    if not value.isdigit() or len(value) > 12:
        raise ValueError(f"“{name}” must be a count of items (0 or more), not “{value[:40]}”.")
    return int(value)


@login_required
@require_GET
def seen_head(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The member's view head, signed, and the items to fold onto what their browser saved:
    ``since`` (the saved length), ``start`` (the next page's position)."""
    _, membership = campaign_for_member(request, pk)
    try:
        since = _position(request.GET.get("since"), "since")
        start = _position(request.GET.get("start"), "start")
    except ValueError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain; charset=utf-8")
    response = JsonResponse(answer(membership, since, start))
    response["Cache-Control"] = "private, no-store"
    return response


@stops_when_abandoned
@login_required
@require_GET
@heavy_limited("export")
def seen_export(request: AuthenticatedHttpRequest, pk: int) -> StreamingHttpResponse:
    """The member's whole view as one JSON file, its head signed at the end: what
    ``poolside_verify.py VIEW.json --saved-head HEAD.json`` checks."""
    campaign, membership = campaign_for_member(request, pk)
    opening = {
        "format": "poolside-view",
        "version": 1,
        "campaign": {"id": campaign.pk, "name": campaign.name, "system": campaign.system},
        "member": membership.user_id,
        "role": role(membership),
        "keys": published_keys(),
    }
    response = StreamingHttpResponse(
        streamed(request, _view_parts(membership, opening)), content_type="application/json"
    )
    name = f"poolside-campaign-{campaign.pk}-view.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _view_parts(membership: Membership, opening: dict[str, object]) -> Iterator[str]:
    """The file as it streams: the opening, the items a chunk at a time (hashed as they go),
    then the head signed over exactly what was sent."""
    yield json.dumps(opening, ensure_ascii=False)[:-1] + ', "items": [\n'
    running, count, after = view_start(membership.campaign_id, membership.user_id), 0, 0
    newest = newest_entry(membership.campaign_id)
    while True:
        found = seen_entries(membership).filter(pk__gt=after, pk__lte=newest).order_by("pk")
        rows = list(found.values(*VALUES)[:CHUNK])
        lines = []
        for row in rows:
            each = item(row)
            running, count = view_step(running, each), count + 1
            lines.append(("," if count > 1 else "") + json.dumps(each, ensure_ascii=False))
        if lines:
            yield "\n".join(lines) + "\n"
        if len(rows) < CHUNK:
            break
        after = rows[-1]["pk"]
    yield '], "head": ' + json.dumps(signed(membership, count, running)) + "}\n"
