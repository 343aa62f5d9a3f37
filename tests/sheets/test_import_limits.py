"""Character import under abuse (docs/character-json.md, "Limits" and "Who sets what"): oversized
pastes and files, deep nesting and endless lists are refused with a 4xx and a readable message
before anything is written; a player's import cannot set what only the GM may set."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sheets.character_json import MAX_DEPTH, MAX_ROWS, export_character, export_json
from sheets.models import Character, Role, System
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory
from tests.fuzz import snapshot

pytestmark = pytest.mark.django_db

KIB = 1024


@pytest.fixture
def stars():
    """A Cold Stars campaign with its GM and a player."""
    campaign = CampaignFactory(system=System.COLD_STARS)
    gm = campaign.memberships.get(role=Role.GM).user
    player = MembershipFactory(campaign=campaign, role=Role.PLAYER).user
    return campaign, gm, player


def import_as(client, user, campaign, **data):
    client.force_login(user)
    return client.post(reverse("character_import", args=[campaign.pk]), data)


def refused(client, user, campaign, status=400, **data):
    """Post an import that must be refused: the status, nothing written, the page's text."""
    client.force_login(user)  # before the snapshot: logging in writes last_login
    before = snapshot()
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("character_import", args=[campaign.pk]), data)
    assert response.status_code == status, response.content[:500]
    assert snapshot() == before
    # Refused before any sheet form ran: a handful of queries (session, user, membership).
    assert len(queries) < 15, [q["sql"] for q in queries]
    return response.content.decode()


def envelope(sheet, system=System.COLD_STARS):
    return {
        "format": "poolside-character",
        "version": 1,
        "system": system,
        "character": {"name": "Big"},
        "sheet": sheet,
    }


# ---------------------------------------------------------------------------------------------
# Size, depth, rows
# ---------------------------------------------------------------------------------------------


def test_a_10_mb_paste_is_refused_with_a_readable_413(client, stars):
    campaign, _, player = stars
    body = refused(client, player, campaign, status=413, text="x" * (10 * 1024 * KIB))
    assert "What you sent is too large" in body
    assert "at most 1 MiB (a portrait upload 8 MiB), a character to import at most 256 KiB" in body


def test_a_10_mb_file_is_refused_with_a_readable_413(client, stars):
    campaign, _, player = stars
    upload = SimpleUploadedFile("big.json", b" " * (10 * 1024 * KIB), "application/json")
    body = refused(client, player, campaign, status=413, file=upload)
    assert "too large" in body and "256 KiB" in body


def test_a_paste_over_256_kib_is_refused_beside_the_field(client, stars):
    campaign, _, player = stars
    # Valid JSON, padded past the limit: nothing but its size is wrong.
    text = json.dumps(envelope({})).replace("{", "{" + " " * (256 * KIB), 1)
    body = refused(client, player, campaign, text=text)
    assert "Pasted JSON is too large for a character (256 KiB max)" in body


def test_a_file_over_256_kib_is_refused_beside_the_field(client, stars):
    campaign, _, player = stars
    upload = SimpleUploadedFile("big.json", json.dumps(envelope({})).encode() + b" " * 300 * KIB)
    body = refused(client, player, campaign, file=upload)
    assert "That file is too large for a character (256 KiB max)" in body


def test_100k_deep_nesting_is_refused(client, stars):
    campaign, _, player = stars
    body = refused(client, player, campaign, text="[" * 100_000 + "]" * 100_000)
    assert f"nested too deeply (more than {MAX_DEPTH} levels)" in body


def test_deep_nesting_inside_an_export_is_refused(client, stars):
    campaign, _, player = stars
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    text = json.dumps(envelope({"skills": []})).replace("[]", deep)
    assert "nested too deeply" in refused(client, player, campaign, text=text)


def test_brackets_inside_strings_are_not_nesting(client, stars):
    campaign, _, player = stars
    data = envelope({})
    data["character"]["notes"] = "[[[[{{{{" * 10 + '\\"[[[['
    response = import_as(client, player, campaign, text=json.dumps(data))
    assert response.status_code == 302
    assert campaign.characters.get().notes == data["character"]["notes"]


def test_100k_rows_are_refused(client, stars):
    campaign, _, player = stars
    text = json.dumps(envelope({"skills": [1] * 100_000}), separators=(",", ":"))
    assert len(text.encode()) < 256 * KIB  # refused for its rows, not its size
    body = refused(client, player, campaign, text=text)
    assert f"sheet.skills: 100000 rows; a character has at most {MAX_ROWS}" in body


def test_one_row_over_the_limit_is_refused_and_the_limit_itself_imports(client):
    campaign = CampaignFactory(system=System.DAD6)
    gm = campaign.memberships.get(role=Role.GM).user
    skills = [{"name": f"Skill {i}", "is_class_skill": True} for i in range(MAX_ROWS + 1)]
    text = json.dumps(envelope({"skills": skills}, System.DAD6))
    assert f"at most {MAX_ROWS}" in refused(client, gm, campaign, text=text)
    text = json.dumps(envelope({"skills": skills[:MAX_ROWS]}, System.DAD6))
    assert import_as(client, gm, campaign, text=text).status_code == 302
    assert campaign.characters.get().dad6.skills.count() == MAX_ROWS


def test_rows_are_capped_across_the_whole_character_too(client):
    campaign = CampaignFactory(system=System.COGENT)
    gm = campaign.memberships.get(role=Role.GM).user
    vocation = {"name": "V", "attribute": "reflex", "rating": 1, "subskills": [{}] * MAX_ROWS}
    text = json.dumps(envelope({"vocations": [vocation] * MAX_ROWS}, System.COGENT))
    assert "rows in all" in refused(client, gm, campaign, text=text)


def test_a_number_too_long_to_read_is_refused_not_a_500(client, stars):
    campaign, _, player = stars
    text = json.dumps(envelope({})).replace('"Big"', "1" * 10_000)
    assert "not valid JSON" in refused(client, player, campaign, text=text)


# ---------------------------------------------------------------------------------------------
# Who sets what: the importer acts with the importing member's role
# ---------------------------------------------------------------------------------------------


def gm_only_export():
    """A Cold Stars export with the GM's resource maximums set and NPC flags on."""
    source = CharacterFactory(campaign__system=System.COLD_STARS, name="Ace")
    sheet = source.cold_stars
    sheet.momentum_max, sheet.momentum, sheet.willpower_max, sheet.willpower = 6, 2, 4, 3
    sheet.save()
    data = export_character(source)
    data["character"] |= {"hidden_from_players": True, "is_npc": True}
    return data


def test_a_players_import_ignores_gm_only_fields_and_says_so(client, stars):
    campaign, _, player = stars
    data = gm_only_export()
    response = import_as(client, player, campaign, text=json.dumps(data))
    assert response.status_code == 302
    character = campaign.characters.get()
    assert (character.is_npc, character.hidden_from_players) == (False, False)
    sheet = character.cold_stars
    # The campaign's default maximums (5 and 3 unless the GM changed them), not the file's;
    # the current values can't exceed them.
    assert (sheet.momentum_max, sheet.willpower_max, sheet.momentum, sheet.willpower) == (
        5,
        3,
        2,
        3,
    )
    page = client.get(response["Location"]).content.decode()
    assert "Only the GM sets" in page
    for field in ("momentum_max", "willpower_max", "hidden_from_players", "is_npc"):
        assert field in page


def test_the_gms_import_keeps_gm_only_fields(client, stars):
    campaign, gm, _ = stars
    response = import_as(client, gm, campaign, text=json.dumps(gm_only_export()))
    assert response.status_code == 302
    character = campaign.characters.get()
    assert (character.is_npc, character.hidden_from_players) == (True, True)
    sheet = character.cold_stars
    assert (sheet.momentum_max, sheet.willpower_max, sheet.momentum, sheet.willpower) == (
        6,
        4,
        2,
        3,
    )
    assert "Only the GM sets" not in client.get(response["Location"]).content.decode()


def test_a_player_without_gm_only_fields_gets_no_notice(client, stars):
    campaign, _, player = stars
    data = envelope({"agility": 3, "momentum": 0})
    response = import_as(client, player, campaign, text=json.dumps(data))
    assert response.status_code == 302
    assert "Only the GM sets" not in client.get(response["Location"]).content.decode()


def test_a_hidden_npc_round_trips_through_the_gm(client, stars):
    campaign, gm, _ = stars
    npc = campaign.new_character(owner=gm, name="Spy", is_npc=True, hidden_from_players=True)
    exported = json.loads(export_json(npc))
    assert exported["character"]["hidden_from_players"] is True
    visible = campaign.new_character(owner=gm, name="Guard", is_npc=True)
    assert "hidden_from_players" not in export_character(visible)["character"]
    response = import_as(client, gm, campaign, text=json.dumps(exported))
    assert response.status_code == 302
    copy = Character.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert copy.hidden_from_players and copy.is_npc


def test_a_bad_hidden_flag_from_the_gm_is_a_path_error(client, stars):
    campaign, gm, _ = stars
    data = envelope({})
    data["character"]["hidden_from_players"] = "sometimes"
    body = refused(client, gm, campaign, text=json.dumps(data))
    assert "character.hidden_from_players: expected true or false." in body


def test_pathological_strings_are_scanned_in_one_pass(client, stars):
    """Unterminated strings full of escaped quotes: a naive string-skipping scan would restart at
    every quote (quadratic); this one answers at once with the JSON error."""
    campaign, _, player = stars
    body = refused(client, player, campaign, text='"' + '\\"' * 100_000)
    assert "not valid JSON" in body


def test_an_export_padded_with_whitespace_imports(client, stars):
    """Decided (issue 50), not refused: whitespace around and between JSON's tokens is
    insignificant (RFC 8259), so a padded export is the same character. The pasted text is
    trimmed first (the form's field strips it), so padding around the JSON, bounded by the
    1 MiB request limit, doesn't count toward the 256 KiB; whitespace inside it does."""
    campaign, _, player = stars
    raw = export_json(CharacterFactory(campaign=campaign, owner=player, name="Padded"))
    padded = "\n \t\r\n" * 2000 + raw + " " * 300 * KIB
    response = import_as(client, player, campaign, text=padded)
    assert response.status_code == 302
    assert Character.objects.filter(campaign=campaign, name="Padded").count() == 2
    inside = raw.replace("{", "{" + " " * 256 * KIB, 1)
    page = refused(client, player, campaign, text=inside)
    assert "too large for a character (256 KiB max)" in page
