"""The proof that the log's kinds are open (issue 55): a table note, a kind of log entry that
lives only in tests/ — its KindInfo (tests/note/kind.py), its action and its card — appended,
listed, exported and kept off the roll lists as its KindInfo says, with nothing outside tests/
naming it."""

import json
import subprocess
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from log.models import RollEntry, kind_info
from rolls.rolling.actions import make_follow_up
from rolls.webhooks.payloads import json_payload
from sheets.models import Refused
from tests.note.actions import write_note

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def gm_of(party):
    return party.campaign.memberships.get(user=party.gm)


def test_nothing_outside_tests_names_the_test_kind():
    found = subprocess.run(
        ["git", "grep", "-l", "-i", "-e", "table_note", "-e", "table note", "-e", "tests.note"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    code = [path for path in found if not path.startswith("tests/") and not path.endswith(".md")]
    assert code == []


def test_a_note_is_appended_to_the_chain_with_no_roll_stand_ins(party):
    note = write_note(party.gm, gm_of(party), "The party rests at the inn.")
    note.refresh_from_db()
    assert note.kind == "table_note" and note.info is kind_info("table_note")
    assert (note.label, note.odds, note.odds_display, note.faces) == ("", "", "", [])
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact
    with pytest.raises(Refused):
        write_note(party.player, party.player_membership, "I rule now.")


def test_a_note_is_listed_on_the_log_with_its_own_card(client, party):
    note = write_note(party.gm, gm_of(party), "The party rests at the inn.")
    client.force_login(party.player)
    for url in (reverse("campaign_log", args=[party.campaign.pk]), note.get_absolute_url()):
        page = client.get(url).content.decode()
        assert 'class="entry entry-table-note"' in page
        assert "Table note by" in page and "The party rests at the inn." in page


def test_a_note_is_exported_and_posted_as_its_info_says(client, party):
    write_note(party.gm, gm_of(party), "Night falls.")
    client.force_login(party.player)
    response = client.get(reverse("campaign_log_json", args=[party.campaign.pk]))
    entries = json.loads(b"".join(response.streaming_content))["entries"]
    assert [(e["kind"], e["detail"]) for e in entries] == [("table_note", "Night falls.")]
    assert json_payload(party.campaign, entries[0])["event"] == "message"  # webhook_shape


def test_a_note_is_no_roll(party):
    """Not on a character's roll lists, never followed up: its KindInfo's answers."""
    note = write_note(party.gm, gm_of(party), "Night falls.")
    assert RollEntry.objects.filter(pk=note.pk).exists()
    assert not RollEntry.objects.filter(pk=note.pk).rolls().exists()
    with pytest.raises(Refused):
        make_follow_up(party.gm, note, party.pc, "destiny", "")


def test_the_database_holds_the_registered_kinds_and_their_roots(party):
    note = write_note(party.gm, gm_of(party), "Night falls.")
    fields = {"user": party.gm, "username": "gm", "system": party.campaign.system}
    with pytest.raises(IntegrityError), transaction.atomic():
        RollEntry.objects.append(campaign=party.campaign, kind="no_such_kind", **fields)
    with pytest.raises(IntegrityError), transaction.atomic():  # a root follows nothing
        RollEntry.objects.append(campaign=party.campaign, kind="table_note", follows=note, **fields)
