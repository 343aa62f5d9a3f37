"""Where the app writes SQL by hand (log/models/chain_sql.py's docstring): the append's
statements in one module, and a short list of reads and counters beside it, each with its reason.
A new ``cursor.execute`` or ``RawSQL`` elsewhere is a decision for that list, not an accident."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Every package of ours, as the import contracts list them.
APPS = tuple(
    tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
)

# module → why it writes SQL by hand (docs/architecture.md, "Performance code that remains").
WRITES_SQL = {
    # The append: every statement of the write path's own, and its invariants.
    "log/models/chain_sql.py": "the append's statements, written once per database",
    # The roll's row read, written from _meta (its roll state compiled by Django, from the ORM).
    "rolls/rolling/row_read.py": "RowRead: measured at ~2 ms of CPU a roll below the ORM's read",
    # Reads the ORM has no words for.
    "log/models/chain.py": "labels(): a loose index scan (WITH RECURSIVE)",
    "rolls/log/filters.py": "the search's LIKE over the trigram index's expression",
    # Statements of the database's own, not of a model.
    "live/__init__.py": "pg_notify, the postgres live transport's publish",
    "web/database.py": "DEALLOCATE ALL, healing a stale prepared statement",
    "sheets/models/tokens.py": "the API's rate counter: one UPDATE … RETURNING a window",
}


def _writes_sql(path: Path) -> bool:
    """Does the module run SQL text (a cursor's or a manager's) or put it in a query (RawSQL)?
    An execute wrapper passing on the statement it was given (``execute(sql, …)``) does not."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr in (
            "execute",
            "executemany",
            "raw",
            "extra",
        ):
            return True
        if isinstance(node.func, ast.Name) and node.func.id == "RawSQL":
            return True
    return False


def test_sql_is_written_by_hand_only_where_the_list_says_why():
    found = {
        str(path.relative_to(ROOT))
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and _writes_sql(path)
    }
    assert found == set(WRITES_SQL)


def test_the_appends_module_runs_no_statement_of_its_own():
    # The chain module's append goes through ChainSQL; only labels() (a read) runs SQL there.
    tree = ast.parse((ROOT / "log/models/chain.py").read_text())
    executing = {
        function.name
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef)
        for node in ast.walk(function)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "execute"
    }
    assert executing == {"labels"}
