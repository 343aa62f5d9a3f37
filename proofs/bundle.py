"""The standalone verifier as players download it (``/keys/poolside_verify.py``): ``protocol.py``
with each module of this package it imports written in where it imports it, so the download is
one file that needs only the standard library and PyNaCl — and the code in it is the code the
server checks itself with, line for line. A module written in must itself import nothing of the
project (``holding.py``); each is written in once, at its first import."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENTRY = "protocol.py"


def _body(module: str) -> list[str]:
    """A module's lines without its docstring and its ``from __future__`` import (the file it
    is written into has both)."""
    text = (HERE / f"{module}.py").read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    dropped: set[int] = set()
    for node in ast.parse(text).body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        future = isinstance(node, ast.ImportFrom) and node.module == "__future__"
        if docstring or future:
            dropped |= set(range(node.lineno - 1, node.end_lineno or node.lineno))
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise ValueError(f"{module}.py imports .{node.module}: it can't be written in")
    return [line for n, line in enumerate(lines) if n not in dropped]


@cache
def standalone_source() -> str:
    """The verifier's text: ``protocol.py``, its relative imports replaced by the modules."""
    text = (HERE / ENTRY).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    replaced: dict[int, list[str]] = {}
    written: set[str] = set()
    for node in ast.parse(text).body:
        if isinstance(node, ast.ImportFrom) and node.level and node.module:
            first = node.lineno - 1
            for n in range(first, node.end_lineno or node.lineno):
                replaced[n] = []
            if node.module not in written:
                written.add(node.module)
                replaced[first] = [
                    f"# --- proofs/{node.module}.py, written in (proofs/bundle.py) ---\n",
                    *_body(node.module),
                    f"# --- end of proofs/{node.module}.py ---\n",
                ]
    out: list[str] = []
    for n, line in enumerate(lines):
        out += replaced.get(n, [line])
    return "".join(out)
