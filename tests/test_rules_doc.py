"""docs/rules.md cannot rot: every test it names exists, every rule test is named, every rule
choice of docs/rules-choices.md is covered, and the rule ids are unique and in order.

The same holds for the Crossroads section: rules X1, X2, ... name tests of
``tests/test_rules_crossroads_*.py`` only, every such test is named there, and every
Crossroads choice C23..C39 maps to existing X rules; the open engine bugs it lists are
exactly the strict-xfail tests."""

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


# ======================================================================== Crossroads
XR_FILE = re.compile(r"test_rules_crossroads_\w+\.py")


def crossroads_section() -> str:
    text = DOC.read_text()
    assert "\n## Crossroads\n" in text, "docs/rules.md needs a '## Crossroads' section"
    return text.split("\n## Crossroads\n", 1)[1].split("\n## ", 1)[0]


def crossroads_choices() -> list[str]:
    text = CHOICES.read_text()
    assert "\n## Crossroads\n" in text
    return re.findall(r"^\| (C\d+) \|", text.split("\n## Crossroads\n", 1)[1], flags=re.M)


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


def test_crossroads_rule_ids_are_unique_and_in_order() -> None:
    """The Crossroads rows are X1, X2, ... with no gap or repeat, each with a source and a test of a
    ``tests/test_rules_crossroads_*.py`` file."""
    section = crossroads_section()
    rows = [line for line in section.splitlines() if re.match(r"\| X\d+ \|", line)]
    ids = [int(re.match(r"\| X(\d+) \|", r).group(1)) for r in rows]
    assert len(ids) >= 40 and ids == list(range(1, len(ids) + 1))
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), row
        refs = REF.findall(cells[3])
        assert refs and all(XR_FILE.fullmatch(f) for f, _ in refs), row
    assert not re.search(r"^\| X\d+ \|", DOC.read_text().split("\n## Crossroads\n", 1)[0], flags=re.M)


def test_every_crossroads_rule_test_is_in_the_crossroads_section() -> None:
    """Each test of ``tests/test_rules_crossroads_*.py`` appears in an X row, and there are six such
    files (markets and stations, Amulets, scoring, Travelers) and two of the online profile's parameters."""
    section = crossroads_section()
    rows = "\n".join(line for line in section.splitlines() if re.match(r"\| X\d+ \|", line))
    named = set(REF.findall(rows))
    files = sorted((ROOT / "tests").glob("test_rules_crossroads_*.py"))
    assert {p.name for p in files} == {f"test_rules_crossroads_{a}.py" for a in
                                       ("stations", "amulets", "scoring", "travelers", "online", "online2")}
    missing = [f"{p.name}::{t}" for p in files for t in sorted(defined_tests(p)) if (p.name, t) not in named]
    assert not missing, f"add these Crossroads rule tests to an X row of docs/rules.md: {missing}"


def test_every_crossroads_choice_is_covered() -> None:
    """Each Crossroads choice (C23..C39, the "## Crossroads" section of docs/rules-choices.md) has a
    row of the Crossroads choices table naming existing X rules, and each of those rules cites it."""
    choices = crossroads_choices()
    assert choices == [f"C{i}" for i in range(23, 40)]
    section = crossroads_section()
    rules = {m.group(1): m.group(0) for m in re.finditer(r"^\| (X\d+) \|.*$", section, flags=re.M)}
    mapped = {}
    for line in section.splitlines():
        m = re.match(r"\| (C\d+) [^|]*\| ([X\d, ]+) \|", line)
        if m:
            mapped[m.group(1)] = m.group(2).replace(" ", "").split(",")
    assert sorted(mapped, key=lambda c: int(c[1:])) == choices
    for c, xs in mapped.items():
        for x in xs:
            assert x in rules, f"{c} maps to {x}, which is not a Crossroads rule"
            assert re.search(rf"\b{c}\b", rules[x].split("|")[3]), f"rule {x} does not cite {c} in its source"


def test_open_engine_bugs_are_the_strict_xfail_tests() -> None:
    """The section's "Open engine bugs" table lists exactly the ``xfail(strict=True)`` tests of the
    Crossroads rule files, each with a stated problem."""
    section = crossroads_section()
    assert "### Open engine bugs" in section
    table = section.split("### Open engine bugs", 1)[1].split("\n###", 1)[0]
    listed = {(f, t) for f, t in REF.findall(table)}
    xfails = {(p.name, t) for p in sorted((ROOT / "tests").glob("test_rules_crossroads_*.py"))
              for t in xfail_strict_tests(p)}
    assert listed == xfails
    for line in table.splitlines():
        if REF.search(line):
            cells = [c.strip() for c in line.strip("|").split("|")]
            assert len(cells) == 2 and len(cells[1]) > 40, line


# ======================================================================== Matsuri cards
MR_FILE = re.compile(r"test_rules_matsuri(_legs)?\.py")


def test_matsuri_rule_ids_are_unique_and_in_order() -> None:
    """The Matsuri rows are MR1, MR2, ... in order, each with a source and tests of the two Matsuri card
    files, and every test of those files is in an MR row."""
    text = DOC.read_text()
    assert "\n## Matsuri\n" in text, "docs/rules.md needs a '## Matsuri' section"
    section = text.split("\n## Matsuri\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| MR\d+ \|", line)]
    ids = [int(re.match(r"\| MR(\d+) \|", r).group(1)) for r in rows]
    assert len(ids) >= 20 and ids == list(range(1, len(ids) + 1))
    named = set()
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), row
        refs = REF.findall(cells[3])
        assert refs and all(MR_FILE.fullmatch(f) for f, _ in refs), row
        named |= set(refs)
    files = [ROOT / "tests" / f for f in ("test_rules_matsuri.py", "test_rules_matsuri_legs.py")]
    missing = [f"{p.name}::{t}" for p in files for t in sorted(defined_tests(p)) if (p.name, t) not in named]
    assert not missing, f"add these Matsuri rule tests to an MR row of docs/rules.md: {missing}"


# ======================================================================== Matsuri Travelers
MT_FILE = re.compile(r"test_rules_matsuri_travelers\d*\.py")


def test_matsuri_traveler_rule_ids_are_unique_and_in_order() -> None:
    """The "## Matsuri Travelers" rows are MT1, MT2, ... with no gap or repeat, each with a source and a
    test of a ``tests/test_rules_matsuri_travelers*.py`` file, and every such test is in a row."""
    text = DOC.read_text()
    assert "\n## Matsuri Travelers\n" in text, "docs/rules.md needs a '## Matsuri Travelers' section"
    section = text.split("\n## Matsuri Travelers\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| MT\d+ \|", line)]
    ids = [int(re.match(r"\| MT(\d+) \|", r).group(1)) for r in rows]
    assert len(ids) >= 20 and ids == list(range(1, len(ids) + 1))
    named = set()
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), row
        refs = REF.findall(cells[3])
        assert refs and all(MT_FILE.fullmatch(f) for f, _ in refs), row
        named.update(refs)
    files = sorted((ROOT / "tests").glob("test_rules_matsuri_travelers*.py"))
    missing = [f"{p.name}::{t}" for p in files for t in sorted(defined_tests(p)) if (p.name, t) not in named]
    assert not missing, f"add these Matsuri Traveler rule tests to an MT row of docs/rules.md: {missing}"
    choices = CHOICES.read_text().split("\n## Matsuri Travelers\n", 1)[1].split("\n## ", 1)[0]
    for mt in re.findall(r"^\| (MT-\w+)", choices, flags=re.M):
        assert mt in section, f"docs/rules.md cites no rule for {mt}"


# ======================================================================== promo Travelers
def promo_section() -> str:
    text = DOC.read_text()
    assert "\n## Promo Travelers\n" in text, "docs/rules.md needs a '## Promo Travelers' section"
    return text.split("\n## Promo Travelers\n", 1)[1].split("\n## ", 1)[0]


def test_promo_rule_ids_are_unique_and_in_order() -> None:
    """The promo rows are PR1, PR2, ... with no gap or repeat, each with a source and a test of
    ``tests/test_rules_promos.py``; every test of that file is in a row."""
    section = promo_section()
    rows = [line for line in section.splitlines() if re.match(r"\| PR\d+ \|", line)]
    ids = [int(re.match(r"\| PR(\d+) \|", r).group(1)) for r in rows]
    assert len(ids) >= 10 and ids == list(range(1, len(ids) + 1))
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 4 and all(cells), row
        refs = REF.findall(cells[3])
        assert refs and all(f == "test_rules_promos.py" for f, _ in refs), row
    named = {t for f, t in REF.findall("\n".join(rows))}
    assert named == defined_tests(ROOT / "tests" / "test_rules_promos.py")


def test_every_promo_choice_is_covered() -> None:
    """Each P-choice of docs/rules-choices.md ("## Promo Travelers") maps to PR rules that cite it."""
    text = CHOICES.read_text()
    assert "\n## Promo Travelers\n" in text
    choices = re.findall(r"^\| (P\d+) \|", text.split("\n## Promo Travelers\n", 1)[1].split("\n## ", 1)[0],
                         flags=re.M)
    assert choices == [f"P{i}" for i in range(1, 9)]
    section = promo_section()
    rules = {m.group(1): m.group(0) for m in re.finditer(r"^\| (PR\d+) \|.*$", section, flags=re.M)}
    mapped = {m.group(1): m.group(2).replace(" ", "").split(",")
              for m in re.finditer(r"^\| (P\d+) [^|]*\| ([PR\d, ]+) \|", section, flags=re.M)}
    assert sorted(mapped, key=lambda c: int(c[1:])) == choices
    for c, prs in mapped.items():
        for r in prs:
            assert r in rules and re.search(rf"\b{c}\b", rules[r].split("|")[3]), f"{c} -> {r}"
