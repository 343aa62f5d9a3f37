"""An entry's proof against the entry: each tamper fails with its own reason."""

from __future__ import annotations

import pytest

from proofs.protocol import (
    ProofError,
    alpha_bytes,
    check_proof,
    counter,
    ecvrf_verify,
    faces_from_beta,
    roller_secret,
)
from tests.proofs.builders import (
    CAMPAIGN,
    OTHER_KEY,
    ROLLER,
    SECRET,
    TEST_KEY,
    clone,
    gm_export,
    published,
)

KEYS = {TEST_KEY.id: published()}


@pytest.fixture(scope="module")
def export():
    return gm_export()


@pytest.fixture
def cogent(export):
    return clone(export["entries"][0])


@pytest.fixture
def cold_stars(export):
    return clone(export["entries"][1])


def test_an_honest_entry_passes(cogent, cold_stars):
    check_proof(cogent, KEYS)
    check_proof(cold_stars, KEYS)


def test_the_proof_record_follows_the_spec(cogent):
    proof = cogent["proof"]
    assert set(proof) == {"v", "suite", "key", "alpha", "pi"}
    assert proof["key"] == TEST_KEY.id and len(proof["pi"]) == 160
    alpha = proof["alpha"]
    assert alpha == {
        "v": 2,
        "campaign": CAMPAIGN,
        "counter": counter(CAMPAIGN, ROLLER, 1, roller_secret(SECRET, CAMPAIGN, ROLLER)),
        "target": "Athletics",
        "pool": [["d6", 4, 6]],
        "nonce": "nonce-0001",
    }
    beta = ecvrf_verify(
        bytes.fromhex(TEST_KEY.vrf_public_hex), bytes.fromhex(proof["pi"]), alpha_bytes(alpha)
    )
    assert faces_from_beta(beta, alpha["pool"]) == [[f["face"] for f in cogent["faces"]]]


def test_a_changed_face_is_caught(cogent):
    cogent["faces"][2]["face"] = cogent["faces"][2]["face"] % 6 + 1
    with pytest.raises(ProofError, match="faces do not follow from the VRF output"):
        check_proof(cogent, KEYS)


def test_a_changed_label_is_caught(cogent):
    cogent["label"] = "Stealth"
    with pytest.raises(ProofError, match="target 'Athletics' is not the entry's label 'Stealth'"):
        check_proof(cogent, KEYS)


def test_a_target_rewritten_to_match_a_new_label_breaks_the_proof(cogent):
    cogent["label"] = cogent["proof"]["alpha"]["target"] = "Stealth"
    with pytest.raises(ProofError, match="bad proof"):
        check_proof(cogent, KEYS)


def test_a_dropped_die_is_caught(cogent):
    del cogent["faces"][-1]
    with pytest.raises(ProofError, match=r"pool \(kinds and counts\) does not match"):
        check_proof(cogent, KEYS)


def test_a_changed_die_kind_is_caught(cold_stars):
    cold_stars["faces"][0]["kind"] = "skill"
    with pytest.raises(ProofError, match=r"pool \(kinds and counts\) does not match"):
        check_proof(cold_stars, KEYS)


def test_a_pool_rewritten_to_match_fewer_dice_breaks_the_proof(cogent):
    del cogent["faces"][-1]
    cogent["proof"]["alpha"]["pool"] = [["d6", 3, 6]]
    cogent["pool"] = {"dice": 3}  # the entry rewritten too: only the proof is left to say no
    with pytest.raises(ProofError, match="bad proof"):
        check_proof(cogent, KEYS)


def test_a_pool_with_odd_sides_is_refused(cogent):
    cogent["proof"]["alpha"]["pool"] = [["d6", 4, 7]]
    with pytest.raises(ProofError, match=r"is not \[\[kind, count, 6 or 10 sides\], ...\]"):
        check_proof(cogent, KEYS)


def test_a_flipped_bit_in_pi_is_caught(cogent):
    pi = bytearray.fromhex(cogent["proof"]["pi"])
    pi[40] ^= 1
    cogent["proof"]["pi"] = pi.hex()
    with pytest.raises(ProofError, match="bad proof"):
        check_proof(cogent, KEYS)


def test_a_changed_nonce_breaks_the_proof(cogent):
    cogent["proof"]["alpha"]["nonce"] = "nonce-9999"
    with pytest.raises(ProofError, match="bad proof"):
        check_proof(cogent, KEYS)


def test_an_unknown_key_is_refused(cogent):
    with pytest.raises(ProofError, match=f"unknown or unpublished key '{TEST_KEY.id}'"):
        check_proof(cogent, {OTHER_KEY.id: published(OTHER_KEY)})


def test_a_key_published_under_a_proofs_id_but_different_is_refused(cogent):
    impostor = {**published(OTHER_KEY), "id": TEST_KEY.id}
    with pytest.raises(ProofError, match="bad proof"):
        check_proof(cogent, {TEST_KEY.id: impostor})


def test_a_malformed_proof_record_is_refused(cogent):
    cogent["proof"]["suite"] = "ECVRF-P256-SHA256-TAI"
    with pytest.raises(ProofError, match="not a version 1 ECVRF-EDWARDS25519-SHA512-TAI proof"):
        check_proof(cogent, KEYS)


def test_pi_that_is_not_hex_is_refused(cogent):
    cogent["proof"]["pi"] = "zz" * 80
    with pytest.raises(ProofError, match="not hex"):
        check_proof(cogent, KEYS)


@pytest.mark.parametrize(
    "pool", ["d6", [["d6", 4]], [["d6", "4", 6]], [["d6", 10**9, 6]], [["d6", 4, 6.0]], [[6, 4, 6]]]
)
def test_a_malformed_pool_is_refused(cogent, pool):
    cogent["proof"]["alpha"]["pool"] = pool
    with pytest.raises(ProofError, match="alpha's pool"):
        check_proof(cogent, KEYS)


def test_a_face_of_another_json_type_is_caught(cogent):
    # 4.0 == 4 in Python, but not in the canonical JSON the entry's hash covers.
    cogent["faces"][0]["face"] = float(cogent["faces"][0]["face"])
    with pytest.raises(ProofError, match="faces do not follow from the VRF output"):
        check_proof(cogent, KEYS)
