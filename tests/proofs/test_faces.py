"""Dice from beta: the spec's byte stream and rejection sampling, exactly, and uniform faces."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from proofs.protocol import alpha_bytes, canonical, faces_from_beta, position
from tests.proofs.builders import TEST_KEY

# The chi-square statistic's 0.999 quantile (p = 0.001) for k - 1 degrees of freedom.
CRITICAL_0_001 = {6: 20.515, 10: 27.877}
PROOFS = 3000


def test_canonical_json_is_sorted_compact_utf8():
    assert canonical({"b": [1, True, None], "a": "é"}) == '{"a":"é","b":[1,true,null]}'.encode()


def test_position_is_the_hash_of_the_canonical_commitment():
    expected = hashlib.sha256(
        b'{"campaign":7,"prev_hash":"' + b"0" * 64 + b'","secret":"' + b"ab" * 32 + b'","seq":1}'
    ).hexdigest()
    assert position(7, 1, "0" * 64, "ab" * 32) == expected


def test_bytes_at_or_above_the_limit_are_discarded():
    # For d6 the limit is 256 - 256 % 6 = 252: bytes 252..255 would favour faces 1 to 4.
    beta = bytes([252, 255, 0, 251, 5, 6]) + bytes(58)
    assert faces_from_beta(beta, [["d6", 4, 6]]) == [[1, 6, 6, 1]]
    # For d10 the limit is 250.
    beta = bytes([250, 249, 9, 10]) + bytes(60)
    assert faces_from_beta(beta, [["risk", 1, 10], ["skill", 2, 10]]) == [[10], [10, 1]]


def test_the_stream_goes_on_with_hashes_of_beta_and_a_counter():
    beta = bytes([255]) * 64  # every byte of beta is discarded for a d6
    more = hashlib.sha512(beta + (1).to_bytes(4, "big")).digest()
    expected = [b % 6 + 1 for b in more if b < 252][:3]
    assert faces_from_beta(beta, [["d6", 3, 6]]) == [expected]


def test_groups_read_the_stream_in_pool_order_and_empty_groups_take_nothing():
    beta = bytes(range(64))
    assert faces_from_beta(beta, [["ability", 2, 10], ["skill", 0, 10], ["risk", 1, 10]]) == [
        [1, 2],
        [],
        [3],
    ]


def _chi_square(counts: Counter[int], sides: int) -> float:
    total = sum(counts.values())
    expected = total / sides
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))


@pytest.fixture(scope="module")
def betas():
    """Outputs of real proofs under the test key, over fixed alphas: deterministic, so the
    statistic is the same on every run and the test cannot flake."""
    found = []
    for n in range(PROOFS):
        alpha = {
            "v": 1,
            "campaign": 1,
            "position": position(1, n + 1, "0" * 64, "00" * 32),
            "target": "Chi-square",
            "pool": [],
            "nonce": f"fixed-{n:05d}",
        }
        found.append(TEST_KEY.prove(alpha_bytes(alpha))[1])
    return found


@pytest.mark.parametrize("sides", [6, 10])
def test_faces_are_uniform(betas, sides):
    every, first = Counter(), Counter()
    for beta in betas:
        faces = faces_from_beta(beta, [["d6", 5, sides], ["risk", 5, sides]])
        every.update(faces[0] + faces[1])
        first[faces[0][0]] += 1
    assert set(every) == set(range(1, sides + 1))
    assert _chi_square(every, sides) < CRITICAL_0_001[sides]
    # The first die of each roll on its own: a bias in where the stream starts would show here.
    assert _chi_square(first, sides) < CRITICAL_0_001[sides]


def test_the_chi_square_check_can_fail():
    # Modulo without rejection over a skewed stream: the statistic must blow past the limit.
    skewed = Counter({1: 600, 2: 500, 3: 500, 4: 500, 5: 500, 6: 400})
    assert _chi_square(skewed, 6) > CRITICAL_0_001[6]
