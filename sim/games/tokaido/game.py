"""Tokaido as a ``sim.run.game.Game``: a configuration, its rules, optional bot weights and action log.

The shared runner, resume, progress and cluster play it through that interface; ``PLUGIN``
(``sim.games.tokaido``) registers the game with the rest of the house.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from sim.dataset.manifest import MANIFEST, Manifest
from sim.errors import UserError
from sim.games.tokaido import dataset, engine
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules
from sim.run.game import Batch

if TYPE_CHECKING:
    from sim.games.tokaido.referee.game import RefereeResult


@dataclass(frozen=True, eq=False)
class TokaidoGame:
    """Tokaido through ``sim.games.tokaido.engine``: a configuration, its rules, optional bot weights and
    action log."""

    config: GameConfig
    rules_: Rules | None = None
    weights: np.ndarray | None = None
    log: bool = False
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    name = "tokaido"
    kind = "run"
    statistics = dataset.STATISTICS

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
        hint = "resume with the same options or choose another --out"
        new, old = json.loads(json.dumps(self.config.to_dict())), manifest.config
        if new != old:
            if not isinstance(old, dict):
                raise UserError(f"{out}/{MANIFEST} has no readable 'config'; choose another --out")
            key = next(k for k in [*new, *old] if new.get(k) != old.get(k))
            raise UserError(
                f"{out} holds a run whose {key} is {_show(old.get(key))}, not {_show(new.get(key))} "
                f"as asked; {hint}"
            )
        if manifest.seed != seed:
            raise UserError(f"{out} holds a run with --seed {manifest.seed}, not {seed}; {hint}")
        if manifest.rules_fingerprint != self.fingerprint():
            raise UserError(
                f"the rules changed since {out} was started (fingerprint {manifest.rules_fingerprint}, "
                f"now {self.fingerprint()}); {hint}"
            )

    def play(
        self,
        seed: int,
        start: int,
        count: int,
        threads: int | None = None,
        stop: np.ndarray | None = None,
        nlog: np.ndarray | None = None,
    ) -> Batch:
        return engine.play_games(
            self.config,
            self.rules,
            seed,
            start,
            count,
            self.log,
            threads,
            self.weights,
            ru=self.ru(),
            stop=stop,
            nlog=nlog,
        )

    def to_table(self, records: np.ndarray) -> pa.Table:
        return dataset.to_table(records, self.rules, self.n_players)

    def for_worker(self) -> TokaidoGame:
        # the worker loads its own rules from its own data files: the fingerprint check then means something
        return TokaidoGame(self.config, None, self.weights, self.log)

    def with_log(self) -> TokaidoGame:
        return TokaidoGame(self.config, self.rules_, self.weights, True)

    def referee(self, events: np.ndarray, records: np.ndarray) -> RefereeResult:
        from sim.games.tokaido.referee.game import referee_game, rows_from_records

        return referee_game(self.config, self.rules, events, rows_from_records(records))

    def replay_command(self, seed: int, game: int) -> str:
        return f"tokaido-sim replay --seed {seed} --game {game} {self.config.cli_args()}"


def _show(value: Any) -> str:
    return "(none)" if value is None else json.dumps(value)
