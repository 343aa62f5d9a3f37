"""The API's view of the log (docs/api.md, docs/verifiable-dice.md#your-view-of-the-log): the
token's user's view of a campaign's log, signed, with the items to fold onto a head a script saved
— the same answer the log page's check gets."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import Field

from api.base import ERRORS, READ_THROTTLE
from api.campaigns import Id
from rolls.seen.chain import answer
from sheets.access import campaign_for_member

router = Router(tags=["Your view of the log"])

MAX_POSITION = 10**12


class ViewQuery(Schema):
    since: int | None = Field(
        None, ge=0, le=MAX_POSITION, description="The length of the head you saved, if any"
    )
    start: int | None = Field(
        None, ge=0, le=MAX_POSITION, description="The next page's position (an answer's “next”)"
    )


@router.get(
    "/campaigns/{pk}/view",
    response={200: dict[str, object], **ERRORS},
    throttle=[READ_THROTTLE],
    summary="Your view of the log, signed",
    url_name="view",
)
def view(request: HttpRequest, pk: Id, query: Query[ViewQuery]) -> dict[str, object]:
    """Your view of the campaign's log — every entry you were shown, as you were shown it — as a
    signed head (``head``: length, hash, key, signature), and the items to fold onto the head you
    saved: from ``start`` (a checkpoint's length and hash) to the end, ``first`` being the first
    item's position, a page at a time (``next``). Fold them as docs/verifiable-dice.md says: the
    result must pass through your saved head and end at the signed one."""
    _, membership = campaign_for_member(request, pk)  # type: ignore[arg-type]
    return answer(membership, query.since, query.start)
