"""Hostile input at the GM table: resources, the dashboard's query strings, calls, contests and
contest actions answer with a message and write nothing partial (the invariants of tests/fuzz.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from rolls.models import Contest, ContestKind, ContestState, RollEntry
from rolls.rules import cold_stars
from sheets.models import System
from tests.factories import ContestFactory, RollEntryFactory
from tests.fuzz import (
    FUZZ,
    Request,
    check,
    htmx_or_plain,
    mutated,
)
from tests.rolls.helpers import SEED, seed_where
from tests.worlds import CALL_VALID, CONTEST_VALID, RESOURCES, World

pytestmark = pytest.mark.django_db

COGENT, DAD6, STARS = System.COGENT, System.DAD6, System.COLD_STARS


@pytest.fixture
def world(world, settings) -> World:
    """The shared world (tests/conftest.py), with a real roll per system to follow up."""
    settings.ROLLS_RNG_SEED = SEED  # repeatable dice
    parties = world.parties
    # A real roll per system, so follow-ups have options, resources and offers to work on.
    roller = Client()
    roller.force_login(parties[COGENT].player)
    for system, party in parties.items():
        url = reverse(
            "roll_create", args=[party.pc.pk, party.rows["kind"], party.rows["target"].pk]
        )
        response = roller.post(url, FIRST_ROLL[system])
        assert response.status_code == 302, response.content.decode()[:2000]
        party.rows["rolled"] = RollEntry.objects.filter(character=party.pc).latest("pk")
    # The entries whose follow-ups take a value or read options: an all-blank Cold Stars roll (the
    # player's choice) and one side's roll of a Cogent conflict (no Challenge Level).
    stars = parties[STARS]
    piloting = stars.rows["target"]
    piloting.trained, piloting.rating = True, 1  # no untrained Risk die: all blank is possible
    piloting.save()
    url = reverse("roll_create", args=[stars.pc.pk, stars.rows["kind"], stars.rows["target"].pk])
    roller.post(url, FIRST_ROLL[STARS] | {"risk": "0"})
    pool = RollEntry.objects.filter(character=stars.pc).latest("pk").pool
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: cold_stars.resolve(faces) == "choice",
        lambda rng: cold_stars.roll(
            cold_stars.Pool(pool["ability"], pool["skill"], pool["risk"]), rng
        ),
    )
    roller.post(url, FIRST_ROLL[STARS] | {"risk": "0"})
    stars.rows["choice"] = RollEntry.objects.filter(character=stars.pc).latest("pk")
    assert stars.rows["choice"].outcome == "choice"
    settings.ROLLS_RNG_SEED = SEED
    cogent = parties[COGENT]
    roller.post(reverse("contest_side", args=[cogent.contest.pk, "a", "roll"]))
    cogent.rows["side"] = RollEntry.objects.get(contest=cogent.contest)
    return world


FIRST_ROLL = {
    COGENT: {"challenge_level": "2", "extra_penalty": "0"},
    DAD6: {"difficulty": "2", "task": "mundane", "traded_boons": "0"}
    | dict.fromkeys(("tools", "helpers", "advantages", "time"), "0"),
    STARS: {"ability": "agility", "risk": "1", "modification": "none"},
}


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
