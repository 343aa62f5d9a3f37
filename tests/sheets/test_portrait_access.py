"""Who may upload, replace or remove a portrait (the character's editors), and who is served
its files (the character's readers; a hidden NPC's only to the GM), with the headers they carry."""

from __future__ import annotations

import pytest
from django.urls import reverse

from sheets.models import System
from tests import portrait_files as pf

pytestmark = pytest.mark.django_db

ACTORS = ["anonymous", "nonmember", "observer", "player", "other_player", "gm"]
# The portrait page follows the sheet's Edit (docs/permissions.md): own PCs for players, every
# character for the GM.
EDIT_PC = {"nonmember": 404, "observer": 403, "player": 200, "other_player": 403, "gm": 200}
EDIT_NPC = {"nonmember": 404, "observer": 403, "player": 403, "other_player": 403, "gm": 200}
EDIT_HIDDEN = {"nonmember": 404, "observer": 404, "player": 404, "other_player": 404, "gm": 200}
# Its files follow reading the sheet.
READ = {"nonmember": 404, "observer": 200, "player": 200, "other_player": 200, "gm": 200}
READ_HIDDEN = EDIT_HIDDEN


@pytest.fixture
def party(parties):
    return parties[System.COGENT]


def with_portraits(client, party):
    """Every character of the party with a portrait, uploaded by the GM."""
    client.force_login(party.gm)
    for character in (party.pc, party.other_pc, party.npc, party.hidden_npc):
        assert pf.post_portrait(client, character, pf.picture()).status_code == 302
        character.refresh_from_db()
    client.logout()


def as_actor(client, party, actor):
    if actor != "anonymous":
        client.force_login(getattr(party, actor))
    return client


def expect(response, status):
    if status == "login":
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == status, response.status_code


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize(
    ("which", "table"), [("pc", EDIT_PC), ("npc", EDIT_NPC), ("hidden_npc", EDIT_HIDDEN)]
)
def test_the_portrait_page_is_for_the_characters_editors(client, party, actor, which, table):
    character = getattr(party, which)
    url = reverse("character_portrait", args=[character.pk])
    c = as_actor(client, party, actor)
    expect(c.get(url), "login" if actor == "anonymous" else table[actor])
    # An upload: a redirect to the sheet where allowed, the same refusal as GET otherwise.
    allowed = table.get(actor) == 200
    response = pf.post_portrait(c, character, pf.picture())
    expect(response, "login" if actor == "anonymous" else (302 if allowed else table[actor]))
    character.refresh_from_db()
    assert bool(character.portrait) is allowed


@pytest.mark.parametrize("actor", ["nonmember", "observer", "other_player"])
def test_others_cannot_remove_a_portrait(client, party, actor):
    with_portraits(client, party)
    as_actor(client, party, actor).post(
        reverse("character_portrait", args=[party.pc.pk]), {"remove": "yes"}
    )
    party.pc.refresh_from_db()
    assert party.pc.portrait


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("size", ["full", "thumb"])
def test_portrait_files_are_served_to_the_characters_readers(client, party, actor, size):
    with_portraits(client, party)
    c = as_actor(client, party, actor)
    for character, table in ((party.pc, READ), (party.npc, READ), (party.hidden_npc, READ_HIDDEN)):
        url = character.portrait_url if size == "full" else character.thumbnail_url
        expect(c.get(url), "login" if actor == "anonymous" else table[actor])


def test_a_hidden_npcs_portrait_is_404_to_players_however_the_address_is_made(client, party):
    with_portraits(client, party)
    client.force_login(party.player)
    key = party.hidden_npc.portrait
    # Its own key, another character's key, an unknown key: all the same 404.
    for version in (key, party.pc.portrait, "a" * 22):
        url = reverse("character_portrait_file", args=[party.hidden_npc.pk, version, "full"])
        assert client.get(url).status_code == 404
    # Nor does its key open it under another character's id.
    url = reverse("character_portrait_file", args=[party.pc.pk, key, "full"])
    assert client.get(url).status_code == 404


def test_the_served_file_carries_its_type_and_private_headers(client, party):
    with_portraits(client, party)
    client.force_login(party.other_player)
    response = client.get(party.pc.portrait_url)
    assert response["Content-Type"] == "image/webp"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert "private" in response["Cache-Control"]
    assert response["ETag"] == f'"{party.pc.portrait}-full"'
    assert response.content[:4] == b"RIFF" and response.content[8:12] == b"WEBP"


def test_an_old_or_unknown_address_is_404(client, party):
    with_portraits(client, party)
    client.force_login(party.player)
    old = party.pc.portrait_url
    pf.post_portrait(client, party.pc, pf.picture(color=pf.BLUE))
    assert client.get(old).status_code == 404
    party.pc.refresh_from_db()
    url = reverse("character_portrait_file", args=[party.pc.pk, party.pc.portrait, "huge"])
    assert client.get(url).status_code == 404
    assert client.get(party.pc.portrait_url).status_code == 200


def test_a_character_without_a_portrait_has_no_address(client, party):
    assert party.pc.portrait_url == "" and party.pc.thumbnail_url == ""
    client.force_login(party.player)
    url = reverse("character_portrait_file", args=[party.pc.pk, "a" * 22, "full"])
    assert client.get(url).status_code == 404
