"""The API's sessions and scenes (docs/sessions.md, docs/api.md): every member reads the list,
the GM starts a session, marks a scene and ends the session — through ``rolls.sessions.actions``,
as the GM table's buttons do. A marker is an entry of the log, so the log's own endpoint lists
it (and takes ``session`` and ``scene`` as filters)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from ninja import Body, Query, Router, Schema, Status
from pydantic import Field

from api.base import ERRORS, READ_THROTTLE, ROLL_THROTTLE, invalid, needs_roll_scope
from api.campaigns import Id
from api.inputs import NO_NUL, BodyIn, Text
from log.models import RollEntry
from log.tokens import entry_token
from rolls.sessions import actions
from rolls.sessions.forms import SceneForm, SessionForm
from rolls.sessions.state import LISTED, TITLE_MAX, SessionItem, current, session, sessions
from sheets.access import campaign_for_gm, campaign_for_member
from sheets.models import Campaign
from web.http import AuthenticatedHttpRequest

router = Router(tags=["Sessions and scenes"])


class SceneOut(Schema):
    number: int
    title: str
    name: str
    entry: str  # the scene's marker: the id the log and /entries/ give it
    log_url: str


class SessionOut(Schema):
    number: int
    title: str
    name: str
    ended: bool
    started_entry: str
    ended_entry: str | None
    scenes: list[SceneOut]
    log_url: str  # the log's endpoint, filtered to this session


class SessionList(Schema):
    current: SessionOut | None
    sessions: list[SessionOut]
    next: int | None  # pass as ``before`` for the older sessions


class ListQuery(Schema):
    before: int | None = Field(None, ge=1, description="Sessions numbered below this one")
    limit: int = Field(20, ge=1, le=LISTED)


class TitleIn(BodyIn):
    title: Text = Field(
        "", max_length=TITLE_MAX, pattern=NO_NUL, description="Optional, e.g. “The heist”"
    )


WRITES: dict[str, Any] = {
    "response": {201: SessionOut, **ERRORS},
    "throttle": [READ_THROTTLE, ROLL_THROTTLE],
}


def _log_url(request: HttpRequest, campaign: Campaign, **params: int) -> str:
    query = "&".join(f"{name}={value}" for name, value in params.items())
    return request.build_absolute_uri(reverse("api:log", args=[campaign.pk]) + "?" + query)


def _sessions_out(
    request: HttpRequest, campaign: Campaign, items: list[SessionItem]
) -> list[dict[str, object]]:
    """The sessions as the API gives them, their markers named by entry ids (one query: the
    markers are known by their places in the chain)."""
    places = {seq for item in items for seq in (item.start, item.end) if seq is not None}
    places |= {scene.seq for item in items for scene in item.scenes}
    markers = RollEntry.objects.filter(campaign=campaign, seq__in=places).values_list("seq", "pk")
    tokens = {seq: entry_token(pk) for seq, pk in markers}
    return [_session_out(request, campaign, item, tokens) for item in items]


def _session_out(
    request: HttpRequest, campaign: Campaign, item: SessionItem, tokens: dict[int, str]
) -> dict[str, object]:
    number = item.state.session
    return {
        "number": number,
        "title": item.state.title,
        "name": item.state.name,
        "ended": item.end is not None,
        "started_entry": tokens[item.start],
        "ended_entry": tokens[item.end] if item.end is not None else None,
        "scenes": [
            {
                "number": scene.number,
                "title": scene.state.scene_title,
                "name": scene.state.scene_name,
                "entry": tokens[scene.seq],
                "log_url": _log_url(request, campaign, session=number, scene=scene.number),
            }
            for scene in item.scenes
        ],
        "log_url": _log_url(request, campaign, session=number),
    }


def _titled(
    request: HttpRequest, pk: int, form_class: type[SessionForm | SceneForm], body: TitleIn
) -> tuple[Campaign, str]:
    """A write with a title: the roll scope, the GM, and the title as the bar's form takes it."""
    needs_roll_scope(request)
    campaign, _ = campaign_for_gm(request, pk)  # type: ignore[arg-type]
    form = form_class({"title": body.title})
    if not form.is_valid():
        raise invalid(form)
    return campaign, form.cleaned_data["title"]


def _the_session(request: HttpRequest, campaign: Campaign, number: int) -> dict[str, object]:
    item = session(campaign.pk, number)
    assert item is not None  # its marker was just written
    return _sessions_out(request, campaign, [item])[0]


@router.get(
    "/campaigns/{pk}/sessions",
    response={200: SessionList, **ERRORS},
    url_name="sessions",
    summary="Sessions and scenes",
)
def session_list(request: HttpRequest, pk: Id, query: Query[ListQuery]) -> dict[str, object]:
    """The campaign's sessions, newest first, ``limit`` at a time, each with its scenes: pass
    ``next`` as ``before`` for older ones. ``current`` is the session going on (null between
    sessions). Any member reads them: markers are public entries."""
    campaign, _ = campaign_for_member(request, pk)  # type: ignore[arg-type]
    items = sessions(campaign.pk, limit=query.limit + 1, before=query.before)
    more, items = len(items) > query.limit, items[: query.limit]
    going_on = current(campaign.pk)
    now = session(campaign.pk, going_on.session) if going_on else None
    out = _sessions_out(request, campaign, [*items, *([now] if now else [])])
    return {
        "current": out[-1] if now else None,
        "sessions": out[: len(items)],
        "next": items[-1].state.session if more else None,
    }


# The same path as the list: one URL, named once (a second name would shadow the first).
@router.post("/campaigns/{pk}/sessions", **WRITES, url_name="sessions", summary="Start a session")
def session_start(
    request: AuthenticatedHttpRequest, pk: Id, body: Body[TitleIn]
) -> Status[dict[str, object]]:
    """The GM starts the next session (numbered for you; ``title`` optional, at most 100
    characters). A session still going on is ended first. Needs the ``roll`` scope."""
    campaign, title = _titled(request, pk, SessionForm, body)
    entries = actions.start_session(request.user, campaign, title)
    number = entries[-1].result["session"]
    return Status(201, _the_session(request, campaign, number))


@router.post(
    "/campaigns/{pk}/sessions/current/scenes",
    **WRITES,
    url_name="session_scene",
    summary="Mark a scene",
)
def session_scene(
    request: AuthenticatedHttpRequest, pk: Id, body: Body[TitleIn]
) -> Status[dict[str, object]]:
    """The GM begins the next scene of the session going on (409 when none is). Answers the
    session with its scenes. Needs the ``roll`` scope."""
    campaign, title = _titled(request, pk, SceneForm, body)
    entry = actions.mark_scene(request.user, campaign, title)
    return Status(201, _the_session(request, campaign, entry.result["session"]))


@router.post(
    "/campaigns/{pk}/sessions/current/end",
    **WRITES,
    url_name="session_end",
    summary="End the session",
)
def session_end(request: AuthenticatedHttpRequest, pk: Id) -> Status[dict[str, object]]:
    """The GM ends the session going on (409 when none is). Needs the ``roll`` scope."""
    needs_roll_scope(request)
    campaign, _ = campaign_for_gm(request, pk)
    entry = actions.end_session(request.user, campaign)
    return Status(201, _the_session(request, campaign, entry.result["session"]))
