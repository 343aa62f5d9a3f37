"""ECVRF-EDWARDS25519-SHA512-TAI against RFC 9381's own examples, and every way a proof can be
forged or garbled failing with a clear reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from proofs import ecvrf
from proofs.protocol import (
    L,
    ProofError,
    ecvrf_verify,
    encode_to_curve,
    proof_to_hash,
)

VECTORS = json.loads((Path(__file__).parent / "rfc9381_vectors.json").read_text())["vectors"]
EXAMPLE = VECTORS[1]  # Example 17: its encode_to_curve needs a second try (ctr = 1)
PK, PI, ALPHA = (bytes.fromhex(EXAMPLE[name]) for name in ("pk", "pi", "alpha"))
# A point of order 8 on edwards25519 (canonical encoding): a small-order key must be refused.
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")


def _flip(data: bytes, index: int, bit: int = 0) -> bytes:
    flipped = bytearray(data)
    flipped[index] ^= 1 << bit
    return bytes(flipped)


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: f"example-{v['example']}")
def test_rfc9381_vectors_verify(v):
    beta = ecvrf_verify(bytes.fromhex(v["pk"]), bytes.fromhex(v["pi"]), bytes.fromhex(v["alpha"]))
    assert beta.hex() == v["beta"]
    assert proof_to_hash(bytes.fromhex(v["pi"])).hex() == v["beta"]


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: f"example-{v['example']}")
def test_rfc9381_vectors_prove(v):
    sk = bytes.fromhex(v["sk"])
    assert ecvrf.public_key(sk).hex() == v["pk"]
    assert ecvrf.prove(sk, bytes.fromhex(v["alpha"])).hex() == v["pi"]


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: f"example-{v['example']}")
def test_encode_to_curve_matches_the_rfc(v):
    h = encode_to_curve(bytes.fromhex(v["pk"]), bytes.fromhex(v["alpha"]))
    assert h.hex() == v["h"]


def test_prove_then_verify_round_trip():
    seed = bytes(range(32))
    pi = ecvrf.prove(seed, b"any input")
    beta = ecvrf_verify(ecvrf.public_key(seed), pi, b"any input")
    assert beta == proof_to_hash(pi)
    assert len(pi) == 80 and len(beta) == 64


@pytest.mark.parametrize(
    ("index", "part"), [(0, "Gamma"), (5, "Gamma"), (32, "c"), (47, "c"), (48, "s"), (70, "s")]
)
def test_a_flipped_bit_in_pi_is_refused(index, part):
    with pytest.raises(ProofError, match=r"bad proof|Gamma is not a valid"):
        ecvrf_verify(PK, _flip(PI, index), ALPHA)


def test_a_flipped_bit_in_alpha_is_refused():
    with pytest.raises(ProofError, match="does not verify for this input and key"):
        ecvrf_verify(PK, PI, _flip(ALPHA, 0, 3))


def test_another_key_is_refused():
    other = bytes.fromhex(VECTORS[0]["pk"])
    with pytest.raises(ProofError, match="does not verify for this input and key"):
        ecvrf_verify(other, PI, ALPHA)


def test_unreduced_s_is_refused():
    # s + L is the same scalar mod L: accepting it would make proofs malleable.
    s = int.from_bytes(PI[48:], "little") + L
    assert s < 2**256
    with pytest.raises(ProofError, match=r"s >= L"):
        ecvrf_verify(PK, PI[:48] + s.to_bytes(32, "little"), ALPHA)


def test_invalid_gamma_is_refused():
    not_a_point = bytes.fromhex("02" + "00" * 31)  # y = 2 gives no x on the curve
    with pytest.raises(ProofError, match="Gamma is not a valid curve point"):
        ecvrf_verify(PK, not_a_point + PI[32:], ALPHA)
    with pytest.raises(ProofError, match="Gamma is not a valid curve point"):
        ecvrf_verify(PK, SMALL_ORDER + PI[32:], ALPHA)


def test_small_order_public_key_is_refused():
    with pytest.raises(ProofError, match="small order"):
        ecvrf_verify(SMALL_ORDER, PI, ALPHA)


def test_a_proof_of_the_wrong_length_is_refused():
    with pytest.raises(ProofError, match="79 bytes, not 80"):
        ecvrf_verify(PK, PI[:-1], ALPHA)
