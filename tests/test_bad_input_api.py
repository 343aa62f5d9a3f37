"""Hypothesis fuzzing of the API (api/rolls.py, api/campaigns.py): hostile JSON bodies, query strings,
ids and Authorization headers — never a 5xx, never a partial write, every refusal JSON that says
why (tests/fuzz.py). Schemathesis checks the same endpoints against the OpenAPI schema in .ci/run."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from log.tokens import entry_token
from sheets.models import ApiToken, Scope, System
from tests.fuzz import (
    FUZZ,
    LONE_SURROGATES,
    ODD_STRINGS,
    OVERSIZED_BODY,
    Request,
    bad_value,
    check,
    deep_json,
    log_params,
    mutated,
    snapshot,
)
from tests.url_walker import KWARGS, is_api
from tests.worlds import LOG_VALID, ROLL_VALID, TARGETS, World, with_rolls

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(world, settings) -> World:
    """The shared world (tests/conftest.py), with a real roll per system to follow up."""
    return with_rolls(world, settings)


def api(user, scope=Scope.ROLL) -> Client:
    # Every example makes its own token: the earlier ones go, so the cap on active tokens
    # (MAX_ACTIVE_TOKENS) never refuses the next.
    ApiToken.objects.revoke_all(user)
    _, raw = ApiToken.issue(user, name="fuzz", scope=scope)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


# JSON has more types than a form: numbers, booleans, null, objects, arrays.
JSON_ODD = st.one_of(
    st.sampled_from(LONE_SURROGATES),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    st.lists(st.integers(), max_size=3),
)


@st.composite
def json_body(draw: Any, valid: dict[str, Any], forged: list[str]) -> Any:
    """Mostly the valid body mutated (strings, and JSON's other types); sometimes a raw body:
    nested past any recursion limit, not JSON at all, or not an object."""
    kind = draw(st.sampled_from(["mutated", "mutated", "typed", "raw"]))
    if kind == "raw":
        return draw(
            st.one_of(
                st.just(OVERSIZED_BODY),
                deep_json(),
                st.sampled_from(ODD_STRINGS),
                st.just("[1, 2]"),
            )
        )
    body = draw(mutated(valid, forged))
    if kind == "typed":
        for name in list(body) or ["extra"]:
            if draw(st.booleans()):
                body[name] = draw(JSON_ODD)
    return body


def send_json(client, url, body, writes=True):
    if isinstance(body, str):
        return check(client, Request("post", url, body, {}, "application/json"), writes=writes)
    return check(client, Request("post", url, body, {}, "application/json"), writes=writes)


@pytest.mark.parametrize(("system", "kind", "row"), TARGETS, ids=[t[1] for t in TARGETS])
@FUZZ
@given(data=st.data())
def test_api_rolls_survive_bad_bodies(world, system, kind, row, data):
    party = world.parties[system]
    client = api(getattr(party, data.draw(st.sampled_from(["player", "gm"]), label="actor")))
    valid: dict[str, Any] = {k: v for k, v in ROLL_VALID[system].items()}
    valid |= {"call": party.call.pk, "contest": party.contest.pk}
    body = data.draw(json_body(valid, world.forged), label="body")
    target_pk = data.draw(
        st.one_of(st.just(party.rows[row].pk), st.sampled_from([int(p) for p in world.forged])),
        label="target_pk",
    )
    url = reverse("api:roll", args=[party.pc.pk, kind, target_pk])
    response = send_json(client, url, body)
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(("system", "kind", "row"), TARGETS, ids=[t[1] for t in TARGETS])
@FUZZ
@given(data=st.data())
def test_api_targets_survive_bad_query_strings(world, system, kind, row, data):
    party = world.parties[system]
    client = api(getattr(party, data.draw(st.sampled_from(["player", "gm"]), label="actor")))
    valid = ROLL_VALID[system] | {"call": str(party.call.pk), "contest": str(party.contest.pk)}
    params = data.draw(mutated(valid, world.forged), label="params")
    url = reverse("api:target", args=[party.pc.pk, kind, party.rows[row].pk])
    check(client, Request("get", url, params), writes=False)


@pytest.mark.parametrize("system", System.values)
@FUZZ
@given(data=st.data())
def test_api_follow_ups_survive_bad_bodies(world, system, data):
    party = world.parties[system]
    client = api(getattr(party, data.draw(st.sampled_from(["player", "gm"]), label="actor")))
    entry = data.draw(
        st.sampled_from([party.rows["rolled"], party.entry, world.other.entry]), label="entry"
    )
    action = data.draw(
        st.sampled_from(["destiny", "correct", "choice", "buy_boon", "extra_boon", "x" * 300]),
        label="action",
    )
    body = data.draw(json_body({"value": "success"}, world.forged), label="body")
    url = reverse("api:follow_up", args=[entry_token(entry.pk), action])
    send_json(client, url, body)


@FUZZ
@given(data=st.data())
def test_api_log_survives_bad_query_strings(world, data):
    party = world.parties[data.draw(st.sampled_from(System.values), label="system")]
    client = api(getattr(party, data.draw(st.sampled_from(["player", "gm"]), label="who")))
    valid = LOG_VALID | {
        "character": str(party.pc.pk),
        "player": str(party.player.pk),
        "before": entry_token(party.entry.pk),
        "limit": "25",
    }
    params = data.draw(log_params(valid, world.forged), label="params")
    if data.draw(st.booleans(), label="odd limit"):
        params["limit"] = data.draw(bad_value(world.forged), label="limit")
    check(
        client, Request("get", reverse("api:log", args=[party.campaign.pk]), params), writes=False
    )


@FUZZ
@given(header=st.one_of(st.sampled_from(ODD_STRINGS), st.text(max_size=300)))
def test_any_authorization_header_is_a_readable_401(world, header):
    client = Client()
    value = header if header.startswith("Bearer") else f"Bearer {header}"
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        value = value.encode("utf-8").decode("latin-1")  # as the bytes would arrive
    response = check(client, Request("get", "/api/v1/me", {}, {"Authorization": value}))
    assert response.status_code == 401 and response.json()["detail"]


def test_out_of_range_ids_in_every_api_url(world):
    """Ids no row can have (0, beyond 64 bits), and entry ids that aren't tokens: a 404 or a
    422 that names the parameter, never a 500."""
    client = api(world.parties[System.COGENT].gm)
    before = snapshot()
    sentinel = 987_654_321_987
    for name, build in sorted((n, b) for n, b in KWARGS.items() if is_api(n)):
        for key, value in build(world.parties).items():
            if isinstance(value, int):
                forgeries = [str(v) for v in (0, 2**63, 10**30, -1)]
                template = reverse(name, kwargs=build(world.parties) | {key: sentinel})
                urls = [template.replace(str(sentinel), forged) for forged in forgeries]
            elif key == "entry_id":
                template = reverse(name, kwargs=build(world.parties) | {key: "f" * 16})
                urls = [template.replace("f" * 16, bad) for bad in ("0" * 16, "zz", "1" * 40)]
            else:
                continue
            for url in urls:
                for method in ("get", "post"):
                    response = getattr(client, method)(url, {}, content_type="application/json")
                    assert response.status_code in (404, 405, 422), (name, url, method)
                    if response.status_code != 405:
                        assert json.loads(response.content)["detail"]
    assert snapshot() == before
