"""Instructions per game of each compiled function, for two source trees: where a change costs.

    .venv/bin/python benchmarks/icount_functions.py /tmp/before . --games 1000 \
        --config players=4,travelers=draft,bots=greedy

``icount_ab.py`` gives the totals; this names the functions. Callgrind cannot name code Numba
compiled, so the counted process writes its own address map (each function's entry, from the
loaded libraries) and the counts of each instruction address are summed per function. A function
LLVM inlined counts in its caller. Needs ``valgrind``; the cache is compiled natively for a
generic x86-64 first, as in ``icount_ab.py``.
"""

from __future__ import annotations

import argparse
import bisect
import os
import re
import subprocess
import sys

CHILD = r"""
import os, sys
try:
    from sim.games.tokaido import engine
    from sim.games.tokaido.rules.config import GameConfig
    from kernels.tokaido.play import play_batch_nb
except ImportError:  # trees from before the games' plug-in layout
    try:
        from sim.run import engine
        from sim.games.tokaido.rules.config import GameConfig
        from kernels.tokaido.play import play_batch_nb
    except ImportError:  # trees from before the package layout
        from sim import engine
        from sim.config import GameConfig
        from kernels.tokaido.game import play_batch_nb
spec, games, mapf = sys.argv[1], int(sys.argv[2]), sys.argv[3]
config = GameConfig.parse(spec); rules = config.rules(); ru = engine.rules_record(config, rules)
engine.rules_record = lambda *a, **k: ru  # older trees build it in every play_games call
engine.play_games(config, rules, 1, 0, 64, threads=1)
rows = set()
for sig, cres in play_batch_nb.overloads.items():
    seen, stack = set(), [cres.library]
    while stack:
        lib = stack.pop()
        if id(lib) in seen: continue
        seen.add(id(lib)); stack.extend(getattr(lib, "_linking_libraries", ()))
        for attr in ("_final_module", "_shared_module"):
            mod = getattr(lib, attr, None)
            if mod is None: continue
            for f in mod.functions:
                if f.is_declaration: continue
                try: a = lib.get_pointer_to_function(f.name)
                except Exception: continue
                if a: rows.add((a, f.name))
with open(mapf, "w") as fh:
    for a, n in sorted(rows): fh.write(f"{a} {n}\n")
os.system(f"callgrind_control -i on {os.getpid()} > /dev/null")
engine.play_games(config, rules, 1, 0, games, threads=1)
os.system(f"callgrind_control -i off {os.getpid()} > /dev/null")
"""


def short(sym):
    if not sym.startswith("_ZN"):
        return sym
    s = sym[3:]
    comps = []
    while s and s[0].isdigit():
        n = re.match(r"\d+", s).group(0)
        ln = int(n)
        comps.append(s[len(n) : len(n) + ln])
        s = s[len(n) + ln :]
    return ".".join(comps[1:])


def run(tree, spec, games, tag):
    env = {
        **os.environ,
        "PYTHONPATH": tree,
        "NUMBA_NUM_THREADS": "1",
        "NUMBA_CPU_NAME": "generic",
        "NUMBA_CPU_FEATURES": "",
    }
    mapf, out = f"/tmp/cgfn_{tag}.map", f"/tmp/cgfn_{tag}.out"
    warm = (
        CHILD.split("spec, games")[0]
        + "c = GameConfig.parse(sys.argv[1]); engine.play_games(c, c.rules(), 1, 0, 8, threads=1)"
    )
    subprocess.run(
        [sys.executable, "-c", warm, spec], env=env, cwd=tree, check=True
    )  # compile natively, not under valgrind
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            "--dump-instr=yes",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-c",
            CHILD,
            spec,
            str(games),
            mapf,
        ],
        env=env,
        cwd=tree,
        capture_output=True,
        check=True,
    )
    return mapf, out


def attribute(mapf, out):
    rows = [(int(a), n) for a, n in (row.split(None, 1) for row in open(mapf))]
    rows = [(a, n.strip()) for a, n in rows]
    addrs = [a for a, _ in rows]
    cost = {}
    pos = 0
    skip = False
    npos = 1
    for line in open(out):
        if line.startswith("positions:"):
            npos = len(line.split()) - 1
            continue
        if line.startswith("calls="):
            skip = True
            continue
        c = line[0]
        if c.isdigit() or c in "+-*" or line.startswith("0x"):
            parts = line.split()
            p = parts[0]
            if p.startswith("0x"):
                pos = int(p, 16)
            elif p.startswith("+"):
                pos += int(p[1:], 16) if p[1:].startswith("0x") else int(p[1:])
            elif p.startswith("-"):
                pos -= int(p[1:], 16) if p[1:].startswith("0x") else int(p[1:])
            elif p == "*":
                pass
            else:
                pos = int(p)
            if skip:
                skip = False
                continue
            if len(parts) < npos + 1:
                continue
            n = int(parts[npos])
            i = bisect.bisect_right(addrs, pos) - 1
            name = short(rows[i][1]) if i >= 0 and pos - addrs[i] < 1 << 20 else "(other)"
            cost[name] = cost.get(name, 0) + n
    return cost


def calls(mapf, out):
    rows = [(int(a), n.strip()) for a, n in (row.split(None, 1) for row in open(mapf))]
    addrs = [a for a, _ in rows]
    got = {}
    for line in open(out):
        if line.startswith("calls="):
            parts = line[6:].split()
            cnt = int(parts[0])
            tgt = parts[1]
            if not tgt.startswith("0x"):
                continue
            a = int(tgt, 16)
            i = bisect.bisect_right(addrs, a) - 1
            if i >= 0 and addrs[i] == a:
                nm = short(rows[i][1])
                got[nm] = got.get(nm, 0) + cnt
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", help="source tree A")
    ap.add_argument("after", nargs="?", help="source tree B (omit to profile A alone)")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--config", default="players=4,travelers=draft,bots=greedy")
    ap.add_argument("--rows", type=int, default=25)
    args = ap.parse_args()
    trees = (("a", args.before), ("b", args.after)) if args.after else (("a", args.before),)
    res = [attribute(*run(os.path.abspath(tree), args.config, args.games, tag)) for tag, tree in trees]
    if len(res) == 1:
        res.append(res[0])
    g = args.games
    keys = sorted(set().union(*res), key=lambda n: -abs(res[1].get(n, 0) - res[0].get(n, 0)))
    print(f"{args.config}: instructions per game, {g:,} games\n")
    print("| function | A | B | B - A |\n|---|---:|---:|---:|")
    for n in keys[: args.rows]:
        a, b = res[0].get(n, 0) / g, res[1].get(n, 0) / g
        print(f"| `{n}` | {a:,.0f} | {b:,.0f} | {b - a:+,.0f} |")
    ta, tb = (sum(r.values()) / g for r in res)
    print(f"| all | {ta:,.0f} | {tb:,.0f} | {tb - ta:+,.0f} ({tb / ta:.3f}) |")


if __name__ == "__main__":
    main()
