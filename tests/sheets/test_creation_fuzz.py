"""Hostile input to guided creation (tests/fuzz.py): every system's full build, mutated, as the
player and as the GM — never a 5xx, never a partial write, and the htmx budget preview never
writes at all."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from sheets.models import System
from tests.fuzz import FUZZ, Request, check, mutated

pytestmark = pytest.mark.django_db

BUILDS = {
    System.COGENT: {
        "name": "Rob",
        "strength": "1",
        "intelligence": "1",
        "skill-1": "2",
        "skill-10": "-1",
        "craft": "Horse",
        "disability-0-name": "Phobia",
        "disability-0-how": "rolled",
        "vocation-0-name": "Soldier",
        "vocation-0-attribute": "strength",
        "vocation-0-rating": "2",
        "vocation-0-sub-0-kind": "vocational:intelligence",
        "vocation-0-sub-0-name": "Tactics",
        "vocation-0-sub-0-rating": "1",
        "vocation-0-sub-1-kind": "combat:Medium",
        "vocation-0-sub-1-rating": "2",
        "vocation-1-name": "Cook",
        "vocation-1-attribute": "reflex",
    },
    System.DAD6: {
        "name": "Nim",
        "class_name": "Thief",
        "level": "3",
        "class-0": "Climb",
        "class-1": "Hide",
        "other-0-name": "Swim",
        "other-0-competence": "familiar",
    },
    System.COLD_STARS: {
        "name": "Vex",
        "agility": "3",
        "will": "2",
        "skill-piloting": "3",
        "domain-piloting": "Small Craft",
        "skill-repair": "0",
    },
}


@pytest.mark.parametrize("system", list(BUILDS))
@pytest.mark.parametrize("actor", ["player", "gm"])
@FUZZ
@given(data=st.data())
def test_creation_survives_bad_input(client, world, system, actor, data):
    party = world.parties[system]
    client.force_login(getattr(party, actor))
    body = data.draw(mutated(BUILDS[system], world.forged), label="body")
    htmx = data.draw(st.booleans(), label="htmx")
    url = reverse("character_create", args=[party.campaign.pk])
    headers = {"HX-Request": "true"} if htmx else {}
    # The budget preview computes and never writes, whatever it is sent.
    check(client, Request("post", url, body, headers), writes=not htmx)
