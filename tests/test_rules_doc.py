"""docs/rules.md cannot rot: every test it names exists, every rule test is named, every rule
choice of docs/rules-choices.md is covered, and the rule ids are unique and in order.

The same holds for each expansion section (one checker, ``SECTIONS``): the Crossroads rules X1,
X2, ... name tests of ``tests/kernels/tokaido/crossroads/`` only and every such test is named there,
and likewise the Matsuri (MR), Matsuri Travelers (MT) and promo (PR) rules; the Crossroads and promo
choices map to existing rules that cite them; the open engine bugs listed are exactly the
strict-xfail tests."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

DOC = ROOT / "docs" / "rules.md"
CHOICES = ROOT / "docs" / "rules-choices.md"
REF = re.compile(r"tests/((?:\w+/)*test_\w+\.py)::(test_\w+)")  # path from tests/, test name
RULES = ROOT / "tests" / "kernels" / "tokaido"
RULE_DIRS = ("base", "crossroads", "matsuri", "promos")  # the rule tests on hand-built positions, by area


def rule_files(pattern: str = r".+") -> list[Path]:
    """The rule test files whose path from tests/ matches ``pattern``."""
    return [
        p for d in RULE_DIRS for p in sorted((RULES / d).glob("test_*.py")) if re.fullmatch(pattern, rel(p))
    ]


def rel(path: Path) -> str:
    return path.relative_to(ROOT / "tests").as_posix()


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {
        n.name
        for n in tree.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test_")
    }


def test_every_referenced_test_exists() -> None:
    """Each ``tests/kernels/tokaido/area/test_x.py::test_name`` in docs/rules.md names a test function of
    that file."""
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
    """Each test of the rule folders (tests/kernels/tokaido/{base,crossroads,matsuri,promos}) appears in
    docs/rules.md."""
    named = set(REF.findall(DOC.read_text()))
    undocumented = [
        f"{rel(path)}::{func}"
        for path in rule_files()
        for func in sorted(defined_tests(path))
        if (rel(path), func) not in named
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


# ============================================================ expansion sections
# (section title, row prefix, the test files its rows name, least rows); the rows of each section are
# PREFIX1, PREFIX2, ... and name tests of those files only, and every test of those files is in a row
SECTIONS: list[tuple[str, str, str, int]] = [
    ("Crossroads", "X", r"kernels/tokaido/crossroads/test_\w+\.py", 40),
    ("Matsuri", "MR", r"kernels/tokaido/matsuri/test_(trigger_and_instant_cards|leg_cards)\.py", 20),
    (
        "Matsuri Travelers",
        "MT",
        r"kernels/tokaido/matsuri/test_(travelers_\w+|traveler_alternatives)\.py",
        20,
    ),
    ("Promo Travelers", "PR", r"kernels/tokaido/promos/test_\w+\.py", 10),
]


def section(path: Path, title: str) -> str:
    """The text of the ``## title`` section of ``path``, up to the next ``##``."""
    text = path.read_text()
    assert f"\n## {title}\n" in text, f"{path.name} needs a '## {title}' section"
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def xfail_strict_tests(path: Path) -> set[str]:
    """Test functions of ``path`` decorated ``pytest.mark.xfail(strict=True, ...)``."""
    out = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            for dec in node.decorator_list:
                src = ast.unparse(dec)
                if "xfail" in src and "strict=True" in src:
                    out.add(node.name)
    return out


@pytest.mark.parametrize(("title", "prefix", "files", "least"), SECTIONS, ids=[s[1] for s in SECTIONS])
def test_section_rule_ids_are_unique_and_in_order(title: str, prefix: str, files: str, least: int) -> None:
    """A section's rows are PREFIX1, PREFIX2, ... with no gap or repeat and only in that section, each
    with a source and tests of the section's files; every test of those files is in a row."""
    text = section(DOC, title)
    row = re.compile(rf"\| {prefix}(\d+) \|")
    rows = [line for line in text.splitlines() if row.match(line)]
    ids = [int(row.match(r).group(1)) for r in rows]
    assert len(ids) >= least and ids == list(range(1, len(ids) + 1))
    everywhere = re.findall(rf"^\| {prefix}\d+ \|", DOC.read_text(), flags=re.M)
    assert len(everywhere) == len(rows), f"{prefix} rows outside '## {title}'"
    pattern = re.compile(files)
    named = set()
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), line
        refs = REF.findall(cells[3])
        assert refs and all(pattern.fullmatch(f) for f, _ in refs), line
        named |= set(refs)
    paths = rule_files(files)
    assert paths
    missing = [f"{rel(p)}::{t}" for p in paths for t in sorted(defined_tests(p)) if (rel(p), t) not in named]
    assert not missing, f"add these rule tests to a {prefix} row of '## {title}' in docs/rules.md: {missing}"


@pytest.mark.parametrize(
    ("title", "choice", "rule", "expect"),
    [
        ("Crossroads", "C", "X", [*(f"C{i}" for i in range(23, 40)), "C42"]),
        ("Promo Travelers", "P", "PR", [f"P{i}" for i in range(1, 9)]),
    ],
    ids=["crossroads", "promos"],
)
def test_every_expansion_choice_is_covered(title: str, choice: str, rule: str, expect: list[str]) -> None:
    """Each choice of a docs/rules-choices.md expansion section has a row of the section's choices
    table in docs/rules.md naming existing rules, and each of those rules cites it in its source."""
    choices = re.findall(rf"^\| ({choice}\d+) \|", section(CHOICES, title), flags=re.M)
    assert choices == expect
    text = section(DOC, title)
    rules = {m.group(1): m.group(0) for m in re.finditer(rf"^\| ({rule}\d+) \|.*$", text, flags=re.M)}
    mapped = {
        m.group(1): m.group(2).replace(" ", "").split(",")
        for m in re.finditer(rf"^\| ({choice}\d+) [^|]*\| ([{rule}\d, ]+) \|", text, flags=re.M)
    }
    assert sorted(mapped, key=lambda c: int(c[len(choice) :])) == choices
    for c, xs in mapped.items():
        for x in xs:
            assert x in rules, f"{c} maps to {x}, which is not a {title} rule"
            assert re.search(rf"\b{c}\b", rules[x].split("|")[3]), f"rule {x} does not cite {c} in its source"


def test_crossroads_rule_files() -> None:
    """The Crossroads rule tests live in files named for their areas: markets and stations, Amulets,
    scoring, Travelers, and the online profile's parameters."""
    files = {p.name for p in (RULES / "crossroads").glob("test_*.py")}
    assert files >= {f"test_{a}.py" for a in ("stations", "amulets", "scoring", "travelers")}
    assert any(f.startswith("test_online_") for f in files)


def test_every_matsuri_traveler_choice_is_cited() -> None:
    """Each MT-* choice of docs/rules-choices.md ("## Matsuri Travelers") is cited by an MT rule."""
    text = section(DOC, "Matsuri Travelers")
    for mt in re.findall(r"^\| (MT-\w+)", section(CHOICES, "Matsuri Travelers"), flags=re.M):
        assert mt in text, f"docs/rules.md cites no rule for {mt}"


def test_open_engine_bugs_are_the_strict_xfail_tests() -> None:
    """The section's "Open engine bugs" table lists exactly the ``xfail(strict=True)`` tests of the
    Crossroads rule files, each with a stated problem."""
    text = section(DOC, "Crossroads")
    assert "### Open engine bugs" in text
    table = text.split("### Open engine bugs", 1)[1].split("\n###", 1)[0]
    listed = {(f, t) for f, t in REF.findall(table)}
    xfails = {
        (rel(p), t) for p in rule_files(r"kernels/tokaido/crossroads/\w+\.py") for t in xfail_strict_tests(p)
    }
    assert listed == xfails
    for line in table.splitlines():
        if REF.search(line):
            cells = [c.strip() for c in line.strip("|").split("|")]
            assert len(cells) == 2 and len(cells[1]) > 40, line
