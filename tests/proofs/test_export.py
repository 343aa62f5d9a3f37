"""verify_export on a GM's and a player's export, and each way the chain can be broken."""

from __future__ import annotations

import pytest

from proofs.protocol import entry_message, head_message, verify_export
from tests.proofs.builders import (
    CAMPAIGN,
    OTHER_KEY,
    TEST_KEY,
    clone,
    gm_export,
    player_export,
    published,
    rehash,
)


@pytest.fixture(scope="module")
def gm():
    return gm_export()


@pytest.fixture(scope="module")
def player():
    return player_export()


def _problems(export, keys=None):
    report = verify_export(export, keys)
    assert not report.ok
    return report.problems


def test_an_honest_gm_export_passes(gm):
    report = verify_export(gm)
    assert report.problems == []
    assert report.summary() == (
        "OK: 4 entries, 3 proofs verified, 1 not from the VRF, chain intact and signed"
    )


def test_an_honest_player_export_passes_and_skips_placeholders(player):
    report = verify_export(player)
    assert report.ok, report.problems
    assert (report.entries, report.hidden, report.proofs, report.not_vrf) == (4, 1, 3, 1)
    assert "chain not checked" in report.summary()


def test_an_export_from_before_version_4_still_reads_its_placeholders(player):
    """Exports before version 4 called a placeholder "redacted"; the verifier reads both."""
    older = clone(player)
    older["entries"][1] = {"redacted": True}
    report = verify_export(older)
    assert report.ok, report.problems
    assert (report.entries, report.hidden) == (4, 1)


def test_the_servers_keys_file_is_accepted(gm):
    assert verify_export(gm, {"keys": [published()]}).ok
    assert verify_export(gm, {TEST_KEY.id: published()}).ok


def test_a_keys_file_without_the_proofs_key_fails_every_proof(gm):
    problems = _problems(gm, {"keys": [published(OTHER_KEY)]})
    assert sum("unknown or unpublished key" in p for p in problems) >= 3


def test_a_published_key_whose_id_lies_is_reported(gm):
    export = clone(gm)
    export["keys"][0]["id"] = OTHER_KEY.id
    problems = _problems(export)
    assert "is malformed or its id is wrong" in problems[0]


def test_a_gap_in_the_chain_is_caught(gm):
    export = clone(gm)
    del export["entries"][1]
    problems = _problems(export)
    assert any("entry 2: seq is 3, expected 2" in p for p in problems)
    assert any("prev_hash does not link" in p for p in problems)


def test_a_changed_hash_breaks_the_link_and_the_signature(gm):
    export = clone(gm)
    export["entries"][1]["hash"] = "ff" * 32
    problems = _problems(export)
    assert "entry 2: entry signature: signature does not verify" in problems
    assert "entry 3: prev_hash does not link to the entry before" in problems


def test_a_truncated_log_no_longer_matches_its_head(gm):
    export = clone(gm)
    export["entries"].pop()
    assert "chain head's length or hash is not the last entry's" in _problems(export)


def test_a_forged_head_signature_is_caught(gm):
    export = clone(gm)
    export["chain_head"]["signature"] = OTHER_KEY.sign(b"anything")
    assert "chain head signature: signature does not verify" in _problems(export)


def test_an_entry_signed_by_an_unknown_key_is_caught(gm):
    export = clone(gm)
    export["entries"][2]["signed_by"] = OTHER_KEY.id
    problems = _problems(export)
    assert f"entry 3: entry signature: unknown or unpublished key '{OTHER_KEY.id}'" in problems


def test_a_proof_moved_to_another_place_is_caught():
    # Entries from before counters (alpha version 1): the 4th entry's roll claims the 1st
    # entry's proof (same label, pool, faces): the position commitment is what ties a version 1
    # proof to its place in the chain.
    export = gm_export(legacy=True)
    assert verify_export(export).ok
    export["entries"][3]["proof"] = clone(export["entries"][0]["proof"])
    export["entries"][3]["faces"] = clone(export["entries"][0]["faces"])
    export["entries"][3]["label"] = export["entries"][0]["label"]
    problems = _problems(export)
    assert "entry 4: proof's position does not match the entry's place in the chain" in problems


def test_a_gm_export_without_its_position_secret_is_reported(gm):
    export = clone(gm)
    del export["position_secret"]
    assert "GM export has no position_secret" in _problems(export)[0]


def test_a_proof_for_another_campaign_is_caught(player):
    export = clone(player)
    export["campaign"]["id"] = 8
    problems = _problems(export)
    assert "proof's campaign is not the export's campaign" in problems[0]


def test_tampered_faces_are_reported_with_the_entry(player):
    export = clone(player)
    face = export["entries"][0]["faces"][0]
    face["face"] = face["face"] % 6 + 1
    report = verify_export(export)
    assert report.problems == [
        "entry 1 ('Athletics'): entry's faces do not follow from the VRF output"
    ]
    assert report.summary().startswith("FAILED: 1 problem(s), first: entry 1 ('Athletics')")


# --- alpha version 2: each roller's counter ---------------------------------------------------


def test_the_proofs_count_the_rollers_rolls_and_no_position_is_proven(gm):
    alphas = [e["proof"]["alpha"] for e in gm["entries"] if e["proof"]]
    assert [a["v"] for a in alphas] == [2, 2, 2] and not any("position" in a for a in alphas)
    assert len({a["counter"] for a in alphas}) == 3


def test_a_roll_drawn_and_not_logged_is_a_gap_in_the_gms_export():
    """A grinding server: it drew the roller's roll #2, disliked it, and logged #3 instead."""
    problems = _problems(gm_export(skip=2))
    assert problems == [
        "entry 2: roller 3's roll #3, but #2 is not in the log: dice were drawn for it and "
        "never logged"
    ]


def test_a_roll_drawn_and_not_logged_is_a_gap_in_the_players_own_export():
    assert verify_export(player_export()).ok
    problems = _problems(player_export(skip=2))
    assert problems == [
        "entry 3: your roll #3, but #2 is not in the log: dice were drawn for it and never logged"
    ]


def test_a_blind_roll_of_ones_own_may_stand_in_a_gap():
    export = player_export(skip=2)
    export["entries"].insert(2, {"placeholder": True, "player": "alice"})
    assert verify_export(export).ok


def test_a_counter_used_twice_is_caught(gm):
    export = clone(gm)
    # The 4th entry's roll claims the 1st entry's proof: the same number twice (a re-roll).
    export["entries"][3]["proof"] = clone(export["entries"][0]["proof"])
    export["entries"][3]["faces"] = clone(export["entries"][0]["faces"])
    export["entries"][3]["label"] = export["entries"][0]["label"]
    # A server with the key signs what it changed, the entry and the head, so that only the
    # count can give it away.
    entry, head = export["entries"][3], export["chain_head"]
    rehash(entry)
    entry["signature"] = TEST_KEY.sign(entry_message(CAMPAIGN, 4, entry["hash"]))
    head["hash"] = entry["hash"]
    head["signature"] = TEST_KEY.sign(head_message(CAMPAIGN, 4, entry["hash"]))
    assert _problems(export) == ["entry 4: roller 3's roll #1, but that was used"]


def test_another_members_secret_opens_none_of_the_rolls(player):
    export = clone(player)
    export["counter"]["secret"] = "ab" * 32
    assert _problems(export)[0] == "entry 1: the proof's counter is none of your rolls"
