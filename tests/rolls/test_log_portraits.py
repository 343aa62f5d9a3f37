"""Portraits in the roll log's rows and permalinks: the character's thumbnail beside its name for
those who may read the character, its initials otherwise, nothing at all in a placeholder; and
the log page costs no query more for them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from sheets.models import System
from tests import portrait_files as pf
from tests.factories import RollEntryFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def party(parties):
    party = parties[System.COGENT]
    return party


def give_portraits(client, party, *characters):
    client.force_login(party.gm)
    for character in characters:
        assert pf.post_portrait(client, character, pf.picture()).status_code == 302
        character.refresh_from_db()


def log_of(client, party) -> str:
    return client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()


def test_a_log_row_shows_the_characters_thumbnail(client, party):
    give_portraits(client, party, party.pc)
    entry = RollEntryFactory(character=party.pc)
    client.force_login(party.other_player)
    log = log_of(client, party)
    assert f'src="{party.pc.thumbnail_url}" alt=""' in log
    permalink = client.get(entry.get_absolute_url()).content.decode()
    assert f'src="{party.pc.thumbnail_url}"' in permalink
    assert client.get(party.pc.thumbnail_url).status_code == 200


def test_without_a_portrait_a_row_shows_initials(client, party):
    RollEntryFactory(character=party.other_pc)
    client.force_login(party.player)
    assert 'portrait-row portrait-initials" aria-hidden="true">B</span>' in log_of(client, party)


def test_a_hidden_npcs_portrait_never_reaches_players(client, party):
    """Its rolls are hidden (no row at all), or placeholders (no picture), or revealed by the
    GM: then the row shows its initials, as the NPC itself stays hidden."""
    give_portraits(client, party, party.hidden_npc)
    hidden = RollEntryFactory(character=party.hidden_npc, user=party.gm)
    revealed = RollEntryFactory(character=party.hidden_npc, user=party.gm, label="Sneak")
    client.force_login(party.gm)
    gm_log = log_of(client, party)
    assert gm_log.count(f'src="{party.hidden_npc.thumbnail_url}"') == 2
    assert client.post(reverse("roll_reveal", args=[revealed.pk])).status_code == 302
    for actor in (party.player, party.observer):
        client.force_login(actor)
        log = log_of(client, party)
        assert party.hidden_npc.portrait not in log
        assert "Sneak" in log  # the revealed roll is there, with initials
        permalink = client.get(revealed.get_absolute_url()).content.decode()
        assert party.hidden_npc.portrait not in permalink
        assert client.get(hidden.get_absolute_url()).status_code == 404
        assert client.get(party.hidden_npc.thumbnail_url).status_code == 404


def test_a_blind_placeholder_shows_no_picture(client, party):
    give_portraits(client, party, party.pc)
    RollEntryFactory(character=party.pc, visibility="blind")
    client.force_login(party.player)
    log = log_of(client, party)
    assert "roll was made" in log
    assert party.pc.portrait not in log


def _log_queries(client, party) -> int:
    with CaptureQueriesContext(connection) as ctx:
        log_of(client, party)
    return len(ctx.captured_queries)


def test_portraits_cost_the_log_no_query(client, party):
    """tests/rolls/test_query_counts.py pins the log page; portraits leave its figure alone."""
    for character in (party.pc, party.other_pc, party.npc):
        RollEntryFactory.create_batch(3, character=character)
    client.force_login(party.player)
    without = _log_queries(client, party)
    give_portraits(client, party, party.pc, party.other_pc, party.npc)
    client.force_login(party.player)
    assert _log_queries(client, party) == without
