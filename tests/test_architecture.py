"""The house rules of the code base (docs/architecture.md): layers import downwards only, no import
cycles between modules, files of a readable size, a docstring on every package.

Imports are read from the source (``ast``), lazy ones inside functions included: a cycle hidden in a
function is still a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP = ("sim", "kernels", "analysis")
MAX_LINES = 440  # "about 400": the largest files today are the state layout and two rule tables

# Each unit of the house and the units it may import (besides itself).
LAYERS: dict[str, set[str]] = {
    "kernels.core": set(),
    "kernels.bots": {"kernels.core"},
    "kernels.game": {"kernels.core", "kernels.bots"},
    "kernels.search": {"kernels.core", "kernels.bots", "kernels.game"},
    "kernels.play": {"kernels.core", "kernels.bots", "kernels.game", "kernels.search"},
    "kernels.imitate": {"kernels.core", "kernels.bots", "kernels.game", "kernels.play"},  # records the search's moves
    "kernels.duo": {"kernels.core"},  # enums, state, moves, bots, game: the rules of Duo
    "kernels.duo.search": {"kernels.core", "kernels.duo"},
    "kernels.duo.play": {"kernels.core", "kernels.duo", "kernels.duo.search"},
    "kernels": set(),  # kernels/__init__.py: the cache location only
    "sim.errors": set(),
    "sim.data": set(),
    "sim": set(),
    "sim.rules": {"kernels.core", "sim.errors", "sim.data", "sim"},
    "sim.bots": {"kernels.core", "sim.rules", "sim.errors", "sim.data", "sim"},  # the bots' data, one home
    "sim.referee": {"kernels.core", "sim.rules", "sim.errors"},
    "sim.run": {"kernels", "kernels.core", "kernels.play", "kernels.imitate", "sim.rules", "sim.bots", "sim.errors",
                "sim.data", "sim"},
    "sim.duo": {"kernels.core", "kernels.duo", "kernels.duo.play", "sim.rules", "sim.run", "sim.errors", "sim.data", "sim"},
    "sim.tuning": {"kernels.core", "sim.rules", "sim.bots", "sim.run", "sim.errors", "sim.data", "sim"},
    "sim.checks": {"kernels.core", "sim.rules", "sim.run", "sim.referee", "sim.errors", "sim.data", "sim",
                   "analysis", "kernels.duo", "sim.duo"},
    "analysis": {"kernels.core", "sim.bots"},  # sim.bots: the one configuration key
    "sim.balance": {"kernels.core", "sim.rules", "sim.run", "sim.errors", "sim.data", "sim", "analysis"},
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
            targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                       for a in node.names]
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
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(n):] + [n]))
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


def test_files_stay_readable() -> None:
    long = {str(p.relative_to(ROOT)): n for p in MODULES.values() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"files over {MAX_LINES} lines, split them by concern: {long}"


def test_every_package_says_what_it_holds() -> None:
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            doc = ast.get_docstring(ast.parse(path.read_text()))
            assert doc and len(doc) > 40, f"{name}/__init__.py needs a docstring saying what the package holds"


def test_the_checker_sees_a_cycle() -> None:
    """The cycle test can fail: a lazy import of the driver from the engine is found."""
    fake = ast.parse("def f():\n    from kernels.play import turn_nb\n")
    found = {n.module for n in ast.walk(fake) if isinstance(n, ast.ImportFrom)}
    assert "kernels.play" in found and unit("kernels.play") not in LAYERS[unit("kernels.game.turn")]
    assert unit("kernels.duo.search") not in LAYERS[unit("kernels.duo.game")]  # Duo's engine cannot search


def test_the_tier_is_read_in_one_place() -> None:
    """Every decision of Tokaido goes through one dispatch per decision kind (kernels/bots/policy.py), which
    asks kernels/bots/tier.py for the player's policy: no other kernel reads a bot id or the expert switch
    (Tokaido Duo, a game of its own, has its own bots)."""
    import re

    read = re.compile(r"\[[^\]]*PF\.BOT\][^=\n]*(==|!=|>=|<=|>|<|\bif\b)|W\.EXPERT\]|PF\.BOT\]\s*(==|!=|>=|<=)")
    allowed = {"kernels/bots/tier.py"}
    found = {}
    for name, path in MODULES.items():
        rel = str(path.relative_to(ROOT))
        if not name.startswith("kernels") or name.startswith("kernels.duo") or rel in allowed:
            continue
        code = [ln for ln in path.read_text().splitlines() if not ln.lstrip().startswith(("#", "A ", "``"))]
        hits = [ln.strip() for ln in code if read.search(ln) and '"""' not in ln]
        if hits:
            found[rel] = hits
    assert not found, f"the tier is read outside kernels/bots/tier.py: {found}"

