"""The API's resources of the rolls app: rollable targets with exact odds, rolls, follow-ups and the log
(docs/api.md).

Nothing here decides a rule or a permission of its own. Targets load through
``target_for_roller`` like the roll panel, a roll validates through the panel's own form and rolls
through ``make_roll`` like the page, the log filters through the log's form and
``visible_to`` like the log page, and entries are records (rolls/log/records.py): a blind roll's
roller gets the placeholder the page shows, everyone else nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict

from django import forms
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse
from ninja import Body, Path, Query, Router, Schema, Status
from pydantic import Field

from api.base import ERRORS, READ_THROTTLE, ROLL_THROTTLE, ApiError, invalid, needs_roll_scope
from api.campaigns import Id
from api.inputs import CURSOR
from api.retries import IdempotencyKey, idempotent_nonce, written
from api.roll_schemas import (
    Entry as Entry,
)
from api.roll_schemas import (
    EntryDetail,
    FollowUpIn,
    LogPage,
    PlanOut,
    RollIn,
    TargetOut,
    TargetQuery,
)
from log.models import RollEntry
from log.models.texts import with_texts
from log.tokens import PATTERN, entry_pk, entry_token
from rolls.log.filters import filtered_entries
from rolls.log.records import EXPORT_VALUES, Record, api_record, api_records
from rolls.rolling import followups
from rolls.rolling.access import entry_for_member
from rolls.rolling.actions import make_follow_up, make_roll
from rolls.rolling.display import Band
from rolls.rolling.followups import FollowUp
from rolls.rolling.forms.base import RollForm
from rolls.rolling.panel_values import NotSingle, bound_panel
from rolls.rolling.targets import Target, target_for_roller
from rolls.rolling.waiting import assist_unsaid, priced_targets
from sheets.access import campaign_for_member, character_for_reader
from sheets.models import Character, Membership, Refused
from sheets.systems import rule_system
from sheets.usage import heavy_wait
from web.http import AuthenticatedHttpRequest

router = Router(tags=["Rolls and the log"])

EntryId = Annotated[str, Path(pattern=f"^{PATTERN}$", description="An entry's id (16 hex digits)")]
Kind = Annotated[str, Path(pattern="^[a-z0-9-]{1,40}$", description="The row's kind")]

LOG_LIMIT = 100  # entries per log page at most (the default is 25, like the page)


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _odds(found: list[Band]) -> list[dict[str, str]]:
    return [
        {"outcome": b.code, "label": b.label, "chance": b.exact, "percent": b.percent}
        for b in found
    ]


def _target_url(request: HttpRequest, target: Target) -> str:
    path = reverse("api:target", args=[target.character.pk, target.kind, target.obj.pk])
    return request.build_absolute_uri(path)


def _field_type(field: forms.Field) -> str:
    if isinstance(field, forms.BooleanField):
        return "boolean"
    if isinstance(field, forms.ChoiceField):
        return "choice"
    if isinstance(field, forms.IntegerField):
        return "integer"
    return "text"


def _options(form: RollForm) -> list[dict[str, object]]:
    described = []
    for name, field in form.fields.items():
        bound = form[name]
        choices = [
            {"value": str(value), "label": str(label)}
            for value, label in getattr(field, "choices", ())
            if not isinstance(label, (list, tuple))
        ]
        described.append(
            {
                "name": name,
                "label": str(field.label or name),
                "type": _field_type(field),
                "value": bound.value(),
                "required": field.required,
                "locked": field.disabled,
                "help": str(field.help_text),
                "choices": choices,
                "multiple": isinstance(field, forms.MultipleChoiceField),
                "min": getattr(field, "min_value", None),
                "max": getattr(field, "max_value", None),
            }
        )
    return described


def _plan(target: Target, form: RollForm) -> dict[str, Any]:
    plan = form.plan
    assert plan is not None  # a valid form has one
    return {
        "kind": target.kind,
        "id": target.obj.pk,
        "label": target.label,
        "character": target.character.pk,
        "options": _options(form),
        "pool": plan.pool,
        "breakdown": plan.breakdown,
        "odds": _odds(plan.bands),
        "actions": [{"name": a.name, "label": a.label} for a in plan.actions],
        "notes": [str(note) for note in plan.notes],
    }


def _single(name: str) -> ApiError:
    return ApiError(422, "Some values are not valid.", {name: ["Give a single value."]})


def _query_values(request: HttpRequest) -> dict[str, object]:
    """The query string's options: a parameter given once is its value, a repeated one a list
    (which only a list option takes: a repeated single option is refused, never read as its
    last value)."""
    return {name: items[0] if len(items) == 1 else items for name, items in request.GET.lists()}


def _loaded_form(
    request: HttpRequest, pk: int, kind: str, target_pk: int, values: dict[str, object]
) -> tuple[Target, Membership, RollForm]:
    """The target (as the roll panel loads it: the roller's permission) and its panel's form,
    bound to the panel's defaults with ``values`` over them (rolls/rolling/panel_values.py)."""
    target, membership = target_for_roller(request, pk, kind, target_pk)  # type: ignore[arg-type]
    try:
        form = bound_panel(target, membership, values)
    except NotSingle as bad:
        raise _single(bad.name) from None
    except Refused as refusal:
        raise ApiError(409, str(refusal)) from None
    return target, membership, form


def entry_out(request: HttpRequest, entry_pk: int, membership: Membership) -> Record:
    rows = RollEntry.objects.visible_to(membership).filter(pk=entry_pk)
    base_url = request.build_absolute_uri("/").rstrip("/")
    return api_records(rows, full=membership.is_gm, base_url=base_url)[0]


def found_entry(request: HttpRequest, entry_id: str) -> tuple[RollEntry, Membership]:
    pk = entry_pk(entry_id)
    if pk is None:
        raise Http404("No such roll.")
    return entry_for_member(request, pk)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Targets and rolls
# ---------------------------------------------------------------------------------------------

# What a roll or a follow-up answers, and its limits. A placeholder (a blind roll's roller) has
# only its placeholder fields, not nulls for the rest: the export's record, key for key.
WRITES: dict[str, Any] = {
    "response": {201: Entry, 200: Entry, **ERRORS},
    "exclude_unset": True,
    "throttle": [READ_THROTTLE, ROLL_THROTTLE],
}


@router.get(
    "/characters/{pk}/targets",
    response={200: list[TargetOut], **ERRORS},
    summary="What a character can roll",
)
def targets(request: HttpRequest, pk: Id) -> list[dict[str, object]]:
    """Every rollable row of the sheet with its odds at the panel's default options — what the
    sheet shows beside each Roll button. Anyone who may read the character may list them."""
    character, membership = character_for_reader(request, pk)  # type: ignore[arg-type]
    return [
        {
            "kind": row.target.kind,
            "id": row.target.obj.pk,
            "label": row.target.label,
            "pool": row.pool,
            "odds": _odds(row.bands),
            "url": _target_url(request, row.target),
            "assist": row.assist or None,
        }
        for row in priced_targets(character, membership)
    ]


@router.get(
    "/characters/{pk}/targets/{kind}/{target_pk}",
    response={200: PlanOut, **ERRORS},
    url_name="target",
    summary="A target's options, pool and exact odds",
)
def target(
    request: HttpRequest, pk: Id, kind: Kind, target_pk: Id, query: Query[TargetQuery]
) -> dict[str, object]:
    """The roll panel as data: its options (with the values given as query parameters, the
    defaults otherwise; a list option repeats its parameter), the pool they make, and the exact
    odds. Only the character's player and the GM may open a panel, so only they get an answer.
    Bad options: 422 with the panel's message per option."""
    # The declared query only documents and bounds the lists: the options are read as the panel
    # reads them, every parameter by name.
    found, _, form = _loaded_form(request, pk, kind, target_pk, _query_values(request))
    if not form.is_valid() or form.plan is None:
        raise invalid(form)
    return _plan(found, form)


@router.post(
    "/characters/{pk}/targets/{kind}/{target_pk}/rolls",
    **WRITES,
    summary="Roll",
)
def roll(
    request: AuthenticatedHttpRequest,
    pk: Id,
    kind: Kind,
    target_pk: Id,
    body: Body[RollIn],
    response: HttpResponse,
    key: IdempotencyKey = None,
) -> Status[Record]:
    """Roll on the server with the panel's options, validated as the panel validates them;
    stored in the campaign's chain and announced live like a roll from the page. Answers the
    new entry (201), or, to a retry with the same nonce (``Idempotency-Key``), the entry that
    request made (200, ``Idempotent-Replayed: true``). Needs the ``roll`` scope and a user who
    may roll the character."""
    needs_roll_scope(request)
    body.nonce = idempotent_nonce(body.nonce, key)
    values = body.model_dump(exclude={"action"})
    found, membership, form = _loaded_form(request, pk, kind, target_pk, values)
    if unsaid := assist_unsaid(form, values):  # taking a waiting assist is said, not assumed
        raise ApiError(422, "The roll wasn't made: an assist is waiting.", {"use_assist": [unsaid]})
    if not form.is_valid() or form.plan is None:
        raise invalid(form, "The roll wasn't made: some options are not valid.")
    if body.action not in {action.name for action in form.plan.actions}:
        raise ApiError(
            422,
            "The roll wasn't made: no such action.",
            {"action": [f"Choose one of: {', '.join(a.name for a in form.plan.actions)}."]},
        )
    entry, _ = make_roll(request.user, found, form, body.action, form.data)
    return written(response, entry, entry_out(request, entry.pk, membership))


# ---------------------------------------------------------------------------------------------
# Entries and follow-ups
# ---------------------------------------------------------------------------------------------


class Offer(TypedDict):
    """A ``FollowUpOffer`` as the view builds it."""

    action: str
    label: str
    value: str
    problem: str
    url: str


class EntryRecord(Record, total=False):
    """An entry's record with what ``GET /entries/{id}`` adds: its follow-up and the offers."""

    follow_up: str | None
    follow_ups: list[Offer]


@router.get(
    "/entries/{entry_id}",
    response={200: EntryDetail, **ERRORS},
    exclude_unset=True,
    summary="An entry",
)
def entry(request: HttpRequest, entry_id: EntryId) -> EntryRecord:
    """One entry as the log shows it to you; with the follow-ups you may make now, if any."""
    found, membership = found_entry(request, entry_id)
    record = EntryRecord(**entry_out(request, found.pk, membership))
    readable = found.is_readable_by(membership)
    follow_up = found.follow_ups.first() if readable else None
    record["follow_up"] = entry_token(follow_up.pk) if follow_up else None
    character = found.character if found.info.followable else None
    offers: list[FollowUp] = []
    if readable and follow_up is None and character is not None and character.can_roll(membership):
        sheet = rule_system(found.system).sheet_of(character)
        offers = followups.offered(found, sheet, membership, has_follow_up=False)
    record["follow_ups"] = [
        {
            "action": offer.name,
            "label": offer.label,
            "value": offer.value,
            "problem": offer.problem,
            "url": request.build_absolute_uri(
                reverse("api:follow_up", args=[entry_id, offer.name])
            ),
        }
        for offer in offers
    ]
    return record


@router.post(
    "/entries/{entry_id}/follow-ups/{action}",
    **WRITES,
    url_name="follow_up",
    summary="Follow a roll up",
)
def follow_up(
    request: AuthenticatedHttpRequest,
    entry_id: EntryId,
    action: Annotated[str, Path(description="One of the entry's follow_ups")],
    body: Body[FollowUpIn],
    response: HttpResponse,
    key: IdempotencyKey = None,
) -> Status[Record]:
    """Destiny, Correct, a choice, a bought boon…: whatever the entry's card offers you, with the
    same rules (docs/rolling.md). Needs the ``roll`` scope. Answers the new entry (201), or to a
    retry with the same nonce (``Idempotency-Key``) the entry it made (200)."""
    needs_roll_scope(request)
    nonce = idempotent_nonce(body.nonce, key)
    found, membership = found_entry(request, entry_id)
    character: Character | None = found.character
    if character is None or not character.can_read(membership):
        raise Http404("No such roll.")
    if not character.can_roll(membership):
        raise ApiError(403, "Only the character's player or the GM can follow up this roll.")
    if not found.is_readable_by(membership):
        raise ApiError(403, "Only the GM sees this roll's result, so only the GM follows it up.")
    if action not in followups.names():
        raise Http404("No such follow-up.")
    new = make_follow_up(request.user, found, character, action, body.value, nonce)
    return written(response, new, entry_out(request, new.pk, membership))


# ---------------------------------------------------------------------------------------------
# The log
# ---------------------------------------------------------------------------------------------


class LogQuery(Schema):
    q: str = Field("", description="Words that must all match (character, skill, outcome, …)")
    character: str = Field("", description="A character's id")
    player: str = Field("", description="A player's user id")
    skill: str = Field("", description="A roll's label")
    outcome: str = Field("", description="An outcome code, any_success or any_failure")
    date_from: str = Field("", description="YYYY-MM-DD, in the campaign's time zone")
    date_to: str = Field("", description="YYYY-MM-DD, inclusive")
    session: str = Field("", description="A session's number: its entries, markers included")
    scene: str = Field("", description="With session: one of its scenes' number")
    order: Literal["newest", "oldest"] = Field(
        "newest", description="newest first (pages with before), or oldest first (with after)"
    )
    before: str = Field(
        "", pattern=CURSOR, description="order=newest: the “next” of the page before"
    )
    after: str = Field(
        "",
        pattern=CURSOR,
        description="order=oldest: the “next” of the page before, or the id of the last entry "
        "you have (to follow the log as it grows)",
    )
    limit: int = Field(25, ge=1, le=LOG_LIMIT)


def _cursor(query: LogQuery) -> tuple[str, int | None]:
    """The page's cursor parameter and the entry pk it names (None: from the start)."""
    name, other = ("before", "after") if query.order == "newest" else ("after", "before")
    if getattr(query, other):
        raise ApiError(
            422,
            "Some values are not valid.",
            {other: [f"Use “{name}” with order={query.order}."]},
        )
    value = getattr(query, name)
    pk = entry_pk(value) if value else None
    if value and pk is None:
        raise ApiError(422, "Some values are not valid.", {name: ["Not a cursor of this log."]})
    return name, pk


@router.get(
    "/campaigns/{pk}/log",
    response={200: LogPage, **ERRORS},
    exclude_unset=True,
    url_name="log",
    summary="The roll log",
)
def log(request: HttpRequest, pk: Id, query: Query[LogQuery]) -> dict[str, object]:
    """The campaign's log with the log page's filters and visibility, a page at a time by keyset
    cursor (stable while rolls arrive): newest first, each ``next`` passed as ``before``; or,
    with ``order=oldest``, oldest first from ``after`` — pass the last entry's id you have to
    read only what was rolled since."""
    campaign, membership = campaign_for_member(request, pk)  # type: ignore[arg-type]
    if query.q.strip() and heavy_wait(request.user.pk, "search"):
        raise ApiError(429, "Too many log searches from this account for now; wait a minute.")
    name, cursor_pk = _cursor(query)
    form, entries = filtered_entries(request, campaign, membership)  # type: ignore[arg-type]
    if form.errors:
        raise invalid(form, "Can't filter the log with these values.")
    if cursor_pk is not None:
        entries = (
            entries.filter(pk__lt=cursor_pk)
            if name == "before"
            else entries.filter(pk__gt=cursor_pk)
        )
    ordering = "-pk" if query.order == "newest" else "pk"
    rows = list(with_texts(entries).order_by(ordering).values(*EXPORT_VALUES)[: query.limit + 1])
    more = len(rows) > query.limit
    rows = rows[: query.limit]
    base_url = request.build_absolute_uri("/").rstrip("/")
    page = [api_record(row, full=membership.is_gm, base_url=base_url) for row in rows]
    cursor = entry_token(rows[-1]["pk"]) if more else None
    next_url = None
    if cursor:
        params = request.GET.copy()
        params[name] = cursor
        next_url = request.build_absolute_uri(
            reverse("api:log", args=[campaign.pk]) + "?" + params.urlencode()
        )
    return {"entries": page, "next": cursor, "next_url": next_url}
