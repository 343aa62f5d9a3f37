"""Writing the markers: start a session, mark a scene, end the session. The GM table's buttons
and the API both write through here (docs/sessions.md).

Each reads the current state and appends its marker in one transaction holding the chain's head
lock, so two clicks at once never open two sessions or number two scenes alike: the second reads
what the first wrote.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from log.models import Kind, LogHead, RollEntry
from log.models.texts import keep, seal
from rolls.sessions.state import TITLE_REMOVED, SessionState, current
from rolls.webhooks.delivery import witness_session_end
from sheets.models import Campaign, Refused

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _lock(campaign: Campaign) -> None:
    """Take the chain's head lock for the transaction (the append takes it again: no wait)."""
    LogHead.objects.select_for_update().get_or_create(campaign_id=campaign.pk)


def _newest_session(campaign: Campaign) -> int:
    newest = (
        RollEntry.objects.markers()
        .filter(campaign_id=campaign.pk, kind=Kind.SESSION)
        .order_by("-pk")
        .values("result")
        .first()
    )
    state = SessionState.of(newest["result"]) if newest else None
    return state.session if state else 0


def _append(
    user: User, campaign: Campaign, kind: str, state: SessionState, name: str, *, typed: bool
) -> RollEntry:
    # A marker has no dice and nothing to chance: the roll's fields keep their empty defaults (no
    # odds; markers written before carry the stand-in "1/1", hashed with them). Its name goes in
    # ``detail``, and ``label`` (what was rolled) stays empty: the skill filter's loose index scan
    # (RollEntryQuerySet.labels) passes empty labels for free, and would step over every
    # session's name, one row each, on every log page. A name the GM typed a title into (a
    # start's, a scene's: ``typed``) is committed, not bound, as a message's text is (hash
    # version 6): the entry hashes its commitment and an empty ``detail``, and the name is kept
    # beside the chain, to be removed while the chain still verifies. An end names the session
    # by its number only: its title is its start's, never repeated in the clear.
    commitments, texts = seal({"detail": name}) if typed else ({}, [])
    entry = RollEntry.objects.append(
        campaign=campaign,
        user=user,
        character=None,
        character_name="",
        username=user.get_username(),
        system=campaign.system,
        kind=kind,
        label="",
        detail="" if typed else name,
        commitments=commitments,
        result=state.result(),
    )
    keep(entry, texts)
    return entry


def start_session(user: User, campaign: Campaign, title: str = "") -> list[RollEntry]:
    """Start the next session (numbered from 1). A session still open is ended first, in the same
    transaction: the GM who forgot to end last week's isn't stopped by it. Returns the entries
    written, oldest first."""
    written = []
    with transaction.atomic():
        _lock(campaign)
        open_session = current(campaign.pk)
        if open_session is not None:
            written.append(_end(user, campaign, open_session))
        number = _newest_session(campaign) + 1
        state = SessionState(session=number, title=title.strip())
        written.append(_append(user, campaign, Kind.SESSION, state, state.name, typed=True))
    return written


def mark_scene(user: User, campaign: Campaign, title: str = "") -> RollEntry:
    """Begin the next scene of the open session. Refused when no session is open."""
    with transaction.atomic():
        _lock(campaign)
        state = current(campaign.pk)
        if state is None:
            raise Refused("Start a session first: a scene is part of a session.")
        scene = SessionState(
            session=state.session,
            title=state.title,
            scene=(state.scene or 0) + 1,
            scene_title=title.strip(),
        )
        return _append(user, campaign, Kind.SCENE, scene, scene.scene_name, typed=True)


def end_session(user: User, campaign: Campaign) -> RollEntry:
    """End the open session. Refused when none is open."""
    with transaction.atomic():
        _lock(campaign)
        state = current(campaign.pk)
        if state is None:
            raise Refused("No session is going on.")
        return _end(user, campaign, state)


def _end(user: User, campaign: Campaign, state: SessionState) -> RollEntry:
    """Append the session's end and post the log's fingerprint as it leaves the log: a copy of
    the signed head outside the server at the end of each evening (docs/verifiable-dice.md)."""
    ended = SessionState(session=state.session, title=state.title, open=False)
    marker = _append(
        user, campaign, Kind.SESSION_END, ended, f"Session {state.session}", typed=False
    )
    # What ``with_session`` would read for it: the session's name, kept at its start.
    marker.session_named = None if state.title == TITLE_REMOVED else state.name
    witness_session_end(campaign)
    return marker
