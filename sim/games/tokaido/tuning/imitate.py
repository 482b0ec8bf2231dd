"""Fit the expert's weights to the search's move choices (``tokaido-sim tune --method imitate``).

The sweep and CMA-ES judge weights by games against a field of experts, so they tune the
expert to beat experts. Where the search plays a configuration differently (3 players,
base game: one search player among experts wins 0.669, fair 0.333; docs/bots.md), that
field is not the search's, and the two tiers' Traveler rankings part. This method tunes
towards the stronger player instead (policy distillation, as in expert iteration):

1. the search plays ``games`` self-play games (Travelers at random) with the current weights
   as its heuristic and rollout policy; every move decision with a choice is recorded: the
   public record before it (what the mover may see) and the candidate the search took
   (``sim.games.tokaido.tuning.imitation.record``);
2. CMA-ES (the ``cma`` package) fits the weights that make those choices most likely under a
   softmax of the expert's move values, ``P(k) ~ exp(V_k / tau)`` (a conditional logit; the
   temperature ``tau`` is fitted too), with a ridge ``penalty`` on each weight's move from its
   start in steps of ``max(0.3 |w|, 0.2)``, the sweep's step. The values of a weight vector on
   all the recorded positions come from one parallel kernel call (``Positions.values``);
3. the next round records the search again with the fitted weights (the search's heuristic and
   rollouts change with them) and fits again from there.

Games whose index is 0 mod 5 are held out: the log-likelihood and the share of decisions where
the expert's best move is the search's are reported on them. Only move choices are recorded
(the search decides moves; its other choices are the expert's own), so only weights that change
some recorded move value are fitted. The result is judged as every weight change is here: by
duels against the shipped weights and the full tier-agreement re-measure (docs/bots.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cma
import numpy as np

from kernels.tokaido.core.state import PUB_DTYPE
from sim.games.tokaido import bots
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning.imitation import WORK, Positions, record
from sim.games.tokaido.tuning.sweep import swept_keys
from sim.games.tokaido.tuning.tune import key_index, tuned_keys


@dataclass
class ImitateSettings:
    players: int = 3
    expansions: tuple[str, ...] = ()
    rounds: int = 2  # record, fit; record with the fitted weights, fit again ...
    games: int = 2000  # search self-play games recorded per round
    iterations: int = 250  # CMA-ES iterations per round
    penalty: float = 0.0005  # ridge on the weights' moves (in steps), per weight
    seed: int = 1
    start: str = "expert"
    threads: int | None = None
    gate: int = 0  # paired deals per step of the strength gate (0: no gate, every fit is kept)
    history: list[dict] = field(default_factory=list)


GATE_STEPS = (1.0, 0.5, 0.25)  # the fitted move tried whole, half and a quarter against the round's start


def log_likelihood(vals: np.ndarray, choice: np.ndarray, tau: float) -> float:
    """Mean log-probability of the choices under ``softmax(vals / tau)`` per row (-inf past a row's
    candidates)."""
    z = vals / tau
    m = z.max(axis=1, keepdims=True)
    lse = np.log(np.exp(z - m).sum(axis=1)) + m[:, 0]
    return float((z[np.arange(len(z)), choice] - lse).mean())


def agreement_rate(vals: np.ndarray, choice: np.ndarray) -> float:
    """Share of positions where the heuristic's best candidate is the one chosen."""
    return float((vals.argmax(axis=1) == choice).mean())


def fitted_keys(pos: Positions, w0: np.ndarray, keys: list[str]) -> list[str]:
    """The keys whose one-step move changes some recorded move value (the others cannot be fitted here)."""
    v0 = pos.values(w0)
    fin = np.isfinite(v0)
    out = []
    for k in keys:
        i = key_index(k)
        w = w0.copy()
        w[i] += max(0.3 * abs(w0[i]), 0.2)
        if np.abs(pos.values(w)[fin] - v0[fin]).max(initial=0.0) > 1e-12:
            out.append(k)
    return out


def fit(
    pos: Positions,
    w0: np.ndarray,
    keys: list[str],
    s: ImitateSettings,
    seed: int,
    advance: Callable[[int], None] = lambda k: None,
) -> tuple[np.ndarray, dict]:
    """CMA-ES on the held-in positions' log-likelihood; returns the weights and the round's figures.

    ``advance(1)`` after each iteration (and the iterations left if CMA-ES stops early)."""
    idx = np.array([key_index(k) for k in keys], dtype=np.int64)
    scale = np.maximum(0.3 * np.abs(w0[idx]), 0.2)
    test = pos.held_out
    train = ~test
    ch = pos.choice
    work = np.zeros(WORK, PUB_DTYPE)
    v0 = pos.values(w0, work)
    tau0 = max(
        (log_likelihood(v0[train], ch[train], t), t) for t in (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0)
    )[1]

    def unpack(x: np.ndarray) -> tuple[np.ndarray, float]:
        w = w0.copy()
        w[idx] = w0[idx] + x[:-1] * scale
        return w, tau0 * float(np.exp(x[-1]))

    def loss(x: np.ndarray) -> float:
        w, tau = unpack(x)
        v = pos.values(w, work)
        return -log_likelihood(v[train], ch[train], tau) + s.penalty * float(np.sum(x[:-1] ** 2)) / len(x)

    es = cma.CMAEvolutionStrategy(
        np.zeros(len(idx) + 1), 0.5, {"seed": seed, "verbose": -9, "maxiter": s.iterations}
    )
    while not es.stop():
        xs = es.ask()
        es.tell(xs, [loss(np.asarray(x)) for x in xs])
        advance(1)
    advance(max(0, s.iterations - es.countiter))
    w, tau = unpack(np.asarray(es.mean))
    v = pos.values(w, work)
    figures = {
        "decisions": int(len(ch)),
        "held_out": int(test.sum()),
        "tau": tau,
        "agree_before": agreement_rate(v0[test], ch[test]),
        "agree_after": agreement_rate(v[test], ch[test]),
        "ll_before": log_likelihood(v0[test], ch[test], tau0),
        "ll_after": log_likelihood(v[test], ch[test], tau),
        "moves": {k: float(w[i]) for k, i in zip(keys, idx, strict=True) if abs(w[i] - w0[i]) > 1e-12},
    }
    return w, figures


def imitate(s: ImitateSettings, progress: Callable[[int], Callable[[int], None]] | None = None) -> np.ndarray:
    """Run the rounds; returns the expert weight vector (``s.history`` gets each round's figures)."""
    n = s.players
    config = GameConfig(n_players=n, bots=("search",) * n, expansions=s.expansions, travelers="random")
    rules = config.rules()
    expert_cfg = GameConfig(n_players=n, bots=("expert",) * n, expansions=s.expansions, travelers="random")
    cur = bots.bot_weights(s.start, rules, expert_cfg)
    search_w = bots.bot_weights("search", rules, config)
    tuned = np.array([key_index(k) for k in tuned_keys("expert")], dtype=np.int64)
    keys = [k for k in swept_keys(s.expansions) if n == 2 or k != "h_block"]
    steps = len(GATE_STEPS) if s.gate else 0
    advance = progress(s.rounds * (s.games + s.iterations + steps)) if progress else (lambda k: None)
    for r in range(s.rounds):
        ws = search_w.copy()
        ws[tuned] = cur[tuned]  # the search's heuristic and rollout policy: the weights so far
        pos = record(config, np.repeat(ws[None, :], n, axis=0), s.games, s.seed + r, s.threads, advance)
        fk = fitted_keys(pos, cur, keys)
        fitted, figures = fit(pos, cur, fk, s, s.seed + r, advance)
        if s.gate:
            fitted = gate(expert_cfg, cur, fitted, s, r, figures, advance)
            figures["agree_kept"] = agreement_rate(pos.values(fitted)[pos.held_out], pos.choice[pos.held_out])
        cur = fitted
        figures["round"] = r
        figures["fitted"] = len(fk)
        s.history.append(figures)
    return cur


def gate(
    config: GameConfig,
    cur: np.ndarray,
    fitted: np.ndarray,
    s: ImitateSettings,
    r: int,
    figures: dict,
    advance: Callable[[int], None] = lambda k: None,
) -> np.ndarray:
    """The strength gate (as in expert iteration's gating): the fitted move is tried at each of
    ``GATE_STEPS`` in paired duels against the round's start on the same deals; the best step is
    kept if it wins more than half, else the round's start is kept. ``figures['gate']`` gets
    each step's win share, ``figures['step']`` the step kept (0: none)."""
    from sim.games.tokaido.tuning.duel import play_duel

    shares = {}
    for a in GATE_STEPS:
        res, _ = play_duel(config, cur + a * (fitted - cur), cur, s.gate, s.seed + 1000 + r, s.threads)
        shares[a] = res.win_a
        advance(1)
    best = max(shares, key=lambda a: shares[a])
    step = best if shares[best] > 0.5 else 0.0
    figures["gate"], figures["step"] = shares, step
    return cur + step * (fitted - cur)


def start_provenance(s: ImitateSettings) -> list[str]:
    """The header of the weight file the fit started from, indented: a file made by rounds on top
    of earlier rounds says how those were made too."""
    cfg = GameConfig(n_players=s.players, bots=("expert",) * s.players, expansions=s.expansions)
    path = bots.weight_file(s.start, cfg)
    if path is None:
        return []
    old = [ln[2:] for ln in path.read_text().splitlines() if ln.startswith("# ")]
    return [f"The start, {path.name}, had this header:"] + [f"  {ln}" for ln in old] if old else []


def write_weights(path, w: np.ndarray, s: ImitateSettings, command: str) -> None:
    """The expert weight file with the fit's provenance and every round's figures in its header."""
    from datetime import UTC, datetime

    from sim.games.tokaido.tuning.tune import weights_toml, write_weight_file

    date = datetime.now(UTC).isoformat(timespec="seconds")
    header = [
        f"Weights fitted to the search's move choices (sim/games/tokaido/tuning/imitate.py): expert, "
        f"{s.players} players, "
        f"expansions {'+'.join(s.expansions) or 'none'}.",
        f"Made by: {command}",
        f"Seed {s.seed}, {date}: start '{s.start}'; {s.rounds} rounds of {s.games} search self-play games "
        f"recorded,",
        f"then CMA-ES ({s.iterations} iterations) on the conditional logit of the search's choices, ridge "
        f"{s.penalty}.",
        "Rounds (held-out decisions: the expert's best move is the search's, before -> after; "
        "log-likelihood):",
    ]
    for h in s.history:
        header.append(
            f"  round {h['round']}: {h['decisions']} decisions, {h['fitted']} weights; agree "
            f"{h['agree_before']:.4f} -> {h['agree_after']:.4f}; ll {h['ll_before']:.4f} -> "
            f"{h['ll_after']:.4f}, tau {h['tau']:.3f}"
        )
        if "gate" in h:
            tried = ", ".join(f"{a:g}: {v:.3f}" for a, v in h["gate"].items())
            header.append(
                f"    gate ({s.gate} deals x 2 against the round's start; win share by step): {tried}; "
                f"kept step {h['step']:g}, agree {h['agree_kept']:.4f}"
            )
    header += start_provenance(s)
    write_weight_file(path, weights_toml(w, {}, header, "expert"))
