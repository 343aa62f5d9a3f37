"""Verifiable dice (issue 37): ECVRF proofs of every face and Ed25519 signatures of the log head.

No Django here: the package imports without settings. ``protocol.py`` holds the formats and
checks, and is itself the standalone verifier players download as ``poolside_verify.py`` and
run by hand (standard library and PyNaCl only).
"""
