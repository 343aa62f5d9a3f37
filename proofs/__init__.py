"""Verifiable dice (issue 37): ECVRF proofs of every face and Ed25519 signatures of the log head.

No Django here: the package imports without settings, and ``poolside_verify.py`` is the standalone
verifier that players run by hand (standard library and PyNaCl only).
"""
