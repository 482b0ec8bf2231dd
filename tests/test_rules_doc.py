"""docs/rules.md cannot rot: every test it names exists, every rule test is named, every rule
choice of docs/rules-choices.md is covered, and the rule ids are unique and in order."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
CHOICES = ROOT / "docs" / "rules-choices.md"
REF = re.compile(r"tests/(test_rules_\w+\.py)::(test_\w+)")
NOT_RULES = {"test_rules_doc.py", "test_rules_nojit.py"}  # meta-tests, not rules


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.name.startswith("test_")}


def test_every_referenced_test_exists() -> None:
    """Each ``tests/test_rules_x.py::test_name`` in docs/rules.md names a test function of that file."""
    text = DOC.read_text()
    refs = REF.findall(text)
    assert len(refs) >= 80
    missing = []
    for fname, func in refs:
        path = ROOT / "tests" / fname
        if not path.exists() or func not in defined_tests(path):
            missing.append(f"{fname}::{func}")
    assert not missing, f"docs/rules.md names tests that do not exist: {missing}"


def test_every_rule_test_is_documented() -> None:
    """Each test of tests/test_rules_*.py (the meta-tests aside) appears in docs/rules.md."""
    named = set(REF.findall(DOC.read_text()))
    undocumented = [
        f"{path.name}::{func}"
        for path in sorted((ROOT / "tests").glob("test_rules_*.py")) if path.name not in NOT_RULES
        for func in sorted(defined_tests(path)) if (path.name, func) not in named
    ]
    assert not undocumented, f"add these rule tests to docs/rules.md: {undocumented}"


def test_rule_ids_are_unique_and_in_order() -> None:
    """The table rows are R1, R2, ... with no gap or repeat, each with a source and a test."""
    rows = [line for line in DOC.read_text().splitlines() if re.match(r"\| R\d+ \|", line)]
    ids = [int(re.match(r"\| R(\d+) \|", r).group(1)) for r in rows]
    assert ids == list(range(1, len(ids) + 1))
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), row
        assert REF.search(cells[3]), row


def test_every_rule_choice_is_covered() -> None:
    """Each base-game rule choice (docs/rules-choices.md before its first "##" section, which holds
    the expansions) appears in docs/rules.md, and the doc links the file."""
    base = CHOICES.read_text().split("\n## ")[0]
    choices = re.findall(r"^\| (C\d+) \|", base, flags=re.M)
    assert len(choices) >= 22
    text = DOC.read_text()
    assert "(rules-choices.md)" in text
    missing = [c for c in choices if not re.search(rf"\b{c}\b", text)]
    assert not missing, f"docs/rules.md does not mention {missing}"
    rule_ids = set(re.findall(r"^\| (R\d+) \|", text, flags=re.M))
    for line in text.splitlines():
        m = re.match(r"\| (C\d+) [^|]*\| ([R\d, ]+) \|", line)
        if m:
            assert set(m.group(2).replace(" ", "").split(",")) <= rule_ids, line
