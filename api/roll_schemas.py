"""The API's schemas for rolls, entries and the log: what the targets, a roll and a follow-up
take and answer (api/rolls.py serves them; the OpenAPI document is made from them)."""

from __future__ import annotations

from typing import Annotated

from ninja import Schema
from pydantic import ConfigDict, Field

from api.campaigns import MAX_ID
from api.inputs import NO_NUL, NONCE_PATTERN, BodyIn, OptionsIn, Text
from rules import cogent


class Odds(Schema):
    outcome: str
    label: str
    chance: str = Field(description="Exact, as a fraction: “91/216”")
    percent: str


class TargetOut(Schema):
    kind: str
    id: int
    label: str
    pool: dict[str, object] = Field(
        description="The dice at the panel's default options, with the same keys as the "
        "target's detail (docs/api.md, “Pools”)"
    )
    odds: list[Odds] = Field(description="At the panel's default options")
    url: str = Field(description="This target in the API: options, pool and odds")
    assist: str | None = Field(
        None,
        description="An assist is waiting for the character's next action (shown only to who "
        "may roll it): its effect; the pool and odds take it, as the target's detail does",
    )


class Choice(Schema):
    value: str
    label: str


class Option(Schema):
    name: str
    label: str
    type: str = Field(description="choice, integer, boolean or text")
    value: object = None
    required: bool
    locked: bool = Field(description="Set by the GM's call or contest; can't be changed")
    help: str
    choices: list[Choice] = Field(default_factory=list)
    multiple: bool = Field(
        False, description="Takes several of its choices: a list (its value is a list too)"
    )
    min: int | None = None
    max: int | None = None


class Action(Schema):
    name: str
    label: str


class PlanOut(Schema):
    kind: str
    id: int
    label: str
    character: int
    options: list[Option]
    pool: dict[str, object] = Field(
        description="The dice these options make, with the same keys as the targets list's "
        "(docs/api.md, “Pools”)"
    )
    breakdown: str
    odds: list[Odds]
    actions: list[Action]
    notes: list[str]


class Entry(Schema):
    """A log entry as the JSON export writes it (docs/log-tools.md), with its id and permalink.
    ``placeholder`` entries (the roller's own blind roll) carry only the placeholder fields.
    A message's text (hash version 6) comes with its commitment and salt; null once removed."""

    id: str
    url: str
    time: str
    character: str
    player: str
    system: str
    kind: str
    visibility: str
    label: str
    placeholder: bool
    options: dict[str, object] | None = None
    pool: dict[str, object] | None = None
    breakdown: str | None = None
    faces: list[dict[str, object]] | None = None
    outcome: str | None = None
    outcome_label: str | None = None
    detail: str | None = None
    result: dict[str, object] | None = None
    odds: str | None = None
    odds_table: dict[str, object] | None = None
    resources: dict[str, object] | list[object] | None = None
    follows: str | None = None
    hash: str | None = None
    proof: dict[str, object] | None = Field(
        None,
        description="The dice's proof ({} when no dice came from the VRF): check it with the "
        "published keys (GET /keys) as docs/verifiable-dice.md says",
    )
    commitments: dict[str, str] | None = Field(
        None,
        description="Hash version 6: each committed field's SHA-256(salt ‖ text), hex "
        "(docs/roll-log.md); the text is the field's value, null once removed",
    )
    salts: dict[str, str] | None = Field(None, description="Each committed field's salt, hex")

    # The GM's records also carry the chain (seq, prev_hash, salt, …).
    model_config = ConfigDict(extra="allow")


class FollowUpOffer(Schema):
    action: str
    label: str
    value: str
    problem: str = Field(description="Why it can't be done now; empty when it can")
    url: str


class EntryDetail(Entry):
    follow_up: str | None = Field(None, description="The id of the entry that follows this up")
    follow_ups: list[FollowUpOffer] = Field(
        default_factory=list, description="What you may do next with this roll (as its card offers)"
    )


class LogPage(Schema):
    entries: list[Entry]
    next: str | None = Field(
        description="The cursor of the next page (as “before”, or “after” with order=oldest); "
        "null on the last page"
    )
    next_url: str | None


# The roll panels' options that take several values (docs/api.md), declared so that the schema
# says they are lists: a list in a roll's body, a repeated parameter in a target's query. Every
# panel's multi-valued field must be here (tests/rolls/test_api_lists.py checks all systems).
LIST_MAX = 20  # values in one list option at most: more than any panel offers
ListOption = list[Annotated[Text, Field(max_length=40)]]
CIRCUMSTANCES = (
    "Cogent, combat skills: the combat circumstances, any of "
    f"{', '.join(cogent.COMBAT_CIRCUMSTANCES)} (as the panel's tick boxes)"
)


NONCE = (
    "Your part of the dice's input: 8 to 64 letters, digits, '-' or '_', new for each roll "
    "(e.g. 32 random hex digits). The server can't know it before the roll, so it can't have "
    "chosen the dice in advance; left out, the server makes one (docs/verifiable-dice.md)"
)


class RollIn(OptionsIn):
    """The roll panel's options, by the names the target's ``options`` lists; leave one out for
    its default. ``action`` is one of the target's actions (default ``roll``); ``call`` or
    ``contest`` answers a GM's request (its id, as the sheet's prompt links). An option that
    takes several values (``multiple`` in the target's options) is a list."""

    # Undeclared fields are kept (OptionsIn): the options are the panel's, which differ by
    # system (the target lists them).
    action: Text = Field("roll", max_length=40)
    call: int | None = Field(None, ge=1, le=MAX_ID)
    contest: int | None = Field(None, ge=1, le=MAX_ID)
    circumstances: ListOption | None = Field(None, max_length=LIST_MAX, description=CIRCUMSTANCES)
    nonce: Text | None = Field(None, pattern=NONCE_PATTERN, description=NONCE)


class TargetQuery(Schema):
    """A target's options in the query string: any option by name (the target lists them; only
    the lists are declared here), each once; a list option repeats its parameter."""

    circumstances: ListOption = Field(
        default_factory=list, max_length=LIST_MAX, description=CIRCUMSTANCES
    )


class FollowUpIn(BodyIn):
    value: Text = Field(
        "",
        max_length=500,
        pattern=NO_NUL,
        description="The pick, for “choice”, “extra_boon” and “punch” (“reroll” or “stop”)",
    )
    nonce: Text = Field("", pattern=NONCE_PATTERN, description=NONCE)
