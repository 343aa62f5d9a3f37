"""The server key (file, derivation, signatures) and the VrfDice source."""

from __future__ import annotations

import hashlib
import stat

import pytest
from nacl.signing import SigningKey

from proofs.dice import VrfDice, new_nonce, valid_nonce
from proofs.keys import KeyFileError, ServerKey, write_new_key_file
from proofs.protocol import (
    ProofError,
    check_proof,
    check_signature,
    entry_message,
    head_message,
    key_id,
)
from tests.proofs.builders import OTHER_KEY, SECRET, TEST_KEY, ZERO, published


def test_the_keys_derive_from_the_master_seed_as_the_spec_says():
    master = bytes(range(32))
    key = ServerKey.from_seed(master)
    signing_seed = hashlib.sha512(b"poolside signing key v1" + master).digest()[:32]
    assert key.signing_public_hex == SigningKey(signing_seed).verify_key.encode().hex()
    assert key.id == key_id(key.signing_public_hex, key.vrf_public_hex)
    assert len(key.id) == 16 and key.vrf_public_hex != key.signing_public_hex
    assert master.hex() not in repr(key) and "seed" not in repr(key)


def test_a_signature_round_trips():
    message = head_message(7, 3, "ab" * 32)
    assert message == b'poolside head v1\n{"campaign":7,"hash":"' + b"ab" * 32 + b'","length":3}'
    check_signature(TEST_KEY.signing_public_hex, message, TEST_KEY.sign(message))


def test_a_signature_over_another_head_or_by_another_key_fails():
    signature = TEST_KEY.sign(head_message(7, 3, ZERO))
    with pytest.raises(ProofError, match="signature does not verify"):
        check_signature(TEST_KEY.signing_public_hex, head_message(7, 4, ZERO), signature)
    with pytest.raises(ProofError, match="signature does not verify"):
        check_signature(OTHER_KEY.signing_public_hex, head_message(7, 3, ZERO), signature)


def test_the_published_key_holds_no_secret():
    key = published()
    assert set(key) == {"id", "signing_key", "vrf_key", "from", "until"}
    assert key["from"] == "2026-01-01T00:00:00+00:00" and key["until"] is None


def test_a_new_key_file_is_private_and_reads_back(tmp_path):
    path = tmp_path / "server.key"
    key = write_new_key_file(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text()
    assert len(text) == 65 and text.endswith("\n")
    assert ServerKey.from_file(path) == key


def test_an_existing_key_file_is_never_overwritten(tmp_path):
    path = tmp_path / "server.key"
    key = write_new_key_file(path)
    with pytest.raises(KeyFileError, match="already exists"):
        write_new_key_file(path)
    assert ServerKey.from_file(path) == key


def test_a_missing_key_file_says_so(tmp_path):
    with pytest.raises(KeyFileError, match="does not exist"):
        ServerKey.from_file(tmp_path / "absent.key")


@pytest.mark.parametrize("text", ["", "ab" * 31 + "\n", "AB" * 32 + "\n", "zz" * 32, "ab" * 33])
def test_a_garbled_key_file_says_so(tmp_path, text):
    path = tmp_path / "server.key"
    path.write_text(text)
    with pytest.raises(KeyFileError, match="garbled"):
        ServerKey.from_file(path)


def _dice(calls=None, nonce="roller-nonce-1"):
    def position():
        if calls is not None:
            calls.append(1)
        return (5, "cd" * 32, SECRET, 1)

    return VrfDice(TEST_KEY, 7, "Athletics", nonce, position, 3)


def test_a_draw_proves_its_faces():
    calls = []
    dice = _dice(calls)
    assert dice.record() == {}
    faces = dice.draw((("ability", 2, 10), ("skill", 3, 10), ("risk", 0, 10)))
    assert [len(group) for group in faces] == [2, 3, 0]
    assert all(1 <= face <= 10 for group in faces for face in group)
    assert calls == [1] and (dice.seq, dice.prev_hash) == (5, "cd" * 32)
    entry = {
        "label": "Athletics",
        "faces": [
            {"kind": kind, "face": face}
            for kind, group in zip(("ability", "skill"), faces, strict=False)
            for face in group
        ],
        "proof": dice.record(),
    }
    check_proof(entry, {TEST_KEY.id: published()})


def test_a_second_draw_is_refused():
    dice = _dice()
    dice.draw((("d6", 2, 6),))
    with pytest.raises(RuntimeError, match="one entry, one draw"):
        dice.draw((("d6", 2, 6),))


def test_the_same_input_draws_the_same_faces_and_another_nonce_others():
    pool = (("d6", 12, 6),)
    assert _dice().draw(pool) == _dice().draw(pool)
    assert _dice().draw(pool) != _dice(nonce="roller-nonce-2").draw(pool)


def test_an_unsupported_group_is_refused():
    with pytest.raises(ValueError, match="unsupported dice group"):
        _dice().draw((("d6", 2, 8),))


@pytest.mark.parametrize(
    ("nonce", "ok"),
    [
        ("abcdefgh", True),
        ("A_b-9" * 12, True),
        ("a" * 64, True),
        ("abcdefg", False),
        ("a" * 65, False),
        ("abc def gh", False),
        ("abcdefgh\n", False),
        (None, False),
    ],
)
def test_nonces(nonce, ok):
    assert valid_nonce(nonce) is ok


def test_an_invalid_nonce_is_refused_up_front():
    with pytest.raises(ValueError, match="nonce"):
        _dice(nonce="short")


def test_new_nonces_are_valid_and_fresh():
    assert valid_nonce(new_nonce()) and new_nonce() != new_nonce()


def test_an_entry_signature_never_stands_in_for_a_head():
    """Each entry's signature is over its own message: copied onto a head (the log cut back to
    that entry), it doesn't verify."""
    signature = TEST_KEY.sign(entry_message(7, 3, ZERO))
    check_signature(TEST_KEY.signing_public_hex, entry_message(7, 3, ZERO), signature)
    with pytest.raises(ProofError):
        check_signature(TEST_KEY.signing_public_hex, head_message(7, 3, ZERO), signature)
