"""The import graph has no large circle, counting the imports made for annotations only.

A type-only import (``if TYPE_CHECKING:``) names what the code calls at run time: a model that
returns a seam object through one still calls up. docs/architecture.md, "Layers"; the contracts
themselves are pyproject.toml's [tool.importlinter], which counts these imports too.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
# Every package of ours, as the import contracts list them.
PACKAGES = tuple(
    tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
)
# The loops left once the models stopped calling the seam (issue 55): the seam and the rolling
# and table modules it names (6), the log model's own modules (4), a campaign and its sheet (2).
CIRCLE_MAX = 6


def strongly_connected(graph: grimp.ImportGraph) -> list[set[str]]:
    """The graph's circles (strongly connected sets of more than one module), by Tarjan's
    algorithm, iteratively (the graph is deeper than Python's recursion allows)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[set[str]] = []
    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    imported = sorted(graph.find_modules_directly_imported_by(child))
                    work.append((child, iter(imported)))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                circle = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    circle.add(member)
                    if member == module:
                        break
                if len(circle) > 1:
                    circles.append(circle)
    return circles


def test_the_search_finds_a_circle_and_its_size():
    graph = grimp.ImportGraph()
    for a, b in [("x.a", "x.b"), ("x.b", "x.c"), ("x.c", "x.a"), ("x.c", "x.d")]:
        graph.add_import(importer=a, imported=b)
    assert strongly_connected(graph) == [{"x.a", "x.b", "x.c"}]


def test_no_import_circle_is_larger_than_six_modules():
    graph = grimp.build_graph(
        *PACKAGES, include_external_packages=False, exclude_type_checking_imports=False
    )
    circles = sorted(strongly_connected(graph), key=len, reverse=True)
    assert circles, "the search found nothing: is the graph empty?"
    largest = circles[0]
    assert len(largest) <= CIRCLE_MAX, sorted(largest)


def test_no_model_module_imports_the_seam():
    """The models call nothing above them: not the rule systems, not contest styles."""
    graph = grimp.build_graph(
        *PACKAGES, include_external_packages=False, exclude_type_checking_imports=False
    )
    models = {
        m for m in graph.modules if m.split(".")[:2] in (["rolls", "models"], ["sheets", "models"])
    }
    above = ("sheets.systems", "rolls.table", "rolls.rolling", "sheets.forms")
    upward = {
        (model, imported)
        for model in models
        for imported in graph.find_modules_directly_imported_by(model)
        if imported.startswith(above)
    }
    assert not upward


def test_import_linter_counts_type_only_imports():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["importlinter"]["exclude_type_checking_imports"] is False
