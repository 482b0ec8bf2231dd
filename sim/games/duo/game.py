"""Tokaido Duo as a ``sim.run.game.Game``: the shared runner, resume, progress and cluster play it.

``DuoGame(rules, bots)`` plays with ``sim.games.duo.engine.play_duo_games`` and
writes ``sim.games.duo.dataset.to_table``'s rows. Its manifest carries the board's
provenance and verified flag (``duo_board``) and the options a resume must
match (``config``: bots, board file, fingerprint of the board and numbers), in
the same shape as the runs written before the runner was shared, so those
resume too. A cluster worker gets the loaded rules with the task (a custom
board file need not exist on the workers).

The Duo kernel has no stop flag: a stopped run ends its current paced call
(about a quarter of a second) and keeps every game of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from sim.dataset.manifest import Manifest
from sim.errors import UserError
from sim.games.duo import dataset
from sim.games.duo.engine import play_duo_games
from sim.games.duo.rules import DuoRules
from sim.run.game import Batch

if TYPE_CHECKING:
    from sim.games.duo.referee.game import Verdict

KIND = "duo-run"


@dataclass(frozen=True, eq=False)
class DuoGame:
    rules: DuoRules
    bots: tuple[str, str] = ("greedy", "greedy")
    log: bool = False
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    name = "duo"
    kind = KIND
    n_players = 2
    statistics = dataset.STATISTICS

    def ru(self) -> np.ndarray:
        """The kernels' rules record, built once (raises ``BoardError`` on an unknown bot)."""
        if "ru" not in self._cache:
            self._cache["ru"] = self.rules.record(self.bots, self.log)
        return self._cache["ru"]

    def check(self) -> None:
        self.ru()

    def fingerprint(self) -> str:
        return self.rules.fingerprint()

    def config(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "board": self.rules.board.path, "fingerprint": self.fingerprint()}

    def manifest_head(self) -> dict[str, Any]:
        return {"config": self.config(), "duo_board": self.rules.manifest()}

    def manifest_tail(self) -> dict[str, Any]:
        return {"rules_fingerprint": self.fingerprint()}

    def check_same_run(self, manifest: Manifest, seed: int, out: Path) -> None:
        if json.loads(json.dumps(self.config())) != manifest.config or manifest.seed != seed:
            raise UserError(
                f"{out} holds a Duo run with other bots, board, rules or seed; resume with the "
                "same options or choose another --out"
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
        return play_duo_games(
            self.rules, seed, start, count, self.bots, self.log, threads, ru=self.ru(), nlog=nlog
        )

    def to_table(self, records: np.ndarray) -> pa.Table:
        return dataset.to_table(records, self.rules)

    def for_worker(self) -> DuoGame:
        return DuoGame(self.rules, self.bots, self.log)

    def with_log(self) -> DuoGame:
        return DuoGame(self.rules, self.bots, True)

    def referee(self, events: np.ndarray, records: np.ndarray) -> Verdict:
        from sim.games.duo.referee.game import referee_game, rows_from_records

        return referee_game(self.rules, events, rows_from_records(records))

    def replay_command(self, seed: int, game: int) -> str:
        from sim.games.duo.rules import default_board_path

        shipped = Path(self.rules.board.path).resolve() == default_board_path().resolve()
        board = "" if shipped else f" --board {self.rules.board.path}"
        who = f"--solo --bots {self.bots[0]}" if "automa" in self.bots else f"--bots {','.join(self.bots)}"
        return f"tokaido-sim duo replay --seed {seed} --game {game} {who}{board}"
