"""What the runner needs of a game: ``Game``, and Tokaido's own (``TokaidoGame``).

``sim.run.runner.run``, the paced engine calls (``sim.run.pace``), the part
files (``sim.dataset.parts.write_part``) and the cluster tasks
(``sim.run.cluster.play_chunk``) know a game only through this interface, so a
second game (Tokaido Duo: ``sim.duo.game.DuoGame``) shares every one of them.
``sim.run`` never imports a game other than Tokaido: the caller (the CLI)
builds the game and passes it in, so the imports keep pointing one way.

A game is immutable and picklable (a cluster ships it to its workers). Game
``i`` of a run depends only on ``(seed, i)``: ``play`` returns the same records
for any ``start``/``count`` split and any thread count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import pyarrow as pa

from sim.dataset.manifest import Manifest
from sim.rules.config import GameConfig
from sim.rules.tables import Rules
from sim.run import dataset, engine, outdir


class Batch(Protocol):
    """What ``Game.play`` returns: the result records (``n_players`` rows a game, game-major)."""

    records: np.ndarray


@runtime_checkable
class Game(Protocol):
    """A game the shared runner can play: its identity for manifests, its engine call, its table."""

    @property
    def name(self) -> str:
        """"tokaido", "duo": the manifest's "game"."""

    @property
    def kind(self) -> str:
        """The manifest's "kind" ("run", "duo-run"): a run directory holds runs of one kind."""

    @property
    def n_players(self) -> int:
        """Rows per game in the records and the part files."""

    def check(self) -> None:
        """Raise ``UserError`` for what the options alone do not reveal (before anything is written)."""

    def fingerprint(self) -> str:
        """A hash of the rules data that decide the games (compared on resume and on cluster workers)."""

    def manifest_head(self) -> dict[str, Any]:
        """Fields a new run's manifest starts with (after "kind"): the configuration, provenance."""

    def manifest_tail(self) -> dict[str, Any]:
        """Fields rewritten at every invocation (rules version, fingerprint)."""

    def check_same_run(self, manifest: Manifest, seed: int, out: Path) -> None:
        """Refuse (``UserError``) to resume a run started with another configuration, seed or rules."""

    def play(self, seed: int, start: int, count: int, threads: int | None = None,
             stop: np.ndarray | None = None, nlog: np.ndarray | None = None) -> Batch:
        """Games ``[start, start+count)``; ``nlog[i]`` set as game i ends; ``stop[0] = 1`` may end the call early."""

    def to_table(self, records: np.ndarray) -> pa.Table:
        """The records as one Arrow table with the game's schema (one row per player per game)."""

    def for_worker(self) -> Game:
        """The game as shipped to a cluster worker (what the worker can rebuild itself is left out)."""


@dataclass(frozen=True, eq=False)
class TokaidoGame:
    """Tokaido through ``sim.run.engine``: a configuration, its rules, optional bot weights and action log."""

    config: GameConfig
    rules_: Rules | None = None
    weights: np.ndarray | None = None
    log: bool = False
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    name = "tokaido"
    kind = "run"

    @property
    def n_players(self) -> int:
        return self.config.n_players

    @property
    def rules(self) -> Rules:
        if self.rules_ is not None:
            return self.rules_
        if "rules" not in self._cache:
            self._cache["rules"] = self.config.rules()
        return self._cache["rules"]

    def ru(self) -> np.ndarray:
        """The kernels' rules record, built once."""
        if "ru" not in self._cache:
            self._cache["ru"] = engine.rules_record(self.config, self.rules, self.log, self.weights)
        return self._cache["ru"]

    def check(self) -> None:
        self.config.cfg_array(self.rules)  # raises ConfigError for what only the kernel table reveals
        self.ru()  # and for what only the kernels' records reveal

    def fingerprint(self) -> str:
        return self.rules.fingerprint()

    def manifest_head(self) -> dict[str, Any]:
        return {"config": self.config.to_dict(), "spec": self.config.spec()}

    def manifest_tail(self) -> dict[str, Any]:
        return {"rules_version": self.rules.version, "rules_fingerprint": self.fingerprint()}

    def check_same_run(self, manifest: Manifest, seed: int, out: Path) -> None:
        outdir.check_same_run(manifest, self.config, self.rules, seed, out)

    def play(self, seed: int, start: int, count: int, threads: int | None = None,
             stop: np.ndarray | None = None, nlog: np.ndarray | None = None) -> engine.GameBatch:
        return engine.play_games(self.config, self.rules, seed, start, count, self.log, threads, self.weights,
                                 ru=self.ru(), stop=stop, nlog=nlog)

    def to_table(self, records: np.ndarray) -> pa.Table:
        return dataset.to_table(records, self.rules, self.n_players)

    def for_worker(self) -> TokaidoGame:
        # the worker loads its own rules from its own data files: the fingerprint check then means something
        return TokaidoGame(self.config, None, self.weights, self.log)


def as_game(game: Game | GameConfig) -> Game:
    """A ``Game`` for what callers pass: a ``Game`` as it is, a Tokaido ``GameConfig`` wrapped."""
    if isinstance(game, GameConfig):
        return TokaidoGame(game)
    if not isinstance(game, Game):
        raise TypeError(f"not a game: {game!r}")
    return game

