"""Hypothesis fuzzing of the roll panels, odds and rolls (every system and target kind), follow-ups,
reveals, the log's filters, exports and statistics, the GM table (resources, calls, contests) and
the live stream's query parameters: never a 5xx, never a partial write (tests/fuzz.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.db import transaction
from django.test import AsyncClient
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from sheets.models import Campaign, System
from tests.fuzz import (
    FUZZ,
    HUGE_INTS,
    ODD_STRINGS,
    UNICODE_DIGITS,
    Request,
    bad_value,
    check,
    deep_json,
    htmx_or_plain,
    log_params,
    mutated,
    odd_date,
    odd_integer,
    snapshot,
)
from tests.url_walker import KWARGS, is_api
from tests.worlds import (
    CALL_VALID,
    CONTEST_VALID,
    LOG_VALID,
    RESOURCES,
    ROLL_VALID,
    TARGETS,
    World,
    with_rolls,
)

pytestmark = pytest.mark.django_db

COGENT, DAD6, STARS = System.COGENT, System.DAD6, System.COLD_STARS


@pytest.fixture
def world(world, settings) -> World:
    """The shared world (tests/conftest.py), with a real roll per system to follow up."""
    return with_rolls(world, settings)


# ---------------------------------------------------------------------------------------------
# Panels, odds and rolls: every system, every target kind
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("system", "kind", "row"), TARGETS, ids=[t[1] for t in TARGETS])
@pytest.mark.parametrize("view", ["roll_panel", "roll_odds", "roll_create"])
@FUZZ
@given(data=st.data())
def test_roll_endpoints_survive_bad_input(client, world, system, kind, row, view, data):
    party = world.parties[system]
    actor = data.draw(st.sampled_from(["player", "gm"]), label="actor")
    client.force_login(getattr(party, actor))
    valid = ROLL_VALID[system] | {
        "call": str(party.call.pk),
        "contest": str(party.contest.pk),
    }
    body = data.draw(form_or_raw(valid, world.forged), label="body")
    # The row in the URL: the real one, or a forged one (another campaign's, an unknown id);
    # ids beyond 64 bits: test_out_of_range_ids_in_every_url_are_a_404.
    target_pk = data.draw(
        st.one_of(
            st.just(party.rows[row].pk),
            st.sampled_from([int(pk) for pk in world.forged] + [0, 10**17]),
        ),
        label="target_pk",
    )
    url = reverse(view, args=[party.pc.pk, kind, target_pk])
    method = "post" if view == "roll_create" else "get"
    headers = htmx_or_plain(data)
    if isinstance(body, tuple):  # a raw body is posted whatever the view takes
        method, content_type, body = "post", *body
    else:
        content_type = ""
    check(client, Request(method, url, body, headers, content_type), writes=method == "post")


def form_or_raw(valid: dict[str, Any], forged: list[str]) -> st.SearchStrategy[Any]:
    """Mostly a mutated form; sometimes a raw body of JSON (deeply nested, or the form as JSON)
    or of garbage, as (content type, text): the roll endpoints take forms, nothing else."""
    raw = st.tuples(
        st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]),
        st.one_of(deep_json(), st.just(json.dumps(valid)), st.sampled_from(ODD_STRINGS)),
    )
    return st.one_of(mutated(valid, forged), mutated(valid, forged), raw)


# ---------------------------------------------------------------------------------------------
# Follow-ups and reveals
# ---------------------------------------------------------------------------------------------


# (system, entry): a panel roll of each system, a fake entry, another campaign's, an all-blank
# Cold Stars roll (its choice takes a value) and one side's roll of a Cogent conflict.
FOLLOWED = [(system, which) for system in System.values for which in ("rolled", "hidden")] + [
    (COGENT, "entry"),
    (DAD6, "entry"),  # options no DAD6 panel wrote
    (DAD6, "other"),
    (STARS, "choice"),
    (COGENT, "side"),
]
# The follow-up each entry invites (drawn half the time; any other, the rest).
INVITED = {"choice": "choice", "side": "destiny", "rolled": "destiny", "hidden": "destiny"}


@pytest.mark.parametrize(("system", "which"), FOLLOWED, ids=[f"{s}-{w}" for s, w in FOLLOWED])
@FUZZ
@given(data=st.data())
def test_follow_ups_and_reveals_survive_bad_input(client, world, system, which, data):
    party = world.parties[system]
    actor = data.draw(st.sampled_from(["player", "gm"]), label="actor")
    client.force_login(getattr(party, actor))
    entry = {"entry": party.entry, "other": world.other.entry}.get(which) or party.rows[which]
    actions = ["destiny", "correct", "choice", "buy_boon", "reveal", "x" * 300]
    action = data.draw(
        st.one_of(st.just(INVITED.get(which, "destiny")), st.sampled_from(actions)),
        label="action",
    )
    value = data.draw(
        st.sampled_from(["costly_success", "failure", "success", "choice", ""]), label="value"
    )
    body = data.draw(form_or_raw({"value": value}, world.forged), label="body")
    if action == "reveal":
        url = reverse("roll_reveal", args=[entry.pk])
    else:
        url = reverse("roll_follow_up", args=[entry.pk, action])
    headers = htmx_or_plain(data)
    request = (
        Request("post", url, body[1], headers, body[0])
        if isinstance(body, tuple)
        else Request("post", url, body, headers)
    )
    with transaction.atomic():
        # A state the request meets, not a value it sends: the campaign switched every roll
        # public after its hidden rolls were made (a follow-up of one was a 500).
        if data.draw(st.booleans(), label="every roll public since"):
            Campaign.objects.filter(pk=party.campaign.pk).update(force_public_rolls=True)
        check(client, request)
        transaction.set_rollback(True)


# ---------------------------------------------------------------------------------------------
# The log: filters, exports, statistics (GET only: nothing may change)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "view", ["campaign_log", "campaign_log_csv", "campaign_log_json", "campaign_stats"]
)
@FUZZ
@given(data=st.data())
def test_log_tools_survive_bad_query_strings(client, world, view, data):
    party = world.parties[data.draw(st.sampled_from(System.values), label="system")]
    client.force_login(getattr(party, data.draw(st.sampled_from(["player", "gm"]), label="who")))
    valid = LOG_VALID | {"character": str(party.pc.pk), "player": str(party.player.pk)}
    params = data.draw(log_params(valid, world.forged), label="params")
    headers = htmx_or_plain(data)
    response = check(
        client,
        Request("get", reverse(view, args=[party.campaign.pk]), params, headers),
        writes=False,
    )
    if response.streaming:
        b"".join(response.streaming_content)  # an export fails while streaming, if at all


@FUZZ
@given(data=st.data())
def test_character_stats_and_prompts_survive_bad_query_strings(client, world, data):
    party = world.parties[data.draw(st.sampled_from(System.values), label="system")]
    client.force_login(party.player)
    view = data.draw(st.sampled_from(["character_stats", "character_prompts"]), label="view")
    params = data.draw(log_params(LOG_VALID, world.forged), label="params")
    headers = htmx_or_plain(data)
    check(client, Request("get", reverse(view, args=[party.pc.pk]), params, headers), writes=False)


# ---------------------------------------------------------------------------------------------
# Every integer parameter meets odd numbers; every date parameter, impossible dates
# ---------------------------------------------------------------------------------------------


Built = tuple[str, str, dict[str, Any], tuple[str, ...]]  # method, URL, valid body, int params


def _roll(view: str, system: str, numbers: tuple[str, ...]) -> Callable[[World], Built]:
    def build(w: World) -> Built:
        t = w.parties[system]
        url = reverse(view, args=[t.pc.pk, t.rows["kind"], t.rows["target"].pk])
        method = "post" if view == "roll_create" else "get"
        return method, url, dict(ROLL_VALID[system]), ("call", "contest", *numbers)

    return build


def _log(view: str) -> Callable[[World], Built]:
    def build(w: World) -> Built:
        url = reverse(view, args=[w.parties[DAD6].campaign.pk])
        return "get", url, dict(LOG_VALID), ("before", "character", "player")

    return build


def _resources(w: World) -> Built:
    pc = w.parties[COGENT].pc
    url = reverse("character_resources", args=[pc.pk])
    return "post", url, RESOURCES[COGENT](pc.pk), (f"res-{pc.pk}-destiny_points",)


def _call(w: World) -> Built:
    t = w.parties[DAD6]
    body = CALL_VALID[DAD6](t) | {"call-characters": str(t.pc.pk)}
    return (
        "post",
        reverse("call_create", args=[t.campaign.pk]),
        body,
        ("call-difficulty", "call-characters"),
    )


def _contest(w: World) -> Built:
    t = w.parties[DAD6]
    body = CONTEST_VALID[DAD6](t) | {
        "contest-character_a": str(t.pc.pk),
        "contest-character_b": str(t.npc.pk),
        "contest-skill_a": "Tracking",
    }
    numbers = ("contest-difficulty", "contest-opposition", "contest-character_a")
    return "post", reverse("contest_create", args=[t.campaign.pk]), body, numbers


def _contest_side(w: World) -> Built:
    # The Cold Stars table's contest is active vs active, the player's PC on side A.
    url = reverse("contest_side", args=[w.parties[STARS].contest.pk, "a", "roll"])
    return "post", url, {"willpower": "1"}, ("willpower",)


def _character_stats(w: World) -> Built:
    url = reverse("character_stats", args=[w.parties[STARS].pc.pk])
    return "get", url, {}, ("character", "player")


# (name, who sends it, how to build the request and which of its parameters are integers). A new
# integer query or form parameter in rolls/ gets a line here.
INTEGER_PARAMS: list[tuple[str, str, Callable[[World], Built]]] = [
    *[
        (f"{view}-{system}", "player", _roll(view, system, numbers))
        for view in ("roll_panel", "roll_odds", "roll_create")
        for system, numbers in (
            (COGENT, ("challenge_level", "extra_penalty", "weapon_bonus")),
            (DAD6, ("difficulty", "tools", "helpers", "advantages", "time", "traded_boons")),
            (STARS, ("risk",)),
        )
    ],
    *[
        (view, "player", _log(view))
        for view in ("campaign_log", "campaign_log_csv", "campaign_log_json", "campaign_stats")
    ],
    ("character_stats", "player", _character_stats),
    ("contest_side", "player", _contest_side),
    ("character_resources", "gm", _resources),
    ("call_create", "gm", _call),
    ("contest_create", "gm", _contest),
]


@pytest.mark.parametrize(
    ("name", "actor", "build"), INTEGER_PARAMS, ids=[p[0] for p in INTEGER_PARAMS]
)
@FUZZ
@given(data=st.data())
def test_integer_parameters_survive_odd_numbers(client, world, name, actor, build, data):
    """Each integer parameter alone (the rest valid) as superscript, circled, Arabic-Indic or
    fullwidth digits, past 64 bits, past int()'s 4,300 digits, signed or padded."""
    method, url, body, params = build(world)
    param = data.draw(st.sampled_from(params), label="param")
    body[param] = data.draw(odd_integer(), label="value")
    client.force_login(getattr(world.parties[COGENT], actor))
    headers = htmx_or_plain(data)
    response = check(client, Request(method, url, body, headers), writes=method == "post")
    if getattr(response, "streaming", False):
        b"".join(response.streaming_content)


@pytest.mark.parametrize(
    "view", ["campaign_log", "campaign_log_csv", "campaign_log_json", "campaign_stats"]
)
@FUZZ
@given(data=st.data())
def test_date_parameters_survive_impossible_dates(client, world, view, data):
    """The calendar's first and last days (a day or a time zone beyond them overflows), year 0
    and 99999, 30 February, month 13 — in either date filter, alone or both."""
    party = world.parties[COGENT]
    client.force_login(party.gm)
    names = data.draw(
        st.sampled_from([("date_to",), ("date_from",), ("date_from", "date_to")]), label="names"
    )
    params = {name: data.draw(odd_date(), label=name) for name in names}
    response = check(
        client,
        Request("get", reverse(view, args=[party.campaign.pk]), params, htmx_or_plain(data)),
        writes=False,
    )
    if response.streaming:
        b"".join(response.streaming_content)


# ---------------------------------------------------------------------------------------------
# Forged ids in URLs: huge, zero, another campaign's — on every pattern with an int argument
# ---------------------------------------------------------------------------------------------


def test_out_of_range_ids_in_every_url_are_a_404(client, world):
    """Ids no row can have (0, beyond 64 bits) in every URL that takes one: a 404, not a 500
    (SQLite raised OverflowError on them before sheets/converters.py)."""
    client.force_login(world.parties[COGENT].gm)
    sentinel, before = 987_654_321_987, snapshot()
    for name, build in sorted(KWARGS.items()):
        if name == "campaign_events" or is_api(name):
            # An async view (test_the_live_stream_survives_bad_query_strings covers it); the
            # API takes a token (tests/test_bad_input_api.py).
            continue
        for key, value in build(world.parties).items():
            if not isinstance(value, int):
                continue
            template = reverse(name, kwargs=build(world.parties) | {key: sentinel})
            for forged in (0, 2**63, 10**30):
                url = template.replace(str(sentinel), str(forged))
                for method in (client.get, client.post):
                    assert method(url).status_code in (404, 405), (name, url, method)
    assert snapshot() == before


# ---------------------------------------------------------------------------------------------
# The live stream's query parameters
# ---------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@FUZZ
@given(data=st.data())
def test_the_live_stream_survives_bad_query_strings(world, data):
    party = world.parties[data.draw(st.sampled_from(System.values), label="system")]
    # Digits str.isdigit() takes and int() doesn't lead: hypothesis tries the first ones first.
    values = (
        UNICODE_DIGITS
        + [str(party.pc.pk), str(party.entry.pk)]
        + world.forged
        + [str(n) for n in HUGE_INTS]
        + ODD_STRINGS
    )
    params = {
        key: data.draw(st.one_of(odd_integer(), st.sampled_from(values), bad_value([])), label=key)
        for key in data.draw(
            st.sets(st.sampled_from(["character", "last_id", "x"]), min_size=1), label="keys"
        )
    }
    header = data.draw(st.one_of(st.none(), st.sampled_from(values[:40])), label="Last-Event-ID")
    headers = {"Last-Event-ID": header} if header is not None else {}
    client = AsyncClient()
    client.force_login(party.player)

    async def go() -> Any:
        response = await client.get(
            reverse("campaign_events", args=[party.campaign.pk]), params, headers=headers
        )
        if response.streaming:
            # A stream that opened: read its first chunk (the retry line), then hang up.
            iterator = aiter(response.streaming_content)
            await anext(iterator)
            await iterator.aclose()
        return response

    try:
        response = async_to_sync(go)()
    except UnicodeEncodeError:
        return  # a header value the HTTP client itself can't send
    assert response.status_code in (200, 400, 404), response.status_code
    if response.status_code == 400:
        assert response.content.strip()
    assert transaction.get_autocommit()
