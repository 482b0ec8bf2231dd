"""The house rules of the code base (docs/architecture.md): layers import downwards only, no import
cycles between modules, files of a readable size, a docstring on every package, composition over deep
inheritance; test modules share code through ``tests.helpers`` only.

Imports are read from the source (``ast``), lazy ones inside functions included: a cycle hidden in a
function is still a cycle.
"""

from __future__ import annotations

import ast
import builtins
import warnings
from pathlib import Path

import pytest

from tests.helpers.paths import ROOT

TOP = ("sim", "kernels", "analysis")
MAX_LINES = 440  # "about 400": a hint to look at a file, never a reason to cut one
MAX_DEPTH = 2  # a project class and at most one project class above it: areas are composed, not stacked

# Each unit of the house and the units it may import (besides itself).
LAYERS: dict[str, set[str]] = {
    "kernels.core": set(),
    "kernels.tokaido.bots": {"kernels.core"},
    "kernels.tokaido.game": {"kernels.core", "kernels.tokaido.bots"},
    "kernels.tokaido.search": {"kernels.core", "kernels.tokaido.bots", "kernels.tokaido.game"},
    "kernels.tokaido.play": {
        "kernels.core",
        "kernels.tokaido.bots",
        "kernels.tokaido.game",
        "kernels.tokaido.search",
    },
    "kernels.tokaido.imitate": {
        "kernels.core",
        "kernels.tokaido.bots",
        "kernels.tokaido.game",
        "kernels.tokaido.play",
    },  # records the search's moves
    "kernels.duo": {"kernels.core"},  # enums, state, moves, bots, game: the rules of Duo
    "kernels.duo.search": {"kernels.core", "kernels.duo"},
    "kernels.duo.play": {"kernels.core", "kernels.duo", "kernels.duo.search"},
    "kernels": set(),  # kernels/__init__.py: the cache location only
    "sim.errors": set(),
    "sim": set(),
    "sim.files": {"sim.errors"},  # reading the files users give: one line for any bad file
    "sim.overrides": {"sim.errors", "sim.files"},
    "sim.dataset": {
        "kernels.core",
        "sim.errors",
        "sim.files",
    },  # the dataset format: the writer's and the reader's
    "sim.run": {
        "kernels",
        "kernels.core",
        "sim.dataset",
        "sim.errors",
        "sim.files",
        "sim",
    },  # the shared runner: no game
    "sim.checks": {"sim.errors", "sim.files", "sim.run", "sim"},  # golden games and playthroughs of any game
    "sim.games": {"sim.games.plugin"},  # the registry finds the plug-ins at run time (importlib)
    "sim.games.plugin": {"sim.checks"},
    "analysis": {"kernels.core", "sim.dataset"},  # the dataset format; nothing else of sim
    "sim.games.tokaido": {
        "kernels",
        "kernels.core",
        "kernels.tokaido.play",
        "kernels.tokaido.imitate",
        "sim.errors",
        "sim.files",
        "sim",
        "sim.overrides",
        "sim.dataset",
        "sim.run",
        "sim.checks",
        "sim.games.plugin",
        "analysis",
    },
    "sim.games.tokaido.cli": {
        "kernels.core",
        "sim.errors",
        "sim.files",
        "sim",
        "sim.overrides",
        "sim.dataset",
        "sim.run",
        "sim.checks",
        "sim.cli.options",
        "sim.cli.validate",
        "sim.games.tokaido",
        "analysis",
    },  # Tokaido's commands, on the options every game shares
    "sim.games.tokaido.plugin": {
        "sim.games.plugin",
        "sim.checks",
        "sim.games.tokaido",
        "sim.games.tokaido.cli",
    },
    "sim.games.duo.plugin": {"sim.games.plugin", "sim.checks", "sim.games.duo", "sim.games.duo.cli"},
    "sim.cli.options": {"sim.cli.validate", "sim.errors", "sim.run"},  # what every game's commands share
    "sim.cli.validate": {"sim.run", "sim.dataset", "sim.errors", "sim.files"},
    "sim.games.duo": {
        "kernels.core",
        "kernels.duo",
        "kernels.duo.play",
        "sim.errors",
        "sim.files",
        "sim",
        "sim.overrides",
        "sim.dataset",
        "sim.run",
        "sim.checks",
        "sim.games.plugin",
        "analysis",
    },
    "sim.games.duo.cli": {
        "kernels.duo",
        "sim.errors",
        "sim.files",
        "sim",
        "sim.overrides",
        "sim.dataset",
        "sim.run",
        "sim.checks",
        "sim.cli.options",
        "sim.cli.validate",
        "sim.games.duo",
    },
    "sim.cli": {"*"},
}


def modules() -> dict[str, Path]:
    out = {}
    for top in TOP:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MODULES = modules()


def imports_of(name: str, path: Path) -> set[str]:
    """Project modules imported anywhere in ``path`` (``from pkg import mod`` counts as ``pkg.mod``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                for a in node.names
            ]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def unit(module: str) -> str:
    best = ""
    for u in LAYERS:
        if (module == u or module.startswith(u + ".")) and len(u) > len(best):
            best = u
    assert best, f"{module} belongs to no unit of LAYERS: add it to the house plan (docs/architecture.md)"
    return best


def test_no_import_cycles() -> None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(GRAPH[m]):
            if n.startswith(m + "."):  # a package importing its own modules (re-exports) is no cycle
                continue
            if state.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(n) :] + [n]))
            if n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(GRAPH):
        if m not in state:
            visit(m)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_the_layers(module: str) -> None:
    mine = unit(module)
    allowed = LAYERS[mine]
    for target in sorted(GRAPH[module]):
        theirs = unit(target)
        if theirs == mine or "*" in allowed:
            continue
        assert theirs in allowed, f"{module} imports {target}: {mine} may import only {sorted(allowed)}"


def test_layers_have_no_cycle() -> None:
    edges = {u: {v for v in deps if v != "*"} for u, deps in LAYERS.items()}
    seen: set[str] = set()

    def down(u: str, path: tuple[str, ...]) -> None:
        assert u not in path, f"the house plan has a cycle: {' -> '.join((*path, u))}"
        if u in seen:
            return
        for v in edges[u]:
            down(v, (*path, u))
        seen.add(u)

    for u in edges:
        down(u, ())


def test_long_files_are_named() -> None:
    """A file is split by concern, not by length: one over ``MAX_LINES`` is named as a warning, not a
    failure."""
    long = {
        str(p.relative_to(ROOT)): n
        for p in MODULES.values()
        if (n := len(p.read_text().splitlines())) > MAX_LINES
    }
    if long:
        warnings.warn(
            f"files over {MAX_LINES} lines (split one if it holds more than one concern): {long}",
            stacklevel=1,
        )


def test_every_package_says_what_it_holds() -> None:
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            doc = ast.get_docstring(ast.parse(path.read_text()))
            assert doc and len(doc) > 40, (
                f"{name}/__init__.py needs a docstring saying what the package holds"
            )


def test_the_checker_sees_a_cycle() -> None:
    """The cycle test can fail: a lazy import of the driver from the engine is found."""
    fake = ast.parse("def f():\n    from kernels.tokaido.play import turn_nb\n")
    found = {n.module for n in ast.walk(fake) if isinstance(n, ast.ImportFrom)}
    assert (
        "kernels.tokaido.play" in found
        and unit("kernels.tokaido.play") not in LAYERS[unit("kernels.tokaido.game.turn")]
    )
    assert unit("kernels.duo.search") not in LAYERS[unit("kernels.duo.game")]  # Duo's engine cannot search


def class_depths(sources: dict[str, str]) -> dict[str, int]:
    """Each project class of ``sources`` (module name -> source) and how many project classes its longest
    line of bases holds, itself included. A base is a project class when its module defines it or imports
    it from a module of ``sources``; the standard library's and other libraries' bases (object, Exception,
    Protocol, NamedTuple, Enum...) count for nothing. Exceptions are left out: an error taxonomy
    (``UserError`` > ``FileError`` > ``ManifestError``) sorts errors for ``except``, it stacks no
    behaviour."""
    bases: dict[str, list[str]] = {}
    raised: set[str] = set()  # classes with a built-in exception among their own bases
    for module, text in sources.items():
        tree = ast.parse(text)
        local = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        imported = {
            a.asname or a.name: f"{n.module}.{a.name}"
            for n in ast.walk(tree)
            if isinstance(n, ast.ImportFrom) and n.module in sources
            for a in n.names
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names = [b.id for b in node.bases if isinstance(b, ast.Name)]
                cls = f"{module}.{node.name}"
                bases[cls] = [f"{module}.{b}" if b in local else imported.get(b, "") for b in names]
                builtin = [getattr(builtins, b, None) for b in names if b not in local and b not in imported]
                if any(isinstance(b, type) and issubclass(b, BaseException) for b in builtin):
                    raised.add(cls)

    def depth(cls: str, seen: tuple[str, ...] = ()) -> int:
        if cls not in bases or cls in seen:
            return 0
        return 1 + max((depth(b, (*seen, cls)) for b in bases[cls]), default=0)

    def is_exception(cls: str, seen: tuple[str, ...] = ()) -> bool:
        return cls in raised or any(
            is_exception(b, (*seen, cls)) for b in bases.get(cls, ()) if b not in seen
        )

    return {cls: depth(cls) for cls in bases if not is_exception(cls)}


def test_inheritance_is_shallow() -> None:
    """No project class sits on a chain of more than ``MAX_DEPTH`` project classes: an area of the rules is a
    handler that the others hold, not a layer of one class (docs/architecture.md)."""
    depths = class_depths({name: path.read_text() for name, path in MODULES.items()})
    deep = {cls: d for cls, d in depths.items() if d > MAX_DEPTH}
    assert not deep, f"inheritance chains deeper than {MAX_DEPTH} project classes (compose instead): {deep}"


def test_the_checker_sees_a_deep_chain() -> None:
    """The depth test can fail: three project classes stacked across modules are found, library bases are not
    counted, and a class may extend one project class."""
    depths = class_depths(
        {
            "pkg.a": "from typing import NamedTuple\nclass A: pass\nclass T(NamedTuple):\n    x: int\n"
            "class E(ValueError): pass\nclass F(E): pass\n",
            "pkg.b": "from pkg.a import A, F\nclass B(A): pass\nclass G(F): pass\n",
            "pkg.c": "from pkg.b import B as Base\nclass C(Base): pass\n",
        }
    )
    assert depths == {"pkg.a.A": 1, "pkg.a.T": 1, "pkg.b.B": 2, "pkg.c.C": 3}


def test_tests_share_through_helpers_only() -> None:
    """A test module takes what it shares from ``tests.helpers``, never from another test module (moving one
    test file breaks no other), and no test edits ``sys.path`` (the project is installed; pytest puts the
    checkout on the path for the ``tests`` package)."""
    tests = ROOT / "tests"
    local = {p.stem for p in tests.rglob("*.py")} - set(TOP)  # modules that only the tests folder holds
    bad = []
    for path in sorted(tests.rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else ["." * node.level]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == "path"
                    and getattr(node.value, "id", "") == "sys"
                ):
                    bad.append(f"{where}:{node.lineno} uses sys.path")
                continue
            for name in names:
                top = name.split(".")[0]
                if (
                    name.startswith(".")
                    or (top == "tests" and not name.startswith("tests.helpers"))
                    or (top != "tests" and top in local)
                ):
                    bad.append(f"{where}:{node.lineno} imports {name}")
    assert not bad, "import shared test code from tests.helpers, by its package path: " + "; ".join(bad)


def doc_rows() -> dict[str, str]:
    """docs/architecture.md's table: package -> the text of its row (what it holds, what it may import)."""
    rows = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        if line.startswith("| `"):
            name, _, rest = line[3:].partition("` |")
            rows[name] = rest
    return rows


def undocumented(rows: dict[str, str], modules: list[str]) -> list[str]:
    """Modules the table does not name: each belongs to the row of its longest package prefix, where its
    name relative to that package appears in backticks (``matsuri``, or ``checks.golden`` under a game)."""
    out = []
    for m in modules:
        if m in rows:
            continue
        pkg = max((r for r in rows if m.startswith(r + ".")), key=len, default=None)
        rel = m[len(pkg) + 1 :] if pkg else m
        if pkg is None or not any(f"`{name}`" in rows[pkg] for name in (rel, rel.rpartition(".")[2])):
            out.append(m)
    return out


def test_every_module_is_in_the_architecture() -> None:
    """A newcomer finds every module in docs/architecture.md, in the row of its package."""
    missing = undocumented(doc_rows(), sorted(MODULES))
    assert not missing, (
        f"docs/architecture.md does not name: {', '.join(missing)}; add each to its package's row"
    )


def test_the_architecture_check_sees_a_missing_module() -> None:
    assert undocumented(
        {"kernels.core": "`rng`, `state`"}, ["kernels.core.rng", "kernels.tokaido.core.board"]
    ) == ["kernels.tokaido.core.board"]


def test_the_tier_is_read_in_one_place() -> None:
    """Every decision of Tokaido goes through one dispatch per decision kind
    (kernels/tokaido/bots/policy.py), which
    asks kernels/tokaido/bots/tier.py for the player's policy: no other kernel reads a bot id or the expert
    switch
    (Tokaido Duo, a game of its own, has its own bots)."""
    import re

    read = re.compile(
        r"\[[^\]]*PF\.BOT\][^=\n]*(==|!=|>=|<=|>|<|\bif\b)|W\.EXPERT\]|PF\.BOT\]\s*(==|!=|>=|<=)"
    )
    allowed = {"kernels/tokaido/bots/tier.py"}
    found = {}
    for name, path in MODULES.items():
        rel = str(path.relative_to(ROOT))
        if not name.startswith("kernels") or name.startswith("kernels.duo") or rel in allowed:
            continue
        code = [ln for ln in path.read_text().splitlines() if not ln.lstrip().startswith(("#", "A ", "``"))]
        hits = [ln.strip() for ln in code if read.search(ln) and '"""' not in ln]
        if hits:
            found[rel] = hits
    assert not found, f"the tier is read outside kernels/tokaido/bots/tier.py: {found}"
