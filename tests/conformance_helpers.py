"""Shared by the conformance tests: play games with the action log and have the referee check each one."""

from __future__ import annotations

import pytest

from sim.cli.options import cli_options
from sim.referee.game import referee_game, rows_from_records
from sim.rules.config import GameConfig
from sim.rules.tables import Rules
from sim.run.engine import play_games

CHUNK = 250  # games per engine call (bounds the log buffer's memory)


def assert_referee_agrees(config: GameConfig, rules: Rules, seed: int, games: int) -> None:
    """Fail with the first disagreeing game (config, seed, referee errors, a replay command)."""
    n = config.n_players
    mismatches, first = 0, None
    for start in range(0, games, CHUNK):
        count = min(CHUNK, games - start)
        batch = play_games(config, rules, seed, start, count, log=True)  # raises if a log overflows
        for i in range(count):
            res = referee_game(config, rules, batch.game_events(i), rows_from_records(batch.records[i * n:(i + 1) * n]))
            if not res.ok:
                mismatches += 1
                if first is None:
                    first = (start + i, res.errors[:5])
    if first is not None:
        game, errors = first
        pytest.fail(
            f"{mismatches} of {games} games disagree; first: config {config.spec()}, seed {seed}, "
            f"game {game}\n" + "\n".join(f"referee: {e}" for e in errors)
            + f"\nreplay: tokaido-sim replay --seed {seed} --game {game} {cli_options(config)}",
            pytrace=False,
        )
