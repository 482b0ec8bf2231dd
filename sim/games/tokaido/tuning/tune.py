"""Tune a heuristic tier's weights by self-play with CMA-ES (the ``cma`` package).

Each generation ``cma`` proposes ``population`` weight vectors; each plays as player 0
against a field of earlier bots (the start bot, i.e. the previous best, the current
mean, and the tiers below) at the player counts asked for, and CMA-ES adapts its mean
and covariance to the fitter ones. All candidates of a generation play the same games
(common random numbers: same seeds, same deals), so their differences are not luck of
the deal. Fitness per game: ``n x`` player 0's share of the win (1 = a fair share) plus
``MARGIN`` x (its score minus the best other score).

``--tier tuned`` tunes the heuristic's features over 2-5 players (the shipped
``tuned.toml``); ``--tier expert`` tunes the features and the expert's weights
(``[expert]``) for one configuration (``--players 4 --expansions crossroads``), written
as ``sim/games/tokaido/data/bots/expert-4p-crossroads.toml``, which ``bots.bot_weights`` reads for it.

For ``tuned`` the Traveler priors (its fallback draft values) are then the tuned bot's
own estimate: each Traveler's mean score minus the table's mean, in self-play with
random Travelers. The draft proper uses win shares (``tokaido-sim calibrate-draft``).
``write_weights`` writes a weight file with a header recording the command, seed and
date, and the fitness by generation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import cma
import numpy as np

from kernels.tokaido.core import weights as Wt
from kernels.tokaido.core.enums import BOT_NAMES
from sim.games.tokaido import bots, engine
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from sim.run import pace
from sim.run.game import MAX_SEED, win_share

MARGIN = 0.02  # fitness per point of score margin
FIXED = ("pts",)  # the scale: points are worth 1
PLAYER_COUNTS = (2, 3, 4, 5)


@dataclass
class TuneSettings:
    generations: int = 16
    population: int = 24
    games: int = 800  # per candidate per generation, split over the player counts
    seed: int = 1
    sigma: float = 0.4  # initial standard deviation of every tuned weight
    start: str = "heuristic"  # the bot whose weights are the first mean (and the field's anchor)
    tier: str = "tuned"  # "tuned": the features; "expert": the features and the [expert] weights
    players: tuple[int, ...] = PLAYER_COUNTS
    expansions: tuple[str, ...] = ()
    trav_games: int = 20000  # per player count, for the Traveler priors (tier tuned only)
    threads: int | None = None
    history: list[dict] = field(default_factory=list)


def tuned_keys(tier: str = "tuned") -> list[str]:
    """The weights tuned: every heuristic feature but the fixed ones, the Neutral's block, and the
    expert's."""
    keys = [k for k in bots.feature_names() if k not in FIXED] + ["h_block"]
    return keys + bots.expert_names() if tier == "expert" else keys


def key_index(key: str) -> int:
    if key == "h_block":
        return Wt.W.H_BLOCK
    if key in bots.expert_names():
        return bots.expert_index(key)
    return bots.feature_index(key)


def game_seed(seed: int, gen: int, n: int) -> int:
    """The seed of generation ``gen``'s games at ``n`` players (same for every candidate)."""
    return (seed * 1_000_003 + gen * 101 + n) % MAX_SEED


def fitness(records: np.ndarray, n: int) -> float:
    """Mean over games of player 0's ``n`` x win share + MARGIN x (score - best other score)."""
    rec = records.reshape(-1, n)
    p0 = rec[:, 0]
    win = win_share(p0)
    best_other = rec["score"][:, 1:].max(axis=1)
    return float(np.mean(n * win + MARGIN * (p0["score"].astype(float) - best_other)))


def field_weights(n: int, cand: np.ndarray, field_ws: list[np.ndarray]) -> np.ndarray:
    """Player 0 is the candidate; the others cycle through the field."""
    ws = np.zeros((n, Wt.W_N))
    ws[0] = cand
    for p in range(1, n):
        ws[p] = field_ws[(p - 1) % len(field_ws)]
    return ws


def evaluate(
    cands: np.ndarray,
    gen: int,
    s: TuneSettings,
    field_ws: list[np.ndarray],
    configs: dict[int, tuple[GameConfig, Rules]],
    advance: Callable[[int], None],
) -> np.ndarray:
    """Fitness of each candidate weight vector (rows of ``cands``), averaged over player counts."""
    fit = np.zeros(len(cands))
    per_n = max(1, s.games // len(s.players))
    for n in s.players:
        config, rules = configs[n]
        for i, cand in enumerate(cands):
            ws = field_weights(n, cand, field_ws)
            batch = pace.play(
                TokaidoGame(config, rules, ws), game_seed(s.seed, gen, n), 0, per_n, s.threads, advance
            )
            fit[i] += fitness(batch.records, n) / len(s.players)
    return fit


def field_bots(n: int) -> tuple[str, ...]:
    return ("tuned",) * n  # the bot ids only label the records: every player's weights are given


def cem(s: TuneSettings, progress: Callable[[int], Callable[[int], None]] | None = None) -> np.ndarray:
    """Run CMA-ES; returns the tuned weight vector (Traveler priors not yet set)."""
    configs = {}
    for n in s.players:
        config = GameConfig(n_players=n, bots=field_bots(n), expansions=s.expansions)
        configs[n] = (config, config.rules())
    cfg0, rules0 = configs[s.players[0]]
    start = bots.bot_weights(s.start, rules0, cfg0 if s.tier == "expert" else None)
    if s.tier == "expert":
        start[Wt.W.EXPERT] = 1.0
    below = ("tuned", "heuristic") if s.tier == "expert" else ("heuristic", "greedy")
    anchors = [bots.bot_weights(b, rules0) for b in below]
    keys = tuned_keys(s.tier)
    idx = np.array([key_index(k) for k in keys])
    es = cma.CMAEvolutionStrategy(
        start[idx], s.sigma, {"popsize": s.population, "seed": s.seed, "verbose": -9}
    )
    per_gen = s.population * max(1, s.games // len(s.players)) * len(s.players)
    advance = progress(s.generations * per_gen) if progress else (lambda k: None)
    mean_w = start.copy()
    for gen in range(s.generations):
        samples = np.array(es.ask())
        samples[0] = es.mean  # the current mean is always a candidate
        cands = np.repeat(start[None, :], s.population, axis=0)
        cands[:, idx] = samples
        mean_w[idx] = es.mean
        fit = evaluate(cands, gen, s, [start, mean_w.copy(), *anchors], configs, advance)
        es.tell(list(samples), list(-fit))
        s.history.append({"generation": gen, "best": float(fit.max()), "mean_candidate": float(fit[0])})
    out = start.copy()
    out[idx] = es.mean
    return out


def traveler_priors(w: np.ndarray, s: TuneSettings) -> dict[str, float]:
    """Each Traveler's mean score minus its table's mean, in self-play with random Travelers."""
    totals: dict[str, list[float]] = {}
    for n in PLAYER_COUNTS:
        config = GameConfig(n_players=n, bots=("tuned",), travelers="random")
        rules = config.rules()
        ws = np.repeat(w[None, :], n, axis=0)
        batch = engine.play_games(
            config, rules, game_seed(s.seed, 10_000, n), 0, s.trav_games, threads=s.threads, weights=ws
        )
        rec = batch.records.reshape(-1, n)
        rel = rec["score"] - rec["score"].mean(axis=1, keepdims=True)
        for t, trav in enumerate(rules.travelers):
            m = rec["traveler"] == t
            if m.any():
                totals.setdefault(trav.name, []).append(float(rel[m].mean()))
    return {name: round(float(np.mean(v)), 2) for name, v in totals.items()}


def weights_toml(w: np.ndarray, priors: dict[str, float], header: list[str], tier: str = "tuned") -> str:
    """A weight file (the format of ``sim/games/tokaido/data/bots/heuristic.toml``)."""
    lines = [f"# {h}" if h else "#" for h in header]
    if tier == "expert":
        lines += [
            "",
            'inherit = "expert"  # the draft table and the rest of the expert\'s file',
            "",
            f"h_block = {w[Wt.W.H_BLOCK]:.4g}",
            "",
            "[features]",
        ]
    else:
        lines += [
            "",
            'inherit = "greedy"  # the greedy rules\' weights, for options and Crossroads station choices',
            'draft_table = "tuned"  # the draft: win shares of sim/games/tokaido/data/bots/draft-tuned.toml',
            "",
            f"coin = {w[Wt.W.COIN]:.4g}",
            f"h_block = {w[Wt.W.H_BLOCK]:.4g}",
            "draft_coin = 0.0",
            "",
            "[features]",
        ]
    for k in bots.feature_names():
        lines.append(f"{k} = {w[bots.feature_index(k)]:.4g}")
    if tier == "expert":
        lines += ["", "[expert]"] + [f"{k} = {w[bots.expert_index(k)]:.4g}" for k in bots.expert_names()]
        return "\n".join(lines) + "\n"
    lines += [
        "",
        "# draft: each Traveler's mean score above its table's (self-play, random Travelers)",
        "[travelers]",
    ]
    for name, v in priors.items():
        key = name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f'"{name}"'
        lines.append(f"{key} = {v}")
    return "\n".join(lines) + "\n"


def write_weights(path: Path, w: np.ndarray, priors: dict[str, float], s: TuneSettings, command: str) -> None:
    date = datetime.now(UTC).isoformat(timespec="seconds")
    what = f"{s.tier}, {'+'.join(map(str, s.players))} players, expansions {'+'.join(s.expansions) or 'none'}"
    header = [
        f"Weights tuned by self-play (sim/games/tokaido/tuning/tune.py, CMA-ES): {what}.",
        f"Made by: {command}",
        f"Seed {s.seed}, {date}: {s.generations} generations x {s.population} candidates x {s.games} games",
        f"= {s.generations * s.population * s.games} games; initial sigma {s.sigma}, start '{s.start}'"
        + (f", {s.trav_games} games per player count for the Traveler priors." if s.tier == "tuned" else "."),
        "Fitness by generation (best / mean candidate; n x win share + 0.02 x score margin, 1 = fair):",
    ]
    for h in s.history:
        header.append(f"  gen {h['generation']:2d}: {h['best']:.3f} / {h['mean_candidate']:.3f}")
    write_weight_file(path, weights_toml(w, priors, header, s.tier))


def write_weight_file(path: Path, text: str) -> None:
    """Write a weight file whole or not at all: an interrupted tune leaves no half file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)


def check_settings(s: TuneSettings) -> None:
    from sim.errors import UserError

    if s.generations < 1 or s.population < 4:
        raise UserError("tune needs --generations >= 1 and --population >= 4")
    if s.games < len(s.players):
        raise UserError(f"--games must be at least {len(s.players)} (one per player count)")
    if s.tier not in ("tuned", "expert"):
        raise UserError(f"--tier must be tuned or expert, got '{s.tier}'")
    if not (s.sigma > 0 and math.isfinite(s.sigma)):
        raise UserError("--sigma must be a positive number")
    if not bots.bot_table(s.start).get("features"):  # random and greedy have no heuristic weights either
        known = [b for b in BOT_NAMES if bots.bot_table(b).get("features")]
        raise UserError(
            f"--start '{s.start}' is not a bot with heuristic weights; choose from: {', '.join(known)}"
        )
