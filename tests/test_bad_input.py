"""Hypothesis fuzzing of every form of accounts, campaigns, invites and character sheets: bad input
gets a message or a 4xx, never a 500 and never a partial write (tests/fuzz.py has the invariants).
The roll, log, GM-table and live-stream endpoints: tests/test_bad_input_rolls.py."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from sheets.character_json import export_json
from sheets.models import System
from tests.factories import UserFactory
from tests.fuzz import (
    FUZZ,
    LONE_SURROGATES,
    ODD_STRINGS,
    Request,
    bad_value,
    check,
    htmx_or_plain,
    mutated,
)
from tests.worlds import World

pytestmark = pytest.mark.django_db

COGENT, DAD6, STARS = System.COGENT, System.DAD6, System.COLD_STARS


@dataclass
class Form:
    """One form endpoint: who posts it, where, and a valid body to start mutating from."""

    id: str
    user: str  # "gm", "player" or "anonymous"
    url: Callable[[World], str]
    valid: Callable[[World], dict[str, Any]]


def pc(system: str) -> Callable[[World], Any]:
    return lambda w: w.parties[system].pc


def row(system: str, name: str) -> Callable[[World], Any]:
    return lambda w: w.parties[system].rows[name]


FORMS = [
    # Django's auth forms. Failed logins are recorded by django-axes in the test's transaction,
    # rolled back with it, so no lockout leaks into other tests.
    Form(
        "login",
        "anonymous",
        lambda w: reverse("login"),
        lambda w: {"username": "ana", "password": "wrong", "next": "/campaigns/1/"},
    ),
    Form(
        "password_reset",
        "anonymous",
        lambda w: reverse("password_reset"),
        lambda w: {"email": "ana@example.com"},
    ),
    Form(
        "password_change",
        "player",
        lambda w: reverse("password_change"),
        lambda w: {
            "old_password": "pw",
            "new_password1": "a long enough passphrase",
            "new_password2": "a long enough passphrase",
        },
    ),
    Form(
        "signup",
        "anonymous",
        lambda w: reverse("signup"),
        lambda w: {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
            "next": "/invite/abc/",
        },
    ),
    Form(
        "campaign_create",
        "player",
        lambda w: reverse("campaign_create"),
        lambda w: {"name": "New", "description": "d", "system": "dad6", "force_public_rolls": "on"},
    ),
    Form(
        "campaign_edit",
        "gm",
        lambda w: reverse("campaign_edit", args=[w.parties[COGENT].campaign.pk]),
        lambda w: {"name": "Renamed", "description": "", "system": "cogent"},
    ),
    Form(
        "invite_create",
        "gm",
        lambda w: reverse("invite_create", args=[w.parties[COGENT].campaign.pk]),
        lambda w: {"role": "player", "max_uses": "3", "expires_in": "7"},
    ),
    Form(
        "character_create",
        "player",
        lambda w: reverse("character_create", args=[w.parties[DAD6].campaign.pk]),
        lambda w: {"name": "Newt", "hidden_from_players": "on"},
    ),
    Form(
        "campaign_skills",
        "gm",
        lambda w: reverse("campaign_skills", args=[w.parties[STARS].campaign.pk]),
        lambda w: {
            "name": "Sailing",
            "group": "Campaign",
            "ability": "agility",
            "is_domain": "on",
            "example_domains": "Yachts, Dinghies",
        },
    ),
    Form(
        "campaign_webhooks",
        "gm",
        lambda w: reverse("campaign_webhooks", args=[w.parties[COGENT].campaign.pk]),
        # An address literal: valid without a DNS lookup (the fuzzing never sends to it).
        lambda w: {"url": "https://93.184.216.34/hook?x=1", "format": "json"},
    ),
    Form(
        "character_basics",
        "player",
        lambda w: reverse("character_basics", args=[pc(COGENT)(w).pk]),
        lambda w: {"basics-name": "Renamed", "basics-notes": "n", "basics-hidden_from_players": ""},
    ),
    # The portrait page: Remove is its one form without a file (uploads are fuzzed by hand in
    # tests/sheets/test_portraits.py); without "remove" the post is an upload with no file.
    Form(
        "character_portrait",
        "player",
        lambda w: reverse("character_portrait", args=[pc(COGENT)(w).pk]),
        lambda w: {"remove": "yes"},
    ),
    # One Save per sheet section: the figures, or every row of a section in one POST.
    Form(
        "sheet_section-cogent-attributes",
        "player",
        lambda w: reverse("sheet_section", args=[pc(COGENT)(w).pk, "attributes"]),
        lambda w: {
            "sheet-strength": "1",
            "sheet-reflex": "0",
            "sheet-intelligence": "2",
            "sheet-destiny_points": "3",
            "sheet-injury_dice": "0",
            "sheet-penalty_dice": "1",
        },
    ),
    Form(
        "sheet_section-dad6-class",
        "player",
        lambda w: reverse("sheet_section", args=[pc(DAD6)(w).pk, "class"]),
        lambda w: {"sheet-class_name": "Ranger", "sheet-level": "2"},
    ),
    Form(
        "sheet_section-cold-stars-abilities-gm",
        "gm",
        lambda w: reverse("sheet_section", args=[pc(STARS)(w).pk, "abilities"]),
        lambda w: {
            **{f"sheet-{a}": "3" for a in ("strength", "agility", "intellect")},
            **{f"sheet-{a}": "2" for a in ("presence", "perception", "will")},
            "sheet-momentum": "1",
            "sheet-momentum_max": "5",
            "sheet-willpower": "2",
            "sheet-willpower_max": "4",
        },
    ),
    Form(
        "sheet_section-cogent-skills",
        "player",
        lambda w: reverse("sheet_section", args=[pc(COGENT)(w).pk, "skills"]),
        lambda w: {f"skill-{s.pk}-rating": "1" for s in pc(COGENT)(w).cogent.skills.all()},
    ),
    Form(
        "sheet_section-cogent-vocations",
        "player",
        lambda w: reverse("sheet_section", args=[pc(COGENT)(w).pk, "vocations"]),
        lambda w: {
            f"vocation-{row(COGENT, 'vocation')(w).pk}-name": "Surgeon",
            f"vocation-{row(COGENT, 'vocation')(w).pk}-attribute": "intelligence",
            f"vocation-{row(COGENT, 'vocation')(w).pk}-rating": "3",
            f"subskill-{row(COGENT, 'subskill')(w).pk}-rating": "2",
            f"subskill-{row(COGENT, 'subskill')(w).pk}-weapon": "",
        },
    ),
    Form(
        "sheet_section-dad6-skills",
        "player",
        lambda w: reverse("sheet_section", args=[pc(DAD6)(w).pk, "skills"]),
        lambda w: {
            f"skill-{s.pk}-{field}": value
            for s in pc(DAD6)(w).dad6.skills.all()
            for field, value in (("name", f"{s.name}!"), ("competence", "expert"))
        },
    ),
    Form(
        "sheet_section-cold-stars-skills",
        "player",
        lambda w: reverse("sheet_section", args=[pc(STARS)(w).pk, "skills"]),
        lambda w: {
            f"skill-{s.pk}-{field}": value
            for s in pc(STARS)(w).cold_stars.skills.all()
            for field, value in (("trained", "on"), ("rating", "2"))
        },
    ),
    Form(
        "cogent_vocation_add",
        "player",
        lambda w: reverse("cogent_vocation_add", args=[pc(COGENT)(w).pk]),
        lambda w: {
            "add-vocation-name": "Pilot",
            "add-vocation-attribute": "reflex",
            "add-vocation-rating": "1",
        },
    ),
    Form(
        "cogent_subskill_add",
        "player",
        lambda w: reverse(
            "cogent_subskill_add", args=[pc(COGENT)(w).pk, row(COGENT, "vocation")(w).pk]
        ),
        lambda w: {
            f"add-subskill-{row(COGENT, 'vocation')(w).pk}-kind": "vocational",
            f"add-subskill-{row(COGENT, 'vocation')(w).pk}-name": "Triage",
            f"add-subskill-{row(COGENT, 'vocation')(w).pk}-combat_skill": "Medium",
            f"add-subskill-{row(COGENT, 'vocation')(w).pk}-attribute": "intelligence",
            f"add-subskill-{row(COGENT, 'vocation')(w).pk}-rating": "1",
        },
    ),
    Form(
        "dad6_skill_add",
        "player",
        lambda w: reverse("dad6_skill_add", args=[pc(DAD6)(w).pk]),
        lambda w: {
            "add-skill-name": "Cooking",
            "add-skill-competence": "familiar",
            "add-skill-is_class_skill": "",
        },
    ),
    Form(
        "cold_stars_domain_add",
        "player",
        lambda w: reverse(
            "cold_stars_domain_add", args=[pc(STARS)(w).pk, row(STARS, "skill")(w).pk]
        ),
        lambda w: {f"domain-{row(STARS, 'skill')(w).pk}-name": "Racing Skiffs"},
    ),
]


def login(client: Any, world: World, user: str) -> None:
    if user != "anonymous":
        client.force_login(getattr(world.parties[COGENT], user))


@pytest.mark.parametrize("form", FORMS, ids=lambda f: f.id)
@FUZZ
@given(data=st.data())
def test_forms_survive_bad_input(client, world, form, data):
    login(client, world, form.user)
    body = data.draw(mutated(form.valid(world), world.forged), label="body")
    check(client, Request("post", form.url(world), body, htmx_or_plain(data)))


# Deletes, leaving and member management take no fields: junk in the body changes nothing else.
BODILESS = [
    ("cogent_vocation_delete", lambda w: [pc(COGENT)(w).pk, row(COGENT, "vocation")(w).pk]),
    ("cogent_subskill_delete", lambda w: [pc(COGENT)(w).pk, row(COGENT, "subskill")(w).pk]),
    ("dad6_skill_delete", lambda w: [pc(DAD6)(w).pk, row(DAD6, "skill")(w).pk]),
    ("cold_stars_domain_delete", lambda w: [pc(STARS)(w).pk, row(STARS, "domain")(w).pk]),
    ("character_delete", lambda w: [pc(DAD6)(w).pk]),
    ("invite_revoke", lambda w: [w.parties[COGENT].campaign.pk, w.parties[COGENT].invite.pk]),
    *(
        (
            "webhook_action",
            lambda w, action=action: [
                w.parties[COGENT].campaign.pk,
                w.parties[COGENT].webhook.pk,
                action,
            ],
        )
        for action in ("pause", "resume", "test")
    ),
    ("webhook_delete", lambda w: [w.parties[COGENT].campaign.pk, w.parties[COGENT].webhook.pk]),
    (
        "member_remove",
        lambda w: [w.parties[DAD6].campaign.pk, w.parties[DAD6].player_membership.pk],
    ),
    (
        "member_make_gm",
        lambda w: [w.parties[STARS].campaign.pk, w.parties[STARS].player_membership.pk],
    ),
]


@pytest.mark.parametrize(("name", "args"), BODILESS, ids=[name for name, _ in BODILESS])
@FUZZ
@given(data=st.data())
def test_actions_without_fields_ignore_junk(client, world, name, args, data):
    client.force_login(world.parties[COGENT].gm)
    body = data.draw(mutated({}, world.forged), label="body")
    check(client, Request("post", reverse(name, args=args(world)), body))


@FUZZ
@given(data=st.data())
def test_invite_accept_survives_bad_tokens_and_bodies(client, world, data):
    client.force_login(UserFactory(username="newcomer"))
    token = data.draw(
        st.one_of(
            st.just(world.parties[COGENT].invite.token),
            st.text(st.characters(codec="ascii", exclude_characters="/?#%"), min_size=1),
        ),
        label="token",
    )
    body = data.draw(mutated({}, world.forged), label="body")
    method = data.draw(st.sampled_from(["get", "post"]), label="method")
    check(client, Request(method, reverse("invite_accept", args=[token]), body))


# ---------------------------------------------------------------------------------------------
# Character import: hostile JSON
# ---------------------------------------------------------------------------------------------

JSON_LEAVES = st.one_of(
    st.sampled_from(LONE_SURROGATES),
    st.none(),
    st.booleans(),
    st.sampled_from([-1, 0, 99, 2**63, 10**30, 1.5, float("inf")]),
    st.integers(-5, 10),
    st.sampled_from(ODD_STRINGS[:-19]),
    st.text(max_size=10),
)
ANY_JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3),
        st.dictionaries(st.text(max_size=8), inner, min_size=1, max_size=3),
    ),
    max_leaves=8,
)


@st.composite
def broken_export(draw: Any, exported: dict[str, Any]) -> str:
    """A real export with some values, anywhere in it, replaced by hostile ones (or removed)."""

    def mutate(value: Any) -> Any:
        if isinstance(value, dict):
            result = {}
            for key, item in value.items():
                choice = draw(st.sampled_from(["keep", "keep", "keep", "recurse", "drop", "bad"]))
                if choice == "drop":
                    continue
                result[key] = (
                    item
                    if choice == "keep"
                    else mutate(item)
                    if choice == "recurse"
                    else draw(ANY_JSON)
                )
            return result
        if isinstance(value, list):
            return [mutate(item) for item in value] + draw(st.lists(ANY_JSON, max_size=2))
        return draw(st.one_of(st.just(value), ANY_JSON))

    return json.dumps(mutate(exported))


@pytest.mark.parametrize("system", System.values)
@FUZZ
@given(data=st.data())
def test_character_import_survives_hostile_json(client, world, system, data):
    party = world.parties[system]
    client.force_login(party.player)
    exported = json.loads(export_json(party.pc))
    text = data.draw(
        st.one_of(
            broken_export(exported),
            ANY_JSON.map(json.dumps),
            st.sampled_from(ODD_STRINGS),
            bad_value([]).filter(lambda v: isinstance(v, str)),
        ),
        label="text",
    )
    url = reverse("character_import", args=[party.campaign.pk])
    check(client, Request("post", url, {"text": text}))


def test_the_harness_catches_a_partial_write(client, world):
    """The invariant check itself can fail: a request that answers 400 after writing is caught."""
    party = world.parties[DAD6]
    client.force_login(party.player)
    url = reverse("sheet_section", args=[party.pc.pk, "class"])
    original = type(client).post

    def post_then_break(self, path, data=None, **kwargs):
        party.pc.dad6.__class__.objects.filter(pk=party.pc.pk).update(level=3)
        return original(self, path, {"sheet-level": "x"}, **kwargs)

    client.post = post_then_break.__get__(client)
    with pytest.raises(AssertionError, match="changed"):
        check(client, Request("post", url, {}))
