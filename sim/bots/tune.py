"""Tune the heuristic's weights by self-play: the cross-entropy method (CEM).

Each generation samples ``population`` weight vectors from a diagonal Gaussian
(mean: the heuristic's weights at first), plays each one as player 0 against a
field of earlier bots at 2, 3, 4 and 5 players (the current mean, ``heuristic``,
``greedy``, the previous generation's best), and refits the Gaussian to the best
``elites``. All candidates of a generation play the same games (common random
numbers: same seeds, same deals), so their differences are not luck of the deal.
Fitness per game: ``n x`` player 0's share of the win (1 = a fair share) plus
``MARGIN`` x (its score minus the best other score).

Then the Traveler priors (the draft) are the tuned bot's own estimate: in
self-play with Travelers dealt at random, each Traveler's mean score minus the
table's mean score, averaged over 2-5 players (``draft_coin`` is 0: the priors
already include the starting coins).

``write_weights`` writes the result as a weight file with a header recording the
command, seed and date (``sim/data/bots/tuned.toml``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from kernels.core import weights as Wt
from kernels.core.enums import BOT_NAMES
from sim.rules.config import GameConfig
from sim.rules.tables import Rules
from sim.run import engine, pace

MARGIN = 0.02  # fitness per point of score margin
FIXED = ("pts",)  # the scale: points are worth 1
PLAYER_COUNTS = (2, 3, 4, 5)


@dataclass
class TuneSettings:
    generations: int = 16
    population: int = 24
    elites: int = 6
    games: int = 800  # per candidate per generation, split over PLAYER_COUNTS
    seed: int = 1
    sigma: float = 0.4  # initial standard deviation of every tuned weight
    start: str = "heuristic"  # the bot whose weights are the first mean
    trav_games: int = 20000  # per player count, for the Traveler priors
    threads: int | None = None
    history: list[dict] = field(default_factory=list)


def tuned_keys() -> list[str]:
    """The weights CEM tunes: every heuristic feature but the fixed ones, and the Neutral's block."""
    return [k for k in engine.feature_names() if k not in FIXED] + ["h_block"]


def key_index(key: str) -> int:
    return Wt.W.H_BLOCK if key == "h_block" else engine._feature_index(key)


def game_seed(seed: int, gen: int, n: int) -> int:
    """The seed of generation ``gen``'s games at ``n`` players (same for every candidate)."""
    return (seed * 1_000_003 + gen * 101 + n) % engine.MAX_SEED


def fitness(records: np.ndarray, n: int) -> float:
    """Mean over games of player 0's ``n`` x win share + MARGIN x (score - best other score)."""
    rec = records.reshape(-1, n)
    p0 = rec[:, 0]
    win = (p0["rank"] == 1) / p0["win_k"]
    best_other = rec["score"][:, 1:].max(axis=1)
    return float(np.mean(n * win + MARGIN * (p0["score"].astype(float) - best_other)))


def field_weights(n: int, cand: np.ndarray, mean: np.ndarray, best: np.ndarray, base: dict[str, np.ndarray]) -> np.ndarray:
    """Player 0 is the candidate; the others cycle through the field."""
    field_ws = [mean, base["heuristic"], base["greedy"], best]
    ws = np.zeros((n, Wt.W_N))
    ws[0] = cand
    for p in range(1, n):
        ws[p] = field_ws[(p - 1) % len(field_ws)]
    return ws


def field_bots(n: int) -> tuple[str, ...]:
    names = ("tuned", "heuristic", "greedy", "tuned")
    return ("tuned",) + tuple(names[(p - 1) % len(names)] for p in range(1, n))


def evaluate(
    cands: np.ndarray, gen: int, s: TuneSettings, mean: np.ndarray, best: np.ndarray,
    base: dict[str, np.ndarray], configs: dict[int, tuple[GameConfig, Rules]], advance: Callable[[int], None],
) -> np.ndarray:
    """Fitness of each candidate weight vector (rows of ``cands``), summed over player counts."""
    fit = np.zeros(len(cands))
    per_n = max(1, s.games // len(PLAYER_COUNTS))
    for n in PLAYER_COUNTS:
        config, rules = configs[n]
        for i, cand in enumerate(cands):
            ws = field_weights(n, cand, mean, best, base)
            batch = pace.play_games(config, rules, game_seed(s.seed, gen, n), 0, per_n, s.threads, advance, weights=ws)
            fit[i] += fitness(batch.records, n) / len(PLAYER_COUNTS)
    return fit


def cem(s: TuneSettings, progress: Callable[[int], Callable[[int], None]] | None = None) -> np.ndarray:
    """Run CEM; returns the tuned weight vector (Traveler priors not yet set)."""
    configs = {}
    for n in PLAYER_COUNTS:
        config = GameConfig(n_players=n, bots=field_bots(n))
        configs[n] = (config, config.rules())
    rules4 = configs[4][1]
    base = {b: engine.bot_weights(b, rules4) for b in ("greedy", "heuristic")}
    start = engine.bot_weights(s.start, rules4)
    keys = tuned_keys()
    idx = np.array([key_index(k) for k in keys])
    mu = start[idx].copy()
    sigma = np.full(len(keys), s.sigma)
    rng = np.random.default_rng(s.seed)
    per_gen = s.population * max(1, s.games // len(PLAYER_COUNTS)) * len(PLAYER_COUNTS)
    advance = progress(s.generations * per_gen) if progress else (lambda k: None)
    best = start.copy()
    for gen in range(s.generations):
        samples = mu + sigma * rng.standard_normal((s.population, len(keys)))
        samples[0] = mu  # the current mean is always a candidate
        cands = np.repeat(start[None, :], s.population, axis=0)
        cands[:, idx] = samples
        mean_w = start.copy()
        mean_w[idx] = mu
        fit = evaluate(cands, gen, s, mean_w, best, base, configs, advance)
        order = np.argsort(-fit)
        elite = samples[order[: s.elites]]
        best = cands[order[0]].copy()
        mu = 0.3 * mu + 0.7 * elite.mean(axis=0)
        sigma = np.maximum(0.3 * sigma + 0.7 * elite.std(axis=0), 0.03)
        s.history.append({"generation": gen, "best": float(fit[order[0]]), "mean_candidate": float(fit[0]),
                          "elite_mean": float(fit[order[: s.elites]].mean())})
    out = start.copy()
    out[idx] = mu
    return out


def traveler_priors(w: np.ndarray, s: TuneSettings) -> dict[str, float]:
    """Each Traveler's mean score minus its table's mean, in self-play with random Travelers."""
    totals: dict[str, list[float]] = {}
    for n in PLAYER_COUNTS:
        config = GameConfig(n_players=n, bots=("tuned",), travelers="random")
        rules = config.rules()
        ws = np.repeat(w[None, :], n, axis=0)
        batch = engine.play_games(config, rules, game_seed(s.seed, 10_000, n), 0, s.trav_games,
                                  threads=s.threads, weights=ws)
        rec = batch.records.reshape(-1, n)
        rel = rec["score"] - rec["score"].mean(axis=1, keepdims=True)
        for t, trav in enumerate(rules.travelers):
            m = rec["traveler"] == t
            if m.any():
                totals.setdefault(trav.name, []).append(float(rel[m].mean()))
    return {name: round(float(np.mean(v)), 2) for name, v in totals.items()}


def weights_toml(w: np.ndarray, priors: dict[str, float], header: list[str]) -> str:
    """A weight file (the format of ``sim/data/bots/heuristic.toml``)."""
    lines = [f"# {h}" if h else "#" for h in header]
    lines += ["", 'inherit = "greedy"  # the greedy rules\' weights, for options and Crossroads station choices',
              "", f"coin = {w[Wt.W.COIN]:.4g}", f"h_block = {w[Wt.W.H_BLOCK]:.4g}", "draft_coin = 0.0", "", "[features]"]
    for k in engine.feature_names():
        lines.append(f"{k} = {w[engine._feature_index(k)]:.4g}")
    lines += ["", "# draft: each Traveler's mean score above its table's (self-play, random Travelers)", "[travelers]"]
    for name, v in priors.items():
        key = name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f'"{name}"'
        lines.append(f"{key} = {v}")
    return "\n".join(lines) + "\n"


def write_weights(path: Path, w: np.ndarray, priors: dict[str, float], s: TuneSettings, command: str) -> None:
    date = datetime.now(UTC).isoformat(timespec="seconds")
    header = [
        "The tuned bot: the heuristic's features with weights tuned by self-play (sim/bots/tune.py, CEM).",
        f"Made by: {command}",
        f"Seed {s.seed}, {date}: {s.generations} generations x {s.population} candidates x {s.games} games,",
        f"{s.elites} elites, initial sigma {s.sigma}, start '{s.start}', {s.trav_games} games per player count",
        "for the Traveler priors. Fitness by generation (best / mean candidate):",
    ]
    for h in s.history:
        header.append(f"  gen {h['generation']:2d}: {h['best']:.3f} / {h['mean_candidate']:.3f}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(weights_toml(w, priors, header))
    tmp.replace(path)


def check_settings(s: TuneSettings) -> None:
    from sim.errors import UserError

    if s.generations < 1 or s.population < 2 or not 1 <= s.elites <= s.population:
        raise UserError("tune needs --generations >= 1, --population >= 2 and 1 <= --elites <= --population")
    if s.games < len(PLAYER_COUNTS):
        raise UserError(f"--games must be at least {len(PLAYER_COUNTS)} (one per player count)")
    if not (s.sigma > 0 and math.isfinite(s.sigma)):
        raise UserError("--sigma must be a positive number")
    if not engine.bot_table(s.start).get("features"):  # random and greedy have no heuristic weights either
        known = [b for b in BOT_NAMES if engine.bot_table(b).get("features")]
        raise UserError(f"--start '{s.start}' is not a bot with heuristic weights; choose from: {', '.join(known)}")
