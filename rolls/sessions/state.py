"""What the markers say: the session and scene an entry belongs to, the current one, the list.

A marker's ``result`` (hashed with it) carries the whole state from that point of the chain on —
the session's number, the scene's number, whether the session is open — so the newest marker at
or before an entry says everything about it, in one index probe
(``RollEntryQuerySet.with_session``), and the current state is the campaign's newest marker.

The titles are the GM's typed text. Markers of hash version 6 commit them: a session's start and
a scene's marker hash a commitment to their name ("Session 3: The heist") in place of ``detail``,
the name is kept beside the chain (log/models/texts.py), and no later marker repeats it — a
scene's or an end's session title is read from the session's start. Markers written before keep
their titles in ``result``, as they were hashed. A title removed reads ``TITLE_REMOVED``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from django.db.models import CharField, F, FilteredRelation, Model, Q, QuerySet, Subquery, Value
from django.db.models.functions import Cast, Coalesce, Concat

from log.models import Kind, RollEntry, RollEntryQuerySet
from log.models.texts import TITLE_REMOVED

TITLE_MAX = 100


def title_in(name: object, prefix: str) -> str:
    """The GM's title in a marker's committed name ``prefix`` or ``prefix: title`` ("Session 3",
    "Scene 2: The docks"); ``TITLE_REMOVED`` where the name is gone (None)."""
    if not isinstance(name, str):
        return TITLE_REMOVED
    return name.removeprefix(prefix).removeprefix(": ")


class MarkerResult(TypedDict):
    """A session marker's stored ``result`` (hashed into its entry as it is)."""

    session: int
    title: NotRequired[str]  # markers of hash version 5 and before: their titles, in the clear
    scene: int | None
    scene_title: NotRequired[str]
    open: bool


@dataclass(frozen=True)
class SessionState:
    """A session (and scene) as a marker left it. ``open`` is False after the session's end."""

    session: int
    title: str = ""
    scene: int | None = None
    scene_title: str = ""
    open: bool = True

    @classmethod
    def of(
        cls, result: object, session_named: object = None, marker_named: object = None
    ) -> SessionState | None:
        """The state a marker's ``result`` holds; None for no marker (before the first). Where
        the result names no title (hash version 6), the titles are read from the committed
        names: ``session_named`` the session's start's, ``marker_named`` the scene's."""
        if not isinstance(result, dict) or not isinstance(result.get("session"), int):
            return None
        number = result["session"]
        scene = result.get("scene") if isinstance(result.get("scene"), int) else None
        if "title" in result:
            title, scene_title = str(result["title"] or ""), str(result.get("scene_title") or "")
        else:
            title = title_in(session_named, f"Session {number}")
            scene_title = "" if scene is None else title_in(marker_named, f"Scene {scene}")
        return cls(number, title, scene, scene_title, bool(result.get("open", True)))

    def result(self) -> MarkerResult:
        """The marker's ``result``, as it is hashed: no title (the marker commits its own name,
        and a scene's or an end's session title is its start's)."""
        return {"session": self.session, "scene": self.scene, "open": self.open}

    @property
    def name(self) -> str:
        """ "Session 3: The heist", or "Session 3"."""
        return self.named()

    @property
    def scene_name(self) -> str:
        """ "Scene 2: The docks", "Scene 2", or "" before the first scene."""
        return self.scene_named()

    def named(self, escape: Callable[[str], str] = str) -> str:
        """The session's name, its title (the GM's own text) passed through ``escape``."""
        return f"Session {self.session}" + (f": {escape(self.title)}" if self.title else "")

    def scene_named(self, escape: Callable[[str], str] = str) -> str:
        """The scene's name, its title passed through ``escape``; "" before the first scene."""
        if self.scene is None:
            return ""
        title = f": {escape(self.scene_title)}" if self.scene_title else ""
        return f"Scene {self.scene}{title}"

    @property
    def key(self) -> str:
        """Tells groups apart: a heading goes where it changes ("3", "3.2", "3-ended")."""
        if not self.open:
            return f"{self.session}-ended"
        return f"{self.session}.{self.scene}" if self.scene is not None else str(self.session)


def marker_name(marker: RollEntry) -> str:
    """A marker's name as shown: its committed name (``TITLE_REMOVED`` once removed), or for an
    end of hash version 6, which names the session by number only, the session's name as read
    ``with_session`` (its start's). Read ``for_cards``: no query of its own."""
    said = marker.said
    if said is None:
        return TITLE_REMOVED
    if marker.kind != Kind.SESSION_END or not hasattr(marker, "session_named"):
        return said
    state = SessionState.of(marker.result, marker.session_named)
    return state.name if state is not None else said


def state_of(entry: object) -> SessionState | None:
    """The session an entry listed ``with_session`` belongs to (None: outside every session —
    before the first, or between one's end and the next's start)."""
    state = SessionState.of(
        getattr(entry, "session_state", None),
        getattr(entry, "session_named", None),
        getattr(entry, "marker_named", None),
    )
    return state if state is not None and state.open else None


def newest(campaign_id: int) -> tuple[int | None, SessionState | None]:
    """The campaign's newest marker's id and the state it says — the open session, or the last
    one ended (``open`` False) — or (None, None) before the first: one index probe."""
    marker = (
        RollEntry.objects.markers()
        .filter(campaign_id=campaign_id)
        .order_by("-pk")
        .with_session()
        .only("pk", "result")
        .first()
    )
    if marker is None:
        return None, None
    return marker.pk, SessionState.of(marker.result, marker.session_named, marker.marker_named)


def current(campaign_id: int) -> SessionState | None:
    """The open session, or None."""
    state = newest(campaign_id)[1]
    return state if state is not None and state.open else None


@dataclass(frozen=True)
class Scene:
    seq: int  # its marker's place in the chain
    number: int
    state: SessionState


@dataclass(frozen=True)
class SessionItem:
    """A session in the list: its state as its newest marker left it, its markers' places in the
    chain (``seq``: the start's, the end's or None while it goes on) and its scenes."""

    state: SessionState
    start: int
    end: int | None
    scenes: tuple[Scene, ...]

    def span(self, scene: int | None = None) -> tuple[int, int | None] | None:
        """The entries of the session (or of its scene ``scene``) as places in the chain
        ``[first, last]``, last None while it goes on; None for a scene it doesn't have. A
        range of ``seq`` is a range of the (campaign, seq) index, whatever the plan."""
        if scene is None:
            return self.start, self.end
        for i, item in enumerate(self.scenes):
            if item.number == scene:
                # Up to the next marker (the next scene, or the session's end), not including it.
                following = self.scenes[i + 1].seq if i + 1 < len(self.scenes) else self.end
                return item.seq, None if following is None else following - 1
        return None

    def narrow[QS: QuerySet[Model]](self, entries: QS, scene: int | None = None) -> QS:
        """``entries`` (of the campaign) narrowed to the session's, or to its scene's (the whole
        session's for a scene it doesn't have): a range of the (campaign, seq) index (a range
        of ids would leave a generic plan to walk the campaign's newest entries down to it:
        half a second at a million)."""
        first, last = self.span(scene) or (self.start, self.end)
        entries = entries.filter(seq__gte=first)
        return entries if last is None else entries.filter(seq__lte=last)


# The sessions the log's filter offers: the newest, and the one chosen. Years of weekly play are
# hundreds of sessions; a select of them all would weigh more than the page's entries.
LISTED = 50
# A session number beyond any real one is no session (and never reaches SQL as a huge integer).
NUMBER_MAX = 10**9


def _markers(campaign_id: int) -> RollEntryQuerySet:
    return RollEntry.objects.markers().filter(campaign_id=campaign_id)


def _of(number: int) -> Q:
    """The markers of session ``number`` (its start, scenes and end), by their ``result``."""
    return Q(result__session=number) if 1 <= number <= NUMBER_MAX else Q(pk__in=[])


def marker_rows(campaign_id: int, number: int | None = None) -> Any:
    """As ``(kind, result as JSON text, seq)`` rows: the starts of the newest LISTED sessions,
    and every marker of session ``number`` — the shape of the log filter's UNION of characters
    and players (rolls/log/filters.py), so the sessions cost its page no query of their own.
    However long the campaign, a few hundred index entries are read."""
    starts = _markers(campaign_id).filter(kind=Kind.SESSION).order_by("-pk")
    oldest_listed = Subquery(starts.values("pk")[LISTED - 1 : LISTED])
    wanted = Q(kind=Kind.SESSION, pk__gte=Coalesce(oldest_listed, Value(0)))
    if number is not None:
        wanted |= _of(number)
    return _rows(_markers(campaign_id).filter(wanted).order_by())


def _rows(markers: Any) -> Any:
    """Markers as ``(kind, text, seq)`` rows, the text their ``result`` as JSON, a newline and
    their committed name where one is kept (hash version 6): text, so that they fit a UNION
    with the log filter's other choices."""
    kept = Q(texts__field="detail") & ~Q(texts__salt="")
    text = Concat(
        Cast("result", CharField()),
        Value("\n"),
        Coalesce(F("named__text"), Value(""), output_field=CharField()),
        output_field=CharField(),
    )
    return (
        markers.annotate(named=FilteredRelation("texts", condition=kept))
        .annotate(choice=F("kind"), text=text)
        .values_list("choice", "text", "seq")
    )


def _items(rows: Any) -> list[SessionItem]:
    return sessions_of((seq, kind, text) for kind, text, seq in rows)


def session(campaign_id: int, number: int) -> SessionItem | None:
    """Session ``number`` with its scenes, or None: one query over the campaign's markers."""
    return next(iter(_items(_rows(_markers(campaign_id).filter(_of(number))))), None)


def sessions(
    campaign_id: int, *, limit: int = LISTED, before: int | None = None
) -> list[SessionItem]:
    """The newest ``limit`` sessions (numbered below ``before``), newest first, with their
    scenes: two queries — the sessions' starts, then every marker from the oldest of them on."""
    starts = _markers(campaign_id).filter(kind=Kind.SESSION)
    if before is not None:
        starts = starts.filter(result__session__lt=min(max(before, 0), NUMBER_MAX))
    first = list(starts.order_by("-pk").values_list("seq", flat=True)[:limit])
    if not first:
        return []
    listed = set(first)
    rows = _rows(_markers(campaign_id).filter(seq__gte=min(first)))
    return [item for item in _items(rows) if item.start in listed]


def sessions_of(markers: Iterable[tuple[int, str, str]]) -> list[SessionItem]:
    """The sessions ``(seq, kind, text)`` rows of markers (``_rows``) make, newest first."""
    items: dict[int, dict[str, Any]] = {}
    for seq, kind, text in sorted(markers):
        result, _, kept = text.partition("\n")  # JSON text holds no raw newline
        result, named = json.loads(result), kept or None  # a name is never empty: "" is none
        number = result.get("session") if isinstance(result, dict) else None
        start = items.get(number) if isinstance(number, int) else None
        state = SessionState.of(
            result, named if kind == Kind.SESSION else start and start["named"], named
        )
        if state is None:
            continue
        if kind == Kind.SESSION:
            items[state.session] = {
                "state": state,
                "start": seq,
                "end": None,
                "scenes": [],
                # A start from before hash version 6 names its title in its result.
                "named": state.name if "title" in result else named,
            }
            continue
        item = items.get(state.session)
        if item is None:  # a marker of a session whose start is missing: nothing to group under
            continue
        if kind == Kind.SCENE and state.scene is not None:
            item["scenes"].append(Scene(seq, state.scene, state))
        elif kind == Kind.SESSION_END:
            item["end"] = seq
    return [
        SessionItem(i["state"], i["start"], i["end"], tuple(i["scenes"]))
        for i in sorted(items.values(), key=lambda i: -i["state"].session)
    ]
