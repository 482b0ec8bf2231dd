"""Where the heuristic tiers' move decision spends its time, compiled.

At every move decision with a choice, a probe kernel is called ``--rep`` extra times (the probes only
write the bots' scratch, which the decision then recomputes, so the games do not change); the extra
CPU time over a plain run, per call, is that kernel's cost (warm caches: a lower bound).

    .venv/bin/python benchmarks/probe_moves.py --config players=4,travelers=draft,bots=expert --games 2000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernels.core.rng import seed_game_nb
from kernels.tokaido.bots.context import context_nb
from kernels.tokaido.bots.heuristic import (
    base_values_nb,
    encounter_value_nb,
    move_values_nb,
    opp_values_nb,
    type_values_nb,
)
from kernels.tokaido.bots.policy import choose_move_nb
from kernels.tokaido.bots.village import village_value_nb
from kernels.tokaido.core.enums import PF, G
from kernels.tokaido.core.state import HID_DTYPE, PUB_DTYPE
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.turn import begin_turn_nb, end_scoring_nb, move_nb, setup_nb
from sim.games.tokaido.engine import rules_record
from sim.games.tokaido.rules.config import GameConfig

PROBES = (
    "context",
    "base values (all types)",
    "type values (all types)",
    "opponents' values",
    "move values (the whole decision)",
    "context + Village value",
    "context + Encounter value",
)


@njit
def probe_nb(pub, ru, t, w, ncand, which):
    if which == 1:
        context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
    elif which == 2:
        base_values_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
    elif which == 3:
        type_values_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
    elif which == 4:
        opp_values_nb(pub, ru, t)
    elif which == 5:
        move_values_nb(pub, ru, t, w, ncand, w[W.EXPERT] > 0.5)
    elif which == 6:
        context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
        village_value_nb(pub, ru, t, w)
    elif which == 7:
        context_nb(pub, ru, t, w, w[W.EXPERT] > 0.5)
        encounter_value_nb(pub, ru, t, w)


@njit
def run_nb(seed, n, rules, which, rep):
    """Play games 0..n-1 (no log), probing ``rep`` times at each move decision; the decisions probed."""
    ru = rules[0]
    dec = 0
    for g in range(n):
        pubs = np.zeros(1, PUB_DTYPE)
        hids = np.zeros(1, HID_DTYPE)
        pub = pubs[0]
        hid = hids[0]
        seed_game_nb(pub["rng"], seed, g)
        setup_nb(pub, hid, ru)
        while True:
            t, ctrl, ncand = begin_turn_nb(pub, hid, ru)
            if t < 0:
                break
            if ncand > 1 and pub["ps"][t, PF.NEUTRAL] == 0:
                dec += 1
                for _ in range(rep):
                    probe_nb(pub, ru, t, ru["botw"][ctrl], ncand, which)
            move_nb(pub, hid, ru, t, ctrl, pub["cand"][choose_move_nb(pub, ru, t, ctrl, ncand)])
        end_scoring_nb(pub, ru)
        pubs[0]["gs"][G.TURNS] += 0  # keep the records' arrays alive (kernels.tokaido.play.play_game_nb)
        hids[0]["lg"][1] += 0
    return dec


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="players=4,travelers=draft,bots=expert")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rep", type=int, default=5)
    a = ap.parse_args()
    config = GameConfig.parse(a.config)
    ru = rules_record(config, config.rules())
    run_nb(1, 5, ru, 0, 0)
    c0 = time.process_time()
    d = run_nb(1, a.games, ru, 0, 0)
    base = time.process_time() - c0
    print(
        f"{a.config}: {a.games / base:,.0f} games per CPU-s, {base / a.games * 1e6:.1f} us per game, "
        f"{d / a.games:.1f} move decisions per game"
    )
    for which, name in enumerate(PROBES, start=1):
        run_nb(1, 2, ru, which, 1)
        c0 = time.process_time()
        run_nb(1, a.games, ru, which, a.rep)
        extra = time.process_time() - c0 - base
        print(
            f"{name}: {extra / (d * a.rep) * 1e9:,.0f} ns per call, {extra / a.rep / a.games * 1e6:.1f} us "
            f"per game"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
