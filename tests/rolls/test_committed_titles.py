"""Session and scene titles committed, not bound (hash version 6, docs/sessions.md): a session's
start and a scene's marker hash a commitment to their name, the name kept beside the chain, and
no later marker repeats the title — so a title changed by hand is caught, and a title removed
leaves the log, its exports and the views verifying while every page says it was removed."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from log.models import EntryText, Kind, LogHead, RollEntry
from log.models.keys import server_key
from proofs import protocol as poolside_verify
from proofs.protocol import entry_message
from rolls.log.records import public_record
from rolls.sessions import actions, recap
from rolls.sessions.state import current, session, sessions
from rolls.webhooks import payloads
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import folds, gm_export, tamper, verify_log, view_answer

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]

TYPED = ("The heist", "The docks")


def api_client(user) -> Client:
    _, raw = ApiToken.issue(user, name="t", scope=Scope.READ)
    return Client(headers={"Authorization": f"Bearer {raw}"})


def evening(party) -> tuple[RollEntry, RollEntry, RollEntry]:
    """Session 1 "The heist", its scene 1 "The docks", and its end: the three markers."""
    (start,) = actions.start_session(party.gm, party.campaign, "The heist")
    scene = actions.mark_scene(party.gm, party.campaign, "The docks")
    end = actions.end_session(party.gm, party.campaign)
    return start, scene, end


def test_a_title_is_hashed_as_a_commitment_and_kept_beside(party):
    start, scene, end = evening(party)
    assert [m.hash_version for m in (start, scene, end)] == [6, 6, 6]
    kept = dict(EntryText.objects.filter(field="detail").values_list("entry_id", "text"))
    assert kept == {start.pk: "Session 1: The heist", scene.pk: "Scene 1: The docks"}
    for marker in (start, scene, end):
        hashed = json.dumps(RollEntry.objects.get(pk=marker.pk).content())
        assert not any(title in hashed for title in TYPED), marker.kind  # nowhere in the clear
    assert set(start.commitments) == set(scene.commitments) == {"detail"}
    assert end.commitments == {} and end.detail == "Session 1"
    assert verify_log(party.campaign.pk)[0] == 0


def test_the_titles_read_from_beside_the_chain_everywhere(client, party):
    evening(party)
    actions.start_session(party.gm, party.campaign, "Second")
    assert current(party.campaign.pk).name == "Session 2: Second"
    first = session(party.campaign.pk, 1)
    assert (first.state.name, first.scenes[0].state.scene_name) == (
        "Session 1: The heist",
        "Scene 1: The docks",
    )
    assert [item.state.name for item in sessions(party.campaign.pk)] == [
        "Session 2: Second",
        "Session 1: The heist",
    ]
    client.force_login(party.player)
    page = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
    assert '<span class="marker-kind">Session ended</span> Session 1: The heist' in page
    assert "Scene 1: The docks" in page
    listed = api_client(party.player).get(reverse("api:sessions", args=[party.campaign.pk])).json()
    assert [s["title"] for s in listed["sessions"]] == ["Second", "The heist"]
    assert listed["sessions"][1]["scenes"][0]["title"] == "The docks"


def test_a_title_changed_by_hand_is_caught_everywhere(client, party):
    start, _, _ = evening(party)
    tamper(
        "UPDATE log_entrytext SET text = 'Session 1: The robbery' WHERE entry_id = %s", [start.pk]
    )
    status, output = verify_log(party.campaign.pk)
    assert status != 0 and "its text does not match the commitment" in output
    report = poolside_verify.verify_export(gm_export(client, party))
    assert report.problems == ["entry 1: its detail does not match the commitment"]
    client.force_login(party.other_player)
    response = client.get(reverse("seen_export", args=[party.campaign.pk]))
    view = json.loads(b"".join(response.streaming_content))
    assert poolside_verify.verify_view(view, view["keys"]) == [
        "item 1: its detail does not match the commitment"
    ]


def test_a_removed_title_still_verifies_and_reads_removed(client, party):
    start, scene, _ = evening(party)
    actions.start_session(party.gm, party.campaign, "")
    before = view_answer(client, party, "other_player")
    assert folds(before)

    EntryText.objects.filter(entry__in=[start, scene]).delete()  # beside the chain: removable

    assert verify_log(party.campaign.pk)[0] == 0
    export = gm_export(client, party)
    report = poolside_verify.verify_export(export)
    assert report.ok and report.removed == 2
    after = view_answer(client, party, "other_player")
    assert after["head"]["hash"] == before["head"]["hash"] and folds(after)
    assert not any(title in json.dumps(after) + json.dumps(export) for title in TYPED)
    page = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
    assert not any(title in page for title in TYPED)
    response = client.get(reverse("campaign_log_csv", args=[party.campaign.pk]))
    csv = b"".join(response.streaming_content).decode()
    assert csv.count("(title removed)") == 2 and "(text removed)" not in csv
    assert '<span class="marker-kind">Session ended</span> Session 1: (title removed)' in page
    assert '<span class="marker-kind">Session started</span> (title removed)' in page
    first = session(party.campaign.pk, 1)
    assert (first.state.name, first.scenes[0].state.scene_name) == (
        "Session 1: (title removed)",
        "Scene 1: (title removed)",
    )
    rows = recap.rows_for(party.campaign, first, None)
    text = recap.markdown(party.campaign, first, rows, "https://example.test")
    assert "# Session 1: (title removed)" in text and "## Scene 1: (title removed)" in text
    (embed,) = payloads.discord_message(
        party.campaign, public_record(scene.pk, base_url="https://example.test")
    )["embeds"]
    assert embed["title"].endswith(": (title removed)")


def test_markers_of_version_5_keep_their_titles_and_verify(client, party):
    """Markers written before version 6 hashed their name and titles in the clear: they verify
    as they were, and read their titles from their ``result``."""
    (start,) = actions.start_session(party.gm, party.campaign, "Old times")
    EntryText.objects.filter(entry=start).delete()
    old_result = {
        "session": 1,
        "title": "Old times",
        "scene": None,
        "scene_title": "",
        "open": True,
    }
    entry = RollEntry.objects.get(pk=start.pk)
    entry.hash_version, entry.detail, entry.result = 5, "Session 1: Old times", old_result
    old = entry.compute_hash()
    assert "Old times" in json.dumps(entry.content()) and "commitments" not in entry.content()
    signature = server_key().sign(entry_message(party.campaign.pk, entry.seq, old))
    tamper(
        "UPDATE rolls_rollentry SET hash_version = 5, hash = %s, signature = %s, detail = %s,"
        " result = %s, commitments = NULL WHERE id = %s",
        [old, signature, entry.detail, json.dumps(old_result), entry.pk],
    )
    head = LogHead.objects.get(pk=party.campaign.pk)
    head.hash = old
    head.sign()
    head.save()
    assert verify_log(party.campaign.pk)[0] == 0
    # A new scene of the old session reads its session's title from the old start's result.
    actions.mark_scene(party.gm, party.campaign, "New")
    assert current(party.campaign.pk).name == "Session 1: Old times"
    assert session(party.campaign.pk, 1).scenes[0].state.scene_name == "Scene 1: New"
    assert verify_log(party.campaign.pk)[0] == 0
    client.force_login(party.player)
    page = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
    assert "Session 1: Old times" in page and "Scene 1: New" in page
    assert RollEntry.objects.filter(kind=Kind.SCENE).get().result == {
        "session": 1,
        "scene": 1,
        "open": True,
    }
