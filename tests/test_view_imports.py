"""No views module imports another views module (docs/architecture.md, "Layers"):
what two views share lives in a service or helper module beside them, so a view module can be
read, changed or moved on its own. Only the URL confs import views."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("api", "config", "discord", "live", "log", "rolls", "sheets", "web")


def is_views(module: str) -> bool:
    parts = module.split(".")
    return any(part == "views" or part.endswith("_views") for part in parts)


def module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def imported(tree: ast.AST) -> set[str]:
    """Every module a file imports, at the top or inside a function, with `from x import y`
    counted as x.y too (y may be a module)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def our_views_modules() -> list[Path]:
    return [
        path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if is_views(module_of(path)) and path.name != "__init__.py"
    ]


def test_the_views_modules_are_found():
    names = {module_of(path) for path in our_views_modules()}
    assert {"rolls.rolling.views", "rolls.rolling.assist_views", "sheets.views.characters"} <= names


def test_no_views_module_imports_another():
    ours = {module_of(path) for path in our_views_modules()} | {"sheets.views"}
    offenders = {
        module_of(path): sorted(imported(ast.parse(path.read_text())) & ours - {module_of(path)})
        for path in our_views_modules()
    }
    assert {module: names for module, names in offenders.items() if names} == {}
