"""Tokaido Duo plots: one PNG per function, each captioned with the board provenance and verified flag.

``plot_duo_all(dataset_dir, out_dir)`` draws every figure of a ``duo run``
dataset from the tables of ``analysis.duo.tables``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine

from analysis.duo.dataset import CHARACTERS, POINTS, DuoDataset, load_duo
from analysis.duo.tables import first_picker_table, points_table, token_waves_table, triggers_table
from analysis.tokaido.figures import new_figure as _figure
from analysis.tokaido.figures import save as _save

PLOT_FILES = (
    "duo_first_picker.png",
    "duo_points_by_character.png",
    "duo_triggers.png",
    "duo_token_waves.png",
)
CHAR_COLORS = {"pilgrim": "#2e86c1", "merchant": "#d4ac0d", "artist": "#a93226"}
BOT_COLORS = ("#34495e", "#1a7f37", "#8e44ad")


def _captioned(width: float, height: float, ds: DuoDataset) -> Figure:
    """A figure with room at the bottom for the provenance caption (never cropped, never overlapping)."""
    fig = _figure(width, height)
    bottom = 0.5 / height  # two caption lines of 8 pt need about half an inch
    engine = fig.get_layout_engine()
    assert isinstance(engine, ConstrainedLayoutEngine)
    engine.set(rect=(0, bottom, 1, 1 - bottom))  # (left, bottom, width, height) left to the axes
    colour = "#1a7f37" if ds.verified else "#c0392b"
    flag = f"verified={str(ds.verified).lower()}" + ("" if ds.verified else " — NOT the published board")
    fig.text(
        0.5,
        0.04 / height,
        f"Tokaido Duo · {ds.provenance}\n{flag}",
        ha="center",
        va="bottom",
        fontsize=8,
        color=colour,
    )
    return fig


def plot_first_picker(ds: DuoDataset, path: str | Path) -> Path:
    fp = first_picker_table(ds.frame)
    fig = _captioned(7, 1.6 + 0.6 * fp.height, ds)
    ax = fig.subplots()
    y = np.arange(fp.height)
    for k, (col, label, colour) in enumerate(
        (("win_first", "first picker", "#1a7f37"), ("win_second", "second picker", "#7f8c8d"))
    ):
        v = fp[col].to_numpy()
        err = np.vstack([v - fp[f"{col}_lo"].to_numpy(), fp[f"{col}_hi"].to_numpy() - v])
        ax.barh(y + (0.2 - 0.4 * k), v, height=0.38, xerr=err, color=colour, label=label, capsize=3)
    ax.axvline(0.5, color="#444", lw=1, ls="--")
    ax.set_yticks(y, fp["bot"].to_list())
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% Wilson interval); 'all' pools every game, 50% is even")
    fig.legend(loc="outside right upper", fontsize=9)
    fig.suptitle("Duo: win rate of the first picker of round 1", fontsize=12)
    return _save(fig, path)


def plot_points_by_character(ds: DuoDataset, path: str | Path) -> Path:
    pt = points_table(ds.frame)
    labels = [f"{r['bot']} · {r['outcome']}" for r in pt.iter_rows(named=True)]
    fig = _captioned(7.5, 1.6 + 0.42 * pt.height, ds)
    ax = fig.subplots()
    y = np.arange(pt.height)
    left = np.zeros(pt.height)
    for c, col in zip(CHARACTERS, POINTS, strict=True):
        v = pt[f"mean_{col}"].to_numpy()
        ax.barh(y, v, left=left, color=CHAR_COLORS[c], label=c, height=0.7)
        for yi, (lft, w) in enumerate(zip(left, v, strict=True)):
            if w >= 3:
                ax.text(lft + w / 2, yi, f"{w:.1f}", ha="center", va="center", fontsize=8, color="white")
        left += v
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("mean points per player-game (stacked: the total is the mean score)")
    fig.legend(loc="outside right upper", fontsize=9)
    fig.suptitle("Duo: points by character, per bot, all players / winners / losers", fontsize=12)
    return _save(fig, path)


def plot_triggers(ds: DuoDataset, path: str | Path) -> Path:
    trig = triggers_table(ds.games)
    matchups = trig["matchup"].unique(maintain_order=True).to_list()
    fig = _captioned(10, 4.2, ds)
    left, right = fig.subplots(1, 2)
    names = trig.filter(pl.col("matchup") == matchups[0])["trigger"].to_list()
    x = np.arange(len(names))
    width = 0.8 / len(matchups)
    for k, m in enumerate(matchups):
        sub = trig.filter(pl.col("matchup") == m)
        v = sub["share"].to_numpy()
        err = np.vstack([v - sub["share_lo"].to_numpy(), sub["share_hi"].to_numpy() - v])
        left.bar(
            x + (k - (len(matchups) - 1) / 2) * width,
            v,
            width=width,
            yerr=err,
            capsize=3,
            color=BOT_COLORS[k % len(BOT_COLORS)],
            label=m,
        )
        rounds = ds.games.filter(pl.col("matchup") == m)["rounds"].to_numpy()
        bins = np.arange(rounds.min() - 0.5, rounds.max() + 1.5)
        right.hist(
            rounds,
            bins=bins,
            density=True,
            histtype="stepfilled",
            alpha=0.45,
            color=BOT_COLORS[k % len(BOT_COLORS)],
            label=f"{m} (mean {rounds.mean():.1f})",
        )
    left.set_xticks(x, names)
    left.set_ylim(0, 1)
    left.set_ylabel("share of games in which it fired (95% CI)")
    left.set_title("which trigger ended the game (several may fire)", fontsize=10)
    right.set_xlabel("rounds played")
    right.set_ylabel("share of games")
    right.set_title("length of the game", fontsize=10)
    left.legend(fontsize=8)
    right.legend(fontsize=8)
    fig.suptitle("Duo: end of the game", fontsize=12)
    return _save(fig, path)


def plot_token_waves(ds: DuoDataset, path: str | Path) -> Path:
    tw = token_waves_table(ds.frame)
    items = tw["item"].unique(maintain_order=True).to_list()
    bots = tw["bot"].unique(maintain_order=True).to_list()
    fig = _captioned(8, 1.8 + 0.45 * len(items) * max(1, len(bots) / 1.5), ds)
    ax = fig.subplots()
    step = 0.7 / len(bots)
    for k, b in enumerate(bots):
        sub = tw.filter(pl.col("bot") == b)
        y = np.arange(len(items)) + (k - (len(bots) - 1) / 2) * step
        v = 100 * sub["diff"].to_numpy()
        err = np.vstack([v - 100 * sub["diff_lo"].to_numpy(), 100 * sub["diff_hi"].to_numpy() - v])
        sig = (sub["verdict"] != "").to_numpy()
        colour = BOT_COLORS[k % len(BOT_COLORS)]
        ax.errorbar(v, y, xerr=err, fmt="none", ecolor=colour, capsize=3)
        ax.scatter(v[sig], y[sig], color=colour, zorder=3, label=f"{b} (filled: Holm 5%)")
        ax.scatter(v[~sig], y[~sig], facecolor="white", edgecolor=colour, zorder=3)
    ax.axvline(0, color="#444", lw=1)
    ax.set_yticks(np.arange(len(items)), items)
    ax.invert_yaxis()
    ax.set_xlabel("win rate with − without (percentage points, 95% Newcombe interval)")
    ax.legend(loc="best", fontsize=8)
    fig.suptitle(
        "Duo: Hot Spring token and wave tiles, association with winning (not a causal value)", fontsize=11
    )
    return _save(fig, path)


def plot_duo_all(dataset_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Write every Duo plot (``PLOT_FILES``) of the ``duo run`` at ``dataset_dir`` into ``out_dir``."""
    ds = load_duo(dataset_dir)
    out = Path(out_dir)
    funcs = (plot_first_picker, plot_points_by_character, plot_triggers, plot_token_waves)
    return [f(ds, out / name) for f, name in zip(funcs, PLOT_FILES, strict=True)]
