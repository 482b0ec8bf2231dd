"""Polish a tier's weights by coordinate ascent on large paired duels (``tokaido-sim tune --method sweep``).

CMA-ES (``sim.games.tokaido.tuning.tune.cem``) moves every weight at once and judges each candidate on a
few hundred games: it finds the broad shape, but a change worth a few points of win share
is lost in its noise. The sweep takes the other side of that trade. Each round, every
weight that acts in the configuration is moved one step up and one step down (a step is
``step`` times its size, at least ``min_step``), and each of those candidates plays the
same ``games`` deals in seat 0 against a field in the other seats: by default the starting
weights (the previous best), or in turn the names given (``start``, ``current`` or a bot).
Against the start alone the sweep learns, in part, to exploit the start: at 4 players its
weights beat the start by +99 Elo, and the search by 138 Elo more than the start does, but
``tuned`` by only +5 where the start gets +58 (docs/bots.md, "The coordinate sweep").
The fitness is ``sim.games.tokaido.tuning.tune.fitness`` game by game, and the deals are the
same for every candidate (common random numbers), so the difference from the current
weights is paired: its z is its mean over its standard error. The round takes up to
``take`` of the best moves with z >= ``z_min`` (one per weight) and the next round starts
there; the sweep stops when no move reaches ``z_min`` or after ``rounds`` rounds.

A weight whose every game is unchanged by its move (an Inn weight where the Inn is a forced
stop, the Neutral's block without the Neutral) is left out of that round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from sim.games.tokaido import bots
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning.tune import key_index, tuned_keys
from sim.run import pace
from sim.run.game import win_share

# Weights of choices the configuration cannot have are not swept (their games never change);
# these are skipped by name so that no round is spent on them.
CROSSROADS_ONLY = ("gamble", "legend", "calli", "cherry", "bath", "ability_xr", "amulet_use", "script_later")
MATSURI_ONLY = ("ability_mt", "mt_lead", "mt_reroll", "mt_meal", "felicia")


@dataclass
class SweepSettings:
    players: int = 4
    expansions: tuple[str, ...] = ()
    rounds: int = 6
    games: int = 20000  # deals per candidate (and for the current weights) per round
    seed: int = 1
    step: float = 0.3  # a move is step x |weight| ...
    min_step: float = 0.2  # ... and at least this
    z_min: float = 3.0
    take: int = 3  # moves taken per round (one per weight)
    start: str = "expert"
    opponents: tuple[str, ...] = (
        "start",
    )  # seats 1.. in turn: "start", "current" (the weights so far) or a bot
    threads: int | None = None
    history: list[dict] = field(default_factory=list)


def swept_keys(expansions: tuple[str, ...]) -> list[str]:
    skip = set(MATSURI_ONLY)
    if "crossroads" not in expansions:
        skip |= set(CROSSROADS_ONLY) | {k for k in tuned_keys("expert") if k.startswith("amulet_")}
    return [k for k in tuned_keys("expert") if k not in skip]


def per_game_fitness(records: np.ndarray, n: int) -> np.ndarray:
    """``sim.games.tokaido.tuning.tune.fitness`` game by game: player 0's n x win share + 0.02 x margin over
    the best other."""
    rec = records.reshape(-1, n)
    p0 = rec[:, 0]
    win = win_share(p0)
    return n * win + 0.02 * (p0["score"].astype(float) - rec["score"][:, 1:].max(axis=1))


def sweep(s: SweepSettings, progress: Callable[[int], Callable[[int], None]] | None = None) -> np.ndarray:
    """Run the sweep; returns the weight vector (``s.history`` gets each round's moves)."""
    n = s.players
    config = GameConfig(n_players=n, bots=("expert",) * n, expansions=s.expansions)
    rules = config.rules()
    start = bots.bot_weights(s.start, rules, config)
    keys = swept_keys(s.expansions)
    moving = "current" in s.opponents  # the field changes with the weights: re-measure the start each round
    per_round = (2 * len(keys) + 1 + int(moving)) * s.games
    advance = progress(s.rounds * per_round) if progress else (lambda k: None)

    others = {b: bots.bot_weights(b, rules, config) for b in s.opponents if b not in ("start", "current")}

    def play(w: np.ndarray) -> np.ndarray:
        ws = np.repeat(start[None, :], n, axis=0)
        ws[0] = w
        for p in range(1, n):
            b = s.opponents[(p - 1) % len(s.opponents)]
            ws[p] = cur if b == "current" else (start if b == "start" else others[b])
        batch = pace.play(TokaidoGame(config, rules, ws), s.seed, 0, s.games, s.threads, advance)
        return per_game_fitness(batch.records, n)

    cur = start.copy()
    f_cur = play(cur)
    f_ref = None if moving else f_cur
    for r in range(s.rounds):
        moves = []
        for k in keys:
            i = key_index(k)
            d = max(s.step * abs(cur[i]), s.min_step)
            for v in (cur[i] + d, cur[i] - d):
                w = cur.copy()
                w[i] = v
                diff = play(w) - f_cur
                sd = float(diff.std())
                if sd > 0:
                    moves.append((float(diff.mean()) / (sd / np.sqrt(s.games)), k, float(v)))
        moves.sort(reverse=True)
        taken: dict[str, float] = {}
        for z, k, v in moves:
            if z >= s.z_min and k not in taken and len(taken) < s.take:
                taken[k] = v
        if not taken:
            s.history.append(
                {
                    "round": r,
                    "moves": {},
                    "best_z": moves[0][0] if moves else 0.0,
                    "vs_start": s.history[-1]["vs_start"] if s.history else 0.0,
                }
            )
            break
        for k, v in taken.items():
            cur[key_index(k)] = v
        f_cur = play(cur)  # with "current" in the field, the field moved too
        if moving or f_ref is None:  # the start in seat 0 against the same field
            f_ref = play(start)
        s.history.append(
            {"round": r, "moves": taken, "best_z": moves[0][0], "vs_start": float(np.mean(f_cur - f_ref))}
        )
    return cur


def write_weights(path, w: np.ndarray, s: SweepSettings, command: str) -> None:
    """The expert weight file with the sweep's provenance and every round's moves in its header."""
    from datetime import UTC, datetime

    from sim.games.tokaido.tuning.tune import weights_toml, write_weight_file

    date = datetime.now(UTC).isoformat(timespec="seconds")
    header = [
        f"Weights polished by a coordinate sweep (sim/games/tokaido/tuning/sweep.py): expert, {s.players} "
        f"players, "
        f"expansions {'+'.join(s.expansions) or 'none'}.",
        f"Made by: {command}",
        f"Seed {s.seed}, {date}: start '{s.start}'; each round every weight +- max({s.step} x |w|, "
        f"{s.min_step}),",
        f"{s.games} paired deals per move in seat 0 against {', '.join(s.opponents)}; up to {s.take} moves "
        f"with z >= {s.z_min}.",
        "Rounds (moves taken; fitness over the start in seat 0 against the same field, n x win share + 0.02 "
        "x margin):",
    ]
    for h in s.history:
        moves = ", ".join(f"{k} {v:.4g}" for k, v in h["moves"].items()) or f"none (best z {h['best_z']:.1f})"
        header.append(f"  round {h['round']}: {moves}; {h['vs_start']:+.3f}")
    write_weight_file(path, weights_toml(w, {}, header, "expert"))
