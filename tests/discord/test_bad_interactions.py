"""Hostile interactions, signed as Discord signs them (a compromised or buggy sender, or our own
misreading of Discord's shapes): never a 5xx, a refusal writes nothing, every write keeps the
models' constraints and the hash chains intact (tests/fuzz.py's invariants)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.discord.helpers import CHANNEL, sign, target_value
from tests.fuzz import ANY_TEXT, FUZZ, HUGE_INTS, ODD_STRINGS, Request, check
from tests.rolls.helpers import athletics

pytestmark = pytest.mark.django_db

NAMES = ["target", "visibility", "challenge_level", "extra_penalty", "circumstances", "action"]
NAMES += ["call", "character", "campaign", "weapon", "destiny_before", "ability", "risk"]
ANY_VALUE = st.one_of(
    ANY_TEXT,
    st.sampled_from([*ODD_STRINGS, "1.cogent-skill.1", "f:0:destiny:", "public", "blind"]),
    st.sampled_from(HUGE_INTS),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(ANY_TEXT, st.integers(), max_size=2),
)


@st.composite
def hostile(draw, people, good_target):
    option = st.fixed_dictionaries(
        {"name": st.sampled_from(NAMES) | ANY_TEXT, "value": ANY_VALUE | st.just(good_target)},
        optional={"type": st.sampled_from([1, 3, 4, 5, "x"]), "focused": st.booleans()},
    )
    options = st.lists(option, max_size=5) | ANY_VALUE
    sub = st.fixed_dictionaries(
        {
            "type": st.just(1),
            "name": ANY_TEXT | st.sampled_from(["link", "campaign", "unbind"]),
            "options": options,
        }
    )
    data = st.fixed_dictionaries(
        {"name": st.sampled_from(["poolside", "roll", "odds", "sheet"]) | ANY_TEXT},
        optional={"options": st.lists(sub, max_size=1) | options, "custom_id": ANY_VALUE},
    )
    user = st.fixed_dictionaries({"id": st.sampled_from(people) | ANY_VALUE})
    return {
        "id": draw(st.integers(1, 10**19).map(str) | ANY_VALUE),
        "type": draw(st.sampled_from([2, 3, 4, 5, 0, 99]) | ANY_VALUE),
        "token": draw(ANY_TEXT),
        "guild_id": draw(st.just("700000000000000001") | ANY_VALUE),
        "channel_id": draw(st.just(CHANNEL) | ANY_VALUE),
        "member": draw(st.fixed_dictionaries({"user": user}) | ANY_VALUE),
        "data": draw(data | ANY_VALUE),
    }


@FUZZ
@given(data=st.data())
def test_hostile_interactions_never_break_the_endpoint(client, key, table, data):
    party = table.party
    people = [link.discord_user for link in table.links.values()]
    good = target_value(party.pc, "cogent-skill", athletics(party.pc))
    body = json.dumps(data.draw(hostile(people, good)))
    headers = {
        name.removeprefix("HTTP_").replace("_", "-"): value
        for name, value in sign(key, body.encode()).items()
    }
    request = Request("post", "/discord/interactions/", body, headers, "application/json")
    check(client, request)
