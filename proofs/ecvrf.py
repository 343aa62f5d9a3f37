"""ECVRF-EDWARDS25519-SHA512-TAI proving (RFC 9381 §5.1), the server's half of the VRF.

Hashing, encoding and the challenge come from ``protocol`` (the standalone verifier) so that proving and checking
share one implementation: a proof this module makes is checked by the very code players run.
"""

from __future__ import annotations

import hashlib

from nacl import bindings as sodium

from .protocol import challenge, encode_to_curve


def _expand(vrf_seed: bytes) -> tuple[bytes, bytes]:
    """RFC 8032 key expansion, as RFC 9381 §5.1 asks: the clamped scalar x (32 bytes, reduced
    mod L) and the nonce-generation prefix h[32:64]."""
    if len(vrf_seed) != 32:
        raise ValueError(f"a VRF seed is 32 bytes, not {len(vrf_seed)}")
    h = hashlib.sha512(vrf_seed).digest()
    scalar = bytearray(h[:32])
    scalar[0] &= 248  # clamp: a multiple of the cofactor...
    scalar[31] &= 127
    scalar[31] |= 64  # ...with the top bit fixed, as Ed25519 does
    x = sodium.crypto_core_ed25519_scalar_reduce(bytes(scalar) + bytes(32))
    return x, h[32:]


def public_key(vrf_seed: bytes) -> bytes:
    """The VRF public key Y = x * B (32 bytes)."""
    x, _ = _expand(vrf_seed)
    return sodium.crypto_scalarmult_ed25519_base_noclamp(x)


def prove(vrf_seed: bytes, alpha: bytes) -> bytes:
    """pi = Gamma || c || s (80 bytes) for alpha under the key from vrf_seed."""
    x, prefix = _expand(vrf_seed)
    y = sodium.crypto_scalarmult_ed25519_base_noclamp(x)
    h = encode_to_curve(y, alpha)
    gamma = sodium.crypto_scalarmult_ed25519_noclamp(x, h)
    # §5.4.2.2: the nonce is derived from the secret and H, so no randomness can leak x.
    k = sodium.crypto_core_ed25519_scalar_reduce(hashlib.sha512(prefix + h).digest())
    c = challenge(
        y,
        h,
        gamma,
        sodium.crypto_scalarmult_ed25519_base_noclamp(k),
        sodium.crypto_scalarmult_ed25519_noclamp(k, h),
    )
    c_scalar = c + bytes(16)
    s = sodium.crypto_core_ed25519_scalar_add(k, sodium.crypto_core_ed25519_scalar_mul(c_scalar, x))
    return gamma + c + s
