"""The draft as a decision: each Traveler's win share under random assignment, per tier and configuration.

``calibrate`` plays self-play games of one tier with Travelers dealt at random
(``--travelers random``) for every player count and expansion set asked for, and
measures each Traveler's share of the wins (a shared win counts 1/k). ``write_table``
stores the shares with their provenance (command, seed, games, date) as
``sim/games/tokaido/data/bots/draft-TIER.toml``; a tier whose weight file says ``draft_table = "TIER"``
keeps, of its two dealt Travelers, the one with the higher share in its configuration
(``sim.games.tokaido.bots.draft_values``; ``draft_temp`` > 0: a softmax instead).

The draft comes before the line-up at the start Inn, so a player does not know its
seat when it keeps a Traveler: with Preparations (coins by seat) the table is measured
under that variant (a ``-preparations`` section), averaged over the seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from sim.games.tokaido import bots, engine
from sim.games.tokaido.rules.config import GameConfig
from sim.run.game import MAX_SEED, win_share

DATA_DIR = Path(__file__).resolve().parents[1] / "data" / bots.BOT_DIR


@dataclass
class Cell:
    """One configuration's measurement."""

    key: str  # section name: sim.games.tokaido.bots.config_key (+ "-VARIANTS")
    games: int
    seed: int
    shares: dict[str, float]  # Traveler -> win share
    halfwidth: dict[str, float]  # Traveler -> 95% half-width of the share
    appearances: dict[str, int]
    # the games' result records (RESULT_DTYPE), kept so that a caller can reuse the games (seat gain)
    records: np.ndarray | None = field(default=None, repr=False, compare=False)


def cell_key(config: GameConfig) -> str:
    key = str(bots.key_of(config))
    return f"{key}-{'+'.join(sorted(config.variants))}" if config.variants else key


def cell_seed(seed: int, n: int, expansions: tuple[str, ...], variants: tuple[str, ...]) -> int:
    """Each cell has its own stream, fixed by (seed, configuration)."""
    tag = sum(ord(c) * (i + 1) for i, c in enumerate("+".join(expansions) + "/" + "+".join(variants)))
    return (seed * 1_000_003 + n * 7919 + tag) % MAX_SEED


def measure(
    tier: str,
    n: int,
    expansions: tuple[str, ...],
    variants: tuple[str, ...],
    games: int,
    seed: int,
    threads: int | None = None,
) -> Cell:
    """Win share of each Traveler in ``games`` self-play games of ``tier`` with random Travelers."""
    config = GameConfig(
        n_players=n, bots=(tier,), expansions=expansions, variants=variants, travelers="random"
    )
    rules = config.rules()
    s = cell_seed(seed, n, expansions, variants)
    rec = engine.play_games(config, rules, s, 0, games, threads=threads).records
    win = win_share(rec)
    shares, half, apps = {}, {}, {}
    for i, t in enumerate(rules.travelers):
        m = rec["traveler"] == i
        k = int(m.sum())
        if k == 0:
            continue
        p = float(win[m].mean())
        shares[t.name] = round(p, 4)
        half[t.name] = round(1.96 * float(win[m].std(ddof=1)) / np.sqrt(k), 4) if k > 1 else 1.0
        apps[t.name] = k
    return Cell(cell_key(config), games, s, shares, half, apps, rec)


def table_toml(tier: str, cells: list[Cell], command: str, seed: int) -> str:
    date = datetime.now(UTC).isoformat(timespec="seconds")
    games = sum(c.games for c in cells)
    lines = [
        f"# The draft table of the '{tier}' tier: each Traveler's share of the wins in self-play",
        "# with Travelers dealt at random (a shared win counts 1/k; fair = 1/N). A tier whose weight",
        f'# file says draft_table = "{tier}" keeps the dealt Traveler with the higher share '
        f"(sim/games/tokaido/tuning/draft.py).",
        f"# Made by: {command}",
        "# Refresh after a rule or bot change with the same command.",
        "",
        "[provenance]",
        f'tier = "{tier}"',
        f'command = "{command}"',
        f"seed = {seed}",
        f"games = {games}",
        f'date = "{date}"',
    ]
    for c in cells:
        lines += [
            "",
            f"# {c.games} games (seed {c.seed}); 95% half-widths: "
            + ", ".join(f"{t} {h:.3f}" for t, h in c.halfwidth.items()),
            f'["{c.key}"]',
        ]
        lines += [
            f"{t if t.replace('-', '').replace('_', '').isalnum() else repr(t)} = {v}"
            for t, v in c.shares.items()
        ]
    return "\n".join(lines) + "\n"


def write_table(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text)
    tmp.replace(path)
