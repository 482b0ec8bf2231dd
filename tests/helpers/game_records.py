"""Game records of simulated games (docs/game-record.md), and their round trip through the audit.

round_trip((4, "draft", "greedy", "", "crossroads", "rulebook"), seed=11, games=30)
"""

from __future__ import annotations

import json
from typing import Any

from sim.games.tokaido import engine
from sim.games.tokaido.cli.options import kernel_rows, make_config
from sim.games.tokaido.referee.audit import audit_game
from sim.games.tokaido.referee.record import game_record
from sim.games.tokaido.rules.config import GameConfig


def records(config: GameConfig, seed: int, games: int) -> list[dict[str, Any]]:
    """The game records of games 0..games-1 of ``config`` at ``seed``."""
    rules = config.rules()
    batch = engine.play_games(config, rules, seed, 0, games, log=True)
    assert batch.events is not None and batch.n_events is not None
    rows, n = kernel_rows(batch.records), config.n_players
    return [
        game_record(
            config, rules, batch.events[i, : int(batch.n_events[i])].tolist(), rows[i * n : (i + 1) * n]
        )
        for i in range(games)
    ]


def round_trip(spec: tuple[str | int, ...], seed: int, games: int) -> None:
    """Every game of ``spec`` (players, travelers, bots, variants, expansions, profile, then any ``--set``
    items), as a file holds its record, audits legal with equal scores."""
    players, travelers, bots, variants, expansions, profile, *sets = spec
    config = make_config(
        int(players),
        str(travelers),
        str(bots),
        str(variants),
        str(expansions),
        [str(x) for x in sets] or None,
        str(profile),
    )
    for i, rec in enumerate(records(config, seed, games)):
        rec = json.loads(json.dumps(rec))  # exactly what a file holds
        res = audit_game(rec, i + 1)
        assert res.legal and res.scores_equal, (config.spec(), i, res.problems, res.context)
