"""docs/rules.md's rule tables cannot rot: every row names a module that exists (and the names it
points at inside it) and at least one test that exists."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
HEADER = "| Rule | Source | Where | Test |"
SOURCES = ("Seed", "Book", "Decision")
MODULE = re.compile(r"\b([\w/]+\.py)(?::([A-Za-z_]\w*))?")
TEST = re.compile(r"\b(tests/[\w/]+\.py)::(test_\w+)")


def rule_rows():
    """(line number, cells) for every row of every `| Rule | Source | Where | Test |` table."""
    rows, in_table = [], False
    for number, line in enumerate(DOC.read_text().splitlines(), start=1):
        if line == HEADER:
            in_table = True
        elif in_table and not line.startswith("|"):
            in_table = False
        elif in_table and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            rows.append((number, cells))
    return rows


def test_the_page_stands_on_its_own():
    text = DOC.read_text()
    assert "shared/" not in text and "RULES.md" not in text
    assert "## The engine contract" in text and "## Rules at the table" in text
    assert "CC BY-SA 4.0" in text


def test_every_rule_row_names_its_source_a_module_and_a_test():
    rows = rule_rows()
    assert len(rows) > 50  # the three systems' tables, the contract and the table Decisions
    problems = []
    for number, cells in rows:
        if len(cells) != 4:
            problems.append(f"line {number}: {len(cells)} cells, not 4")
            continue
        _rule, source, where, tests = cells
        if not any(word in source for word in SOURCES):
            problems.append(f"line {number}: source {source!r} is not Seed, Book or Decision")
        modules = MODULE.findall(where)
        if not modules:
            problems.append(f"line {number}: no module in {where!r}")
        for path, name in modules:
            module = ROOT / path
            if not module.is_file():
                problems.append(f"line {number}: {path} does not exist")
            elif name and not re.search(rf"\b{name}\b", module.read_text()):
                problems.append(f"line {number}: {path} has no {name}")
        named = TEST.findall(tests)
        if not named:
            problems.append(f"line {number}: no test in {tests!r}")
        for path, name in named:
            test_file = ROOT / path
            if not test_file.is_file():
                problems.append(f"line {number}: {path} does not exist")
            elif not re.search(rf"^(async )?def {name}\(", test_file.read_text(), re.M):
                problems.append(f"line {number}: {path} has no def {name}")
    assert not problems, "\n".join(problems)


def test_the_apps_own_cogent_rulings_are_labelled_decisions():
    """Issue 48: vocations assist-only (the Book says "in most situations"), no destiny after a
    conflict's roll (the Book says "after any d6-based roll"), and the two choices no text makes
    — unequal equipment and speciality, disabling characteristics and combat — are Decisions."""
    rows = [cells for _, cells in rule_rows()]
    for phrase in (
        "Cogent: vocations are assist-only",
        "destiny after the roll is not offered on conflict rolls",
        "unequal-equipment dice count towards skill speciality",
        "disabling characteristic's dice come off its attribute's checks only",
    ):
        found = [cells for cells in rows if phrase in cells[0]]
        assert found, phrase
        assert all(cells[1] == "Decision" for cells in found), (phrase, found)
    text = DOC.read_text()
    assert "*Vocations are assist-only* (Decision" in text
    assert "*Unequal equipment counts towards speciality's 8* (Decision)" in text
    assert "*A disabling characteristic's dice don't come off combat pools* (Decision)" in text
