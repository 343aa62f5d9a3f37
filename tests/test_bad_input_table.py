"""Hostile input at the GM table: resources, the dashboard's query strings, calls, contests and
contest actions answer with a message and write nothing partial (the invariants of tests/fuzz.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from rolls.models import Contest, ContestKind, ContestState
from sheets.models import System
from tests.factories import ContestFactory, RollEntryFactory
from tests.fuzz import (
    FUZZ,
    Request,
    check,
    htmx_or_plain,
    mutated,
)
from tests.worlds import CALL_VALID, CONTEST_VALID, RESOURCES, World, with_rolls

pytestmark = pytest.mark.django_db

COGENT, DAD6, STARS = System.COGENT, System.DAD6, System.COLD_STARS


@pytest.fixture
def world(world, settings) -> World:
    """The shared world (tests/conftest.py), with a real roll per system to follow up."""
    return with_rolls(world, settings)


# ---------------------------------------------------------------------------------------------
# The GM table
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", [COGENT, STARS])
@FUZZ
@given(data=st.data())
def test_resources_survive_bad_input(client, world, system, data):
    party = world.parties[system]
    client.force_login(party.gm)
    character = data.draw(st.sampled_from([party.pc, party.npc]), label="character")
    body = data.draw(mutated(RESOURCES[system](character.pk), world.forged), label="body")
    headers = htmx_or_plain(data)
    url = reverse("character_resources", args=[character.pk])
    check(client, Request("post", url, body, headers))


@FUZZ
@given(data=st.data())
def test_the_dashboard_survives_bad_query_strings(client, world, data):
    party = world.parties[data.draw(st.sampled_from(System.values), label="system")]
    client.force_login(party.gm)
    params = data.draw(mutated({"part": "calls"}, world.forged), label="params")
    headers = htmx_or_plain(data)
    url = reverse("campaign_dashboard", args=[party.campaign.pk])
    check(client, Request("get", url, params, headers), writes=False)


@pytest.mark.parametrize("system", System.values)
@pytest.mark.parametrize("what", ["call", "contest"])
@FUZZ
@given(data=st.data())
def test_calls_and_contests_survive_bad_input(client, world, system, what, data):
    party = world.parties[system]
    client.force_login(party.gm)
    skill = party.rows["target"].name
    if what == "call":
        valid = CALL_VALID[system](party) | {
            "call-characters": [str(party.pc.pk), str(party.npc.pk)],
            "call-note": "Now!",
        }
    else:
        valid = CONTEST_VALID[system](party) | {
            "contest-character_a": str(party.pc.pk),
            "contest-character_b": str(party.npc.pk),
            "contest-skill_a": skill,
        }
    body = data.draw(mutated(valid, world.forged), label="body")
    headers = htmx_or_plain(data)
    url = reverse(f"{what}_create", args=[party.campaign.pk])
    check(client, Request("post", url, body, headers))


def _choosing_contest(party: Any) -> Contest:
    """A Cold Stars active contest waiting for the initiator's choice (both sides rolled even)."""
    contest = ContestFactory(
        campaign=party.campaign,
        kind=ContestKind.COLD_STARS_ACTIVE,
        character_a=party.pc,
        character_b=party.npc,
        skill_a="Piloting",
        skill_b="Piloting",
        state=ContestState.CHOOSING,
    )
    for side, character, user in (("a", party.pc, party.player), ("b", party.npc, party.gm)):
        faces = [
            {"kind": "ability", "face": 5, "value": 5},
            {"kind": "skill", "face": 5, "value": 5},
        ]
        options = {"contest_side": side, "contest_round": 1}
        pool = {"ability": 1, "skill": 1, "risk": 0}
        RollEntryFactory(
            character=character,
            user=user,
            contest=contest,
            faces=faces,
            options=options,
            pool=pool,
        )
    return contest


@pytest.mark.parametrize("system", System.values)
@FUZZ
@given(data=st.data())
def test_contest_actions_survive_bad_input(client, world, system, data):
    party = world.parties[system]
    actor = data.draw(st.sampled_from(["player", "gm"]), label="actor")
    client.force_login(getattr(party, actor))
    contest = party.contest
    if system == STARS and data.draw(st.booleans(), label="choosing"):
        contest = _choosing_contest(party)
    contest = data.draw(st.sampled_from([contest, world.other.contest]), label="contest")
    action = data.draw(
        st.sampled_from(
            [
                *[("a", "roll"), ("b", "roll"), ("a", "correct"), ("b", "keep"), ("c", "roll")],
                *[("choose", None), ("cancel", None), ("close", None)],
            ]
        ),
        label="action",
    )
    body = data.draw(
        mutated(
            {"willpower": "1", "visibility": "public", "choice": "costly_success", "next": "/"},
            world.forged,
        ),
        label="body",
    )
    if action[1] is None and action[0] == "close":
        call = data.draw(st.sampled_from([party.call, world.other.call]), label="call")
        url = reverse("call_close", args=[call.pk])
    elif action[1] is None:
        url = reverse(f"contest_{action[0]}", args=[contest.pk])
    else:
        url = reverse("contest_side", args=[contest.pk, *action])
    headers = htmx_or_plain(data)
    check(client, Request("post", url, body, headers))
