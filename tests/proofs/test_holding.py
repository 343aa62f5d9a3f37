"""What a player holds the server to beyond one proof (proofs/holding.py, docs/verifiable-dice.md
"What a player can check, and how"): the entry's pool, the nonce they sent, the keys they saved,
an entry's hash. Each test serves what a server holding its key could serve: a proof that
verifies, under a key that exists, and still isn't the player's roll."""

from __future__ import annotations

import pytest

from proofs.dice import VrfDice
from proofs.holding import rotation_message
from proofs.protocol import ProofError, check_proof, entry_message, verify_export
from tests.proofs.builders import (
    CAMPAIGN,
    OTHER_KEY,
    ROLLER,
    SECRET,
    TEST_KEY,
    clone,
    gm_export,
    player_export,
    published,
    rehash,
)

KEYS = {TEST_KEY.id: published()}


def _reproved(record, groups, nonce="nonce-0001"):
    """``record`` with dice the key really proved for ``groups``: a server's own choice."""
    dice = VrfDice(
        TEST_KEY, CAMPAIGN, record["label"], nonce, lambda: (1, "0" * 64, SECRET, 1), ROLLER
    )
    faces = dice.draw(groups)
    record["faces"] = [
        {"kind": kind, "face": face}
        for (kind, _, _), group in zip(groups, faces, strict=True)
        for face in group
    ]
    record["proof"] = dice.record()
    return record


# --- 3. the proved pool is the entry's pool ---------------------------------------------------


def test_a_proof_of_fewer_dice_than_the_entrys_pool_is_refused():
    record = clone(gm_export()["entries"][0])
    record["pool"] = {"dice": 6}  # the sheet's 6d6; the server proved 4
    with pytest.raises(ProofError, match="the proof rolls 4 dice, but the entry's pool is 6d6"):
        check_proof(record, KEYS)


def test_dad6_is_held_to_the_dice_it_rolled_after_a_trade():
    record = _reproved(clone(gm_export()["entries"][0]), (("d6", 3, 6),))
    record["pool"] = {"dice": 5, "rolled": 3, "traded_boons": 1, "die_modifier": 0}
    check_proof(record, KEYS)
    record["pool"]["rolled"] = 5
    with pytest.raises(ProofError, match="rolls 3 dice, but the entry's pool is 5d6"):
        check_proof(record, KEYS)


def test_a_cold_stars_proof_must_roll_the_pools_ability_skill_and_risk():
    record = clone(gm_export()["entries"][1])
    check_proof(record, KEYS)
    record["pool"] = {"ability": 2, "skill": 2, "risk": 0, "built": {}}
    with pytest.raises(ProofError, match="proof rolls 2 ability, 1 skill, 0 risk, but the entry"):
        check_proof(record, KEYS)


# --- 1. the nonce the player sent ---------------------------------------------------------------


def test_the_nonces_a_player_kept_are_compared_with_the_proofs():
    export = player_export()
    roll = export["entries"][0]
    assert (
        verify_export(export, nonces={roll["hash"]: "nonce-0001"})
        .summary()
        .startswith(
            "OK: 4 entries, 3 proofs verified, 1 not from the VRF, 1 hidden, 1 with your nonce"
        )
    )
    report = verify_export(export, nonces={roll["hash"]: "8e13a0c2d1f4"})
    assert report.problems == [
        f"entry {roll['hash'][:12]}… ('Athletics'): you sent nonce 8e13a0c2…, "
        "the proof uses nonce-00…: the server did not use your part"
    ]


def test_a_roll_whose_nonce_was_kept_but_is_missing_from_the_export_is_reported():
    report = verify_export(player_export(), nonces={"ab" * 32: "nonce-0001"})
    assert report.problems == [
        f"entry {'ab' * 6}…: you kept its nonce, but the export has no such entry"
    ]


# --- 2. keys pinned -----------------------------------------------------------------------------


def _rotated(key=OTHER_KEY, signer=TEST_KEY):
    record = published(key)
    record["rotation"] = {
        "from": TEST_KEY.id,
        "signature": signer.sign(rotation_message(TEST_KEY.id, record)),
    }
    return record


def _export_under(key_records):
    export = player_export()
    export["keys"] = key_records
    return export


def test_a_key_the_saved_keys_hand_over_to_is_trusted():
    saved = {"keys": [published()]}
    assert verify_export(_export_under([published(), _rotated()]), saved).ok


def test_a_new_key_without_a_rotation_signed_by_the_saved_key_is_refused():
    # The server swapped in a key of its own and published it (a fresh key, or one whose
    # rotation statement the old key never signed): the saved keys don't hand over to it.
    for offered in (published(OTHER_KEY), _rotated(signer=OTHER_KEY)):
        export = _export_under([published(), offered])
        problems = verify_export(export, {"keys": [published()]}).problems
        assert problems[0].startswith(f"keys: key {OTHER_KEY.id} is not pinned")


def test_a_saved_keys_id_published_with_other_halves_is_refused():
    swapped = published(OTHER_KEY) | {"id": TEST_KEY.id}
    problems = verify_export(_export_under([swapped]), {"keys": [published()]}).problems
    # (Its id is not its halves' hash either, so the export's list drops it first.)
    assert any("published key" in p or "not the key you saved" in p for p in problems)


def test_proofs_under_a_swapped_key_fail_against_the_saved_keys():
    export = player_export(OTHER_KEY)  # every roll proved by a key the player never saw
    report = verify_export(export, {"keys": [published()]})
    assert not report.ok
    assert sum("unknown or unpublished key" in p for p in report.problems) == 3


# --- 7. an entry's hash, rebuilt from the GM's export -----------------------------------------


def test_an_entry_changed_and_re_signed_by_the_key_is_caught_by_its_hash():
    # A server with its key swaps a roll's proof and dice for another valid pair, and signs the
    # entry's old hash again: link and signature hold; only the entry's fields say otherwise.
    export = gm_export()
    _reproved(export["entries"][0], (("d6", 4, 6),), nonce="the-servers-own")
    problems = verify_export(export).problems
    assert problems == [
        "entry 1: its fields do not hash to its hash: the entry was changed after it was signed"
    ]


def test_an_entry_rehashed_after_a_change_breaks_the_link_and_signature():
    export = gm_export()
    record = export["entries"][0]
    _reproved(record, (("d6", 4, 6),), nonce="the-servers-own")
    rehash(record)
    record["signature"] = TEST_KEY.sign(entry_message(CAMPAIGN, 1, record["hash"]))
    problems = verify_export(export).problems
    assert "entry 2: prev_hash does not link to the entry before" in problems


def test_a_gm_export_missing_a_hashed_field_is_reported():
    export = gm_export()
    del export["entries"][2]["system"]
    assert verify_export(export).problems == [
        "entry 3: its hashed form can't be rebuilt: field 'system' is missing"
    ]
