"""Win rates of candidate changes, played as ordinary runs on common random numbers.

Every candidate at every player count is a run directory ``ROOT/CANDIDATE/players=N`` played
by ``sim.run.runner.run`` with the same seed, so game ``i`` deals the same Travelers and piles
to every candidate (common random numbers), a run interrupted midway resumes from its finished
parts, and ``--cluster`` plays the chunks on Dask workers. Evaluating a candidate to more games
extends its run; a tally reads the first ``games`` games only, so a replayed search sees
exactly what it saw the first time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from analysis.load import win_sum
from analysis.stats import wilson_interval
from sim.dataset.manifest import read_manifest
from sim.dataset.parts import listed_files, resume_parts, span
from sim.games.tokaido.balance.knobs import Change, Knob, overrides
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import GameConfig
from sim.run import runner

if TYPE_CHECKING:
    from sim.run.cluster import Cluster


@dataclass(frozen=True)
class Tally:
    """One candidate at one player count over its first ``games`` games (index = Traveler id)."""

    n_players: int
    games: int
    wins: np.ndarray  # wins per Traveler, a shared win counting 1/k
    seats: np.ndarray  # games each Traveler was played in
    focus: np.ndarray | None = None  # the Travelers the target is for (--only); None: every one

    @property
    def judged(self) -> np.ndarray:
        """The Travelers the target is judged on: played here, and named by --only if it was given."""
        seen = self.seats > 0
        return seen if self.focus is None else seen & self.focus

    @property
    def rate(self) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.wins / self.seats

    @property
    def fair(self) -> float:
        return 1.0 / self.n_players

    def interval(self, level: float) -> tuple[np.ndarray, np.ndarray]:
        return wilson_interval(self.wins, self.seats, level)

    def max_dev(self) -> float:
        """The largest distance of a judged Traveler's win rate from the fair share (a fraction)."""
        dev = np.where(self.judged, np.abs(self.rate - self.fair), np.nan)
        return float(np.nanmax(dev)) if np.isfinite(dev).any() else float("nan")


def candidate_id(knobs: Sequence[Knob], change: Change) -> str:
    """A stable directory name for a change: ``base`` or a short hash of its overrides."""
    sets = overrides(knobs, change)
    if not sets:
        return "base"
    return "c-" + hashlib.sha256(json.dumps(sets).encode()).hexdigest()[:10]


class Evaluator:
    """Plays candidates into ``root`` with one seed and counts the games it asked for."""

    def __init__(
        self,
        configs: dict[int, GameConfig],
        knobs: Sequence[Knob],
        root: Path,
        seed: int,
        chunk_size: int,
        threads: int | None,
        cluster: Cluster | None,
        on_progress: Callable[[int], None] | None = None,
        focus: np.ndarray | None = None,
    ) -> None:
        self.configs, self.knobs, self.root, self.seed = configs, list(knobs), root, seed
        self.focus = focus
        self.chunk_size, self.threads, self.cluster = chunk_size, threads, cluster
        self.on_progress = on_progress
        self.level: dict[tuple[Change, int], int] = {}  # games asked of each candidate and player count
        self._cache: dict[tuple[Change, int, int], Tally] = {}

    @property
    def spent(self) -> int:
        return sum(self.level.values())

    def extra(self, changes: Sequence[Change], games: int) -> int:
        """Games it would take to bring every change, at every player count, to ``games``."""
        return sum(max(0, games - self.level.get((c, n), 0)) for c in changes for n in self.configs)

    def config(self, change: Change, n: int) -> GameConfig:
        base = self.configs[n]
        return GameConfig(
            n_players=n,
            variants=base.variants,
            expansions=base.expansions,
            travelers=base.travelers,
            bots=base.bots,
            overrides=(*base.overrides, *overrides(self.knobs, change)),
        )

    def run_dir(self, change: Change, n: int) -> Path:
        return self.root / candidate_id(self.knobs, change) / f"players={n}"

    def _play(self, change: Change, n: int, games: int) -> None:
        out = self.run_dir(change, n)
        parts = [span(e.file) for e in resume_parts(out, n, read_manifest(out))] if out.is_dir() else []
        if sum(min(e, games) - s for s, e in parts if s < games) >= games:
            return
        # a run never shrinks: a replayed search may ask for fewer games than an earlier session played
        held = parts[-1][1] if parts else 0
        runner.run(
            TokaidoGame(self.config(change, n)),
            max(games, held),
            self.seed,
            out,
            self.chunk_size,
            self.threads,
            resume=True,
            progress=False,
            on_progress=self.on_progress,
            cluster=self.cluster,
        )

    def evaluate(self, changes: Sequence[Change], games: int) -> dict[Change, dict[int, Tally]]:
        """Bring every change at every player count to ``games`` games; their tallies."""
        todo = [(c, n) for c in changes for n in self.configs if self.level.get((c, n), 0) < games]
        for c, n in todo:
            self.level[(c, n)] = games
        if self.cluster is not None and len(todo) > 1:
            self.cluster.each(lambda c, n: self._play(c, n, games), todo)
        else:
            for c, n in todo:
                self._play(c, n, games)
        return {c: {n: self.tally(c, n, games) for n in self.configs} for c in changes}

    def tally(self, change: Change, n: int, games: int) -> Tally:
        key = (change, n, games)
        if key not in self._cache:
            rules = self.configs[n].rules()
            names = [t.name.lower() for t in rules.travelers]
            df = (
                pl.scan_parquet(listed_files(self.run_dir(change, n)))
                .filter(pl.col("game") < games)
                .group_by(pl.col("traveler").cast(pl.String))
                .agg(win_sum().alias("wins"), pl.len().alias("seats"))
                .collect()
            )
            wins, seats = np.zeros(len(names)), np.zeros(len(names))
            for name, w, s in df.iter_rows():
                if name in names:
                    wins[names.index(name)], seats[names.index(name)] = w, s
            self._cache[key] = Tally(n, games, wins, seats, self.focus)
        return self._cache[key]
