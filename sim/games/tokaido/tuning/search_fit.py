"""Fit the search bot's evaluation at the Inns from self-play: what a player's state is still worth.

A truncated rollout (``w[S_HORIZON]`` legs, ``kernels.tokaido.search``) stops at an Inn where everyone
has gathered and values each player as their score had the journey ended there (Temple
ranking and end achievements counted) plus a linear function of their public state. The
coefficients come from expert self-play (``sim.games.tokaido.tuning.inns``): for each Inn k, the points each
player still scores (final score minus that score) regressed on their features, all measured
from the table's mean (within-game: only differences between players decide the rollout's margin).
They go to ``sim/games/tokaido/data/bots/search_eval.toml``, one section per configuration (``4p-base``...).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.games.tokaido.bots import SEARCH_EVAL, key_of
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.tuning.inns import inn_states

__all__ = ["SEARCH_EVAL", "Fit", "fit", "to_toml", "write"]

FEATURES = (
    "end_scoring",
    "coins",
    "panoramas",
    "souvenirs",
    "donated",
    "meals",
    "hot_springs",
    "encounters",
    "families",
)


@dataclass
class Fit:
    key: str
    games: int
    coef: np.ndarray  # (3, len(FEATURES))
    r2: np.ndarray  # (3,) within-game R^2 of the points still to come
    win_acc: np.ndarray  # (3,) how often the best evaluation is the final winner
    win_acc_now: np.ndarray  # (3,) the same for the score alone
    travelers: dict[str, np.ndarray] = field(default_factory=dict)  # name -> (3,) worth still to come, by Inn


def fit(config: GameConfig, games: int, seed: int) -> Fit:
    """Play ``games`` self-play games of ``config`` and fit the Inn evaluation (lstsq per Inn).

    Besides the features, each Traveler has a term per Inn (a one-hot column): what its ability
    is still worth from there (Hiroshige's and Chuubei's Inn gifts to come, ...). Measured from
    the table's mean, the terms are defined up to a constant; the minimum-norm solution is taken,
    and a Traveler never played gets 0.
    """
    feats, now_all, final, trav = inn_states(config, seed, 0, games)
    names = [t.name for t in config.rules().travelers]
    nf = len(FEATURES)
    onehot = (trav[..., None] == np.arange(len(names))).astype(float)  # (games, players, travelers)
    seen = onehot.reshape(-1, len(names)).sum(axis=0) > 0
    k_n = feats.shape[1]
    coef = np.zeros((k_n, nf))
    tcoef = np.zeros((k_n, len(names)))
    r2, acc, acc0 = np.zeros(k_n), np.zeros(k_n), np.zeros(k_n)
    win = final.argmax(axis=1)
    for k in range(k_n):
        x = np.concatenate([feats[:, k], onehot], axis=2)
        now = now_all[:, k]
        y = final - now
        xd = x - x.mean(axis=1, keepdims=True)
        yd = y - y.mean(axis=1, keepdims=True)
        a = xd.reshape(-1, x.shape[2])
        b, *_ = np.linalg.lstsq(a, yd.ravel(), rcond=None)
        coef[k], tcoef[k] = b[:nf], b[nf:]
        r2[k] = 1 - float(((yd.ravel() - a @ b) ** 2).mean() / (yd.ravel() ** 2).mean())
        acc[k] = float(((now + x @ b).argmax(axis=1) == win).mean())
        acc0[k] = float((now.argmax(axis=1) == win).mean())
    travelers = {t: tcoef[:, i] for i, t in enumerate(names) if seen[i]}
    return Fit(key_of(config), games, coef, r2, acc, acc0, travelers)


def to_toml(fits: list[Fit], command: str, seed: int) -> str:
    stamp = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()
    lines = [
        "# The search bot's evaluation at the Inns (kernels/tokaido/search.py margin_nb; "
        "sim/games/tokaido/tuning/search_fit.py).",
        f"# Made by: {command}",
        f"# Seed {seed}, {stamp}; expert self-play, Travelers dealt at random.",
        "# A player's value at Inn k = score as if the journey ended there + sum(coef * feature)"
        " + their Traveler's term, features:",
        "#   " + ", ".join(FEATURES),
        "#   then [KEY.travelers]: a term per Traveler and Inn (its ability's worth from there on)",
        "# (fitted on each player's points still to come, measured from the table's mean)",
        "",
    ]
    for f in fits:
        lines.append(
            f"# {f.key}: {f.games} games; R^2 by Inn "
            + " ".join(f"{v:.3f}" for v in f.r2)
            + "; winner found "
            + " ".join(f"{v:.3f}" for v in f.win_acc)
            + " (score alone "
            + " ".join(f"{v:.3f}" for v in f.win_acc_now)
            + ")"
        )
        lines.append(f"[{f.key}]")
        for k, row in enumerate(f.coef):
            lines.append(f"inn{k + 1} = [" + ", ".join(f"{v:.4f}" for v in row) + "]")
        if f.travelers:
            lines += ["", f"[{f.key}.travelers]  # each Traveler's worth still to come at Inns 1-3"]
            lines += [
                f'"{t}" = [' + ", ".join(f"{v:.4f}" for v in row) + "]" for t, row in f.travelers.items()
            ]
        lines.append("")
    return "\n".join(lines)


def write(path: Path, fits: list[Fit], command: str, seed: int) -> None:
    path.write_text(to_toml(fits, command, seed))
