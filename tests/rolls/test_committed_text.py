"""Free text committed, not bound (hash version 6, docs/roll-log.md): a message's text enters the
entry's hash and every member's view as SHA-256(salt ‖ text), the text kept beside the chain —
so a text changed by hand is caught, and a text removed leaves the log, the exports and the views
verifying."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.urls import reverse

from log.models import EntryText, Kind, LogHead, RollEntry, Visibility
from proofs import protocol as poolside_verify
from rolls.log.records import public_record
from rolls.webhooks import payloads
from tests.rolls.helpers import folds, gm_export, roll_athletics, tamper, verify_log, view_answer
from tests.rolls.message_helpers import correct, said

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]


def test_a_message_hashes_a_salted_commitment_and_keeps_its_text_beside(client, party):
    message = said(client, party, "player", "We climb.")
    stored = EntryText.objects.get(entry=message)
    assert message.hash_version == 6 and message.detail == "" and message.said == "We climb."
    assert (stored.field, stored.text, len(bytes.fromhex(stored.salt))) == (
        "detail",
        "We climb.",
        32,
    )
    expected = hashlib.sha256(bytes.fromhex(stored.salt) + b"We climb.").hexdigest()
    assert message.commitments == {"detail": expected}
    assert message.content()["commitments"] == {"detail": expected}
    assert "We climb." not in json.dumps(message.content())
    # Two messages alike commit alike to nothing: each text has its own salt.
    again = said(client, party, "player", "We climb.")
    assert again.commitments != message.commitments
    assert verify_log(party.campaign.pk)[0] == 0


def test_the_view_chains_the_commitment_and_shows_the_text_beside_it(client, party):
    said(client, party, "player", "Hello, table.")
    answer = view_answer(client, party, "other_player")
    (item,) = answer["items"]
    assert item["detail"] == "Hello, table." and set(item["commitments"]) == {"detail"}
    assert "placeholder" in item and "redacted" not in item  # item format 2
    assert folds(answer)
    # The text is not what the view chains: a different text beside the same commitment folds
    # the same, and is caught by the commitment instead.
    forged = item | {"detail": "Goodbye."}
    assert poolside_verify.view_step("0" * 64, forged) == poolside_verify.view_step("0" * 64, item)
    assert poolside_verify.text_problems(item) == []
    assert poolside_verify.text_problems(forged) == ["its detail does not match the commitment"]


def test_a_text_changed_by_hand_is_caught_everywhere(client, party, tmp_path):
    message = said(client, party, "player", "I open the door.")
    tamper("UPDATE log_entrytext SET text = 'I burn the door.' WHERE entry_id = %s", [message.pk])
    status, output = verify_log(party.campaign.pk)
    assert status != 0 and "its text does not match the commitment" in output
    report = poolside_verify.verify_export(gm_export(client, party))
    assert report.problems == ["entry 1: its detail does not match the commitment"]
    client.force_login(party.other_player)
    response = client.get(reverse("seen_export", args=[party.campaign.pk]))
    view = json.loads(b"".join(response.streaming_content))
    problems = poolside_verify.verify_view(view, view["keys"])
    assert problems == ["item 1: its detail does not match the commitment"]


def test_a_removed_text_leaves_the_log_its_exports_and_views_verifying(client, party):
    roll_athletics(client, party, Visibility.PUBLIC)
    message = said(client, party, "player", "Something I regret.")
    correction = correct(client, party, "player", message, "Something else.")
    assert correction.status_code == 302
    before = view_answer(client, party, "other_player")
    assert folds(before)

    EntryText.objects.filter(entry=message).delete()  # not under the append-only trigger

    assert verify_log(party.campaign.pk)[0] == 0
    export = gm_export(client, party)
    report = poolside_verify.verify_export(export)
    assert report.ok and report.removed == 1 and "1 text(s) removed" in report.summary()
    assert [r.get("detail") for r in export["entries"] if r["kind"] == Kind.MESSAGE] == [None]
    after = view_answer(client, party, "other_player")
    assert after["head"]["hash"] == before["head"]["hash"] and folds(after)
    assert after["items"][1]["detail"] is None and "salts" not in after["items"][1]
    assert "Something I regret." not in json.dumps(after)
    page = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
    assert "(text removed)" in page and "Something else." in page
    assert "Something I regret." not in page
    message = RollEntry.objects.get(pk=message.pk)
    assert message.said is None
    # What leaves the site from now on says so too: the webhooks' and Discord's record.
    record = public_record(message.pk, base_url="https://example.test")
    assert record["detail"] is None
    (embed,) = payloads.discord_message(party.campaign, record)["embeds"]
    assert embed["description"] == "(text removed)"


def test_a_version_5_entry_still_verifies_and_keeps_its_view_item(client, party):
    """Entries written before version 6 hash as they did (no commitments), and their view items
    keep format 1 byte for byte: a placeholder is still "redacted"."""
    from log.models.keys import server_key
    from proofs.protocol import entry_message

    entry = roll_athletics(client, party, Visibility.BLIND)
    entry.hash_version = 5
    old = entry.compute_hash()
    assert "commitments" not in entry.content()
    signature = server_key().sign(entry_message(party.campaign.pk, entry.seq, old))
    tamper(
        "UPDATE rolls_rollentry SET hash_version = 5, hash = %s, signature = %s WHERE id = %s",
        [old, signature, entry.pk],
    )
    head = LogHead.objects.get(pk=party.campaign.pk)
    head.hash = old
    head.sign()
    head.save()
    assert verify_log(party.campaign.pk)[0] == 0
    (item,) = view_answer(client, party, "player")["items"]
    assert item["redacted"] is True and "placeholder" not in item
    # The new entries' placeholders say what they are.
    roll_athletics(client, party, Visibility.BLIND)
    assert view_answer(client, party, "player")["items"][1]["placeholder"] is True


def test_search_finds_a_message_by_its_words(client, party):
    """The text is out of the entry's row: searched beside it (by both of PostgreSQL's paths: a
    word of three letters or more, and a shorter one)."""
    said(client, party, "player", "The lighthouse keeper lies. An ox!")
    client.force_login(party.other_player)
    url = reverse("campaign_log", args=[party.campaign.pk])
    for word in ("lighthouse", "ox", "lighthouse ox"):
        assert "lighthouse keeper" in client.get(url, {"q": word}).content.decode(), word
    for word in ("harbour", "qz", "lighthouse qz"):
        assert "lighthouse keeper" not in client.get(url, {"q": word}).content.decode(), word
