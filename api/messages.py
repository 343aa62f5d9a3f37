"""The API's messages (docs/messages.md, docs/api.md): post a message, correct your own. Both go
through ``rolls.messages.actions`` with the composer's own forms, so the audiences, the voices
each member may use, the length limits and MESSAGE_RATE are the pages' exactly. A message is an
entry of the log: the log's endpoint lists it to those who may read it, and /entries/ opens it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from ninja import Body, Router, Status
from pydantic import ConfigDict, Field
from pydantic.json_schema import JsonDict

from api.base import ERRORS, READ_THROTTLE, ROLL_THROTTLE, ApiError, invalid, needs_roll_scope
from api.campaigns import Id
from api.inputs import NOT_BLANK, SPEAKER, BodyIn, Text
from api.rolls import Entry, EntryId, entry_out, found_entry
from rolls.log.records import Record
from rolls.messages import actions
from rolls.messages.forms import CorrectionForm, MessageForm, choice_rows, split_choices
from rolls.messages.text import MAX_LENGTH
from sheets.access import campaign_for_member
from web.http import AuthenticatedHttpRequest

router = Router(tags=["Messages"])

WRITES: dict[str, Any] = {
    "response": {201: Entry, **ERRORS},
    "exclude_unset": True,
    "throttle": [READ_THROTTLE, ROLL_THROTTLE],
}


# The text is required (the schema says so) but checked by the form, after the permission
# checks: a non-member gets the 404 of every object inside a campaign, never a 422 for a body
# without it. A text given but empty or blank is refused by its constraints at once.
TEXT_REQUIRED = ConfigDict(json_schema_extra={"required": ["text"]})


def _no_default(schema: JsonDict) -> None:
    schema.pop("default", None)  # required: the "" that stands in for a missing text isn't one


class MessageIn(BodyIn):
    model_config = TEXT_REQUIRED

    text: Text = Field(
        "",
        min_length=1,
        max_length=MAX_LENGTH,
        pattern=NOT_BLANK,
        description="Markdown: emphasis, strong, ~~struck~~, `code`, links; not blank",
        json_schema_extra=_no_default,
    )
    speaker: Text = Field(
        "ooc",
        pattern=SPEAKER,
        description="“ooc” (out of character), “narration” (the GM), or the id of a character "
        "you may speak as (your own; the GM's NPCs that players can see)",
    )
    audience: Literal["everyone", "gm", "whisper"] = Field(
        "everyone", description="“gm” is a player's message to the GM alone"
    )
    to: list[Annotated[Text, Field(min_length=1, max_length=150)]] = Field(
        default_factory=list,
        description="A whisper's recipients by username (the GM reads every whisper anyway)",
    )


class CorrectionIn(BodyIn):
    model_config = TEXT_REQUIRED

    text: Text = Field(
        "",
        min_length=1,
        max_length=MAX_LENGTH,
        pattern=NOT_BLANK,
        json_schema_extra=_no_default,
    )


@router.post("/campaigns/{pk}/messages", **WRITES, url_name="messages", summary="Post a message")
def message_post(
    request: AuthenticatedHttpRequest, pk: Id, body: Body[MessageIn]
) -> Status[Record]:
    """Post a message to the campaign's log, as the log's composer does. Needs the ``roll``
    scope; 429 over the message rate (``Retry-After`` says when)."""
    needs_roll_scope(request)
    campaign, membership = campaign_for_member(request, pk)
    choices = split_choices(choice_rows(membership))
    ids = {name: str(pk) for pk, name in choices[1]}
    unknown = [name for name in body.to if name not in ids]
    if unknown:
        detail = "Not someone a whisper can be to: " + ", ".join(unknown[:5])
        raise ApiError(422, detail, {"to": [detail]})
    data = body.model_dump() | {"to": [ids[name] for name in body.to]}
    form = MessageForm(data, membership=membership, campaign=campaign, choices=choices)
    if not form.is_valid():
        raise invalid(form)
    entry = actions.post_message(request.user, membership, campaign, **form.message())
    return Status(201, entry_out(request, entry.pk, membership))


@router.post(
    "/entries/{entry_id}/corrections",
    **WRITES,
    url_name="message_correct",
    summary="Correct your message",
)
def message_correct(
    request: AuthenticatedHttpRequest, entry_id: EntryId, body: Body[CorrectionIn]
) -> Status[Record]:
    """Correct a message you wrote (any version of it): a new entry that follows its newest
    version, never an overwrite. 409 for someone else's message or a roll. Needs the ``roll``
    scope."""
    needs_roll_scope(request)
    entry, membership = found_entry(request, entry_id)
    form = CorrectionForm({"text": body.text})
    if not form.is_valid():
        raise invalid(form)
    if not entry.info.correctable:
        raise ApiError(409, "Only a message is corrected.")
    correction = actions.correct_message(request.user, entry, form.cleaned_data["text"])
    return Status(201, entry_out(request, correction.pk, membership))
