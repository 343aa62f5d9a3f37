"""The GM table's page as a whole: what every view that draws it (or a part of it) puts in its
context — the characters, the calls, the contests, the session bar and the forms."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.urls import reverse

from log.models import RollEntry
from rolls.live.pages import live_context
from rolls.models import RollCallTarget
from rolls.sessions.forms import SceneForm, SessionForm
from rolls.sessions.state import newest
from rolls.table import refresh
from rolls.table.cards import RECENT_CLOSED, contest_cards
from rolls.table.characters import character_rows
from rolls.table.forms import AssistForm, CallForm, ContestForm
from sheets.models import Campaign, Membership
from sheets.systems import rule_system_of


def calls_of(campaign: Campaign) -> list[dict[str, Any]]:
    """Open calls and the last few closed ones, each target with its answer (entry) if any."""
    prefetch = [
        Prefetch(
            "targets",
            queryset=RollCallTarget.objects.select_related("character").order_by("character__name"),
        ),
        Prefetch("entries", queryset=RollEntry.objects.order_by("pk")),
    ]
    open_calls = list(campaign.roll_calls.open().prefetch_related(*prefetch).order_by("-pk"))
    closed = list(
        campaign.roll_calls.filter(closed_at__isnull=False)
        .prefetch_related(*prefetch)
        .order_by("-closed_at", "-pk")[:RECENT_CLOSED]
    )
    result = []
    for call in open_calls + closed:
        answers = {e.character_id: e for e in call.entries.all()}
        result.append(
            {
                "call": call,
                "targets": [(t.character, answers.get(t.character_id)) for t in call.targets.all()],
                "answered": len(answers),
            }
        )
    return result


def dashboard_context(
    campaign: Campaign,
    membership: Membership,
    *,
    bound: dict[int, Any] | None = None,
    call_form: CallForm | None = None,
    contest_form: ContestForm | None = None,
    assist_form: AssistForm | None = None,
    notes: dict[int, str] | None = None,
    session_form: SessionForm | None = None,
    scene_form: SceneForm | None = None,
) -> dict[str, Any]:
    # Calls and contests name what is rolled; an assist may also be made with a vocation.
    skills = rule_system_of(campaign).rolling.skill_names(campaign, vocations=False)
    if rule_system_of(campaign).rolling.has_assists:
        assist_form = assist_form or AssistForm(
            campaign=campaign, skills=rule_system_of(campaign).rolling.skill_names(campaign)
        )
    rows = character_rows(campaign, membership, bound)
    for row in rows:  # what a quick roll from the card said, beside its Roll buttons
        row["note"] = (notes or {}).get(row["character"].pk, "")
    return {
        "assist_form": assist_form,
        "campaign": campaign,
        "membership": membership,
        # The table's own stream: a roll arrives drawn as its card's row (no fetch of its own).
        **live_context(campaign, view="table"),
        "rows": rows,
        "calls": calls_of(campaign),
        "contest_cards": contest_cards(campaign, membership),
        "call_form": call_form or CallForm(campaign=campaign, skills=skills),
        "contest_form": contest_form or ContestForm(campaign=campaign, skills=skills),
        "dashboard_url": reverse("campaign_dashboard", args=[campaign.pk]),
        **session_bar(campaign, session_form=session_form, scene_form=scene_form),
    }


def session_bar(
    campaign: Campaign,
    *,
    session_form: SessionForm | None = None,
    scene_form: SceneForm | None = None,
) -> dict[str, Any]:
    """What the table's session bar shows: the open session (one query) and its two forms; and
    the newest marker it shows, so that a tab hearing of that same marker doesn't fetch it."""
    marker, state = newest(campaign.pk)
    return {
        "campaign": campaign,
        "session": state if state is not None and state.open else None,
        # Between sessions, the one that ended last: its recap is a click away.
        "ended": state if state is not None and not state.open else None,
        "session_marker": marker,
        # Cold Stars: Momentum and Willpower refreshed to their maxima, typically at the start.
        "refreshes": refresh.refreshes(campaign),
        "session_form": session_form or SessionForm(),
        "scene_form": scene_form or SceneForm(),
    }
