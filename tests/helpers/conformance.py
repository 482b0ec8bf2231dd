"""Shared by the conformance tests: the configurations' scaffolding (``setup``, ``cases``, ``logged_events``)
and the referee check (``assert_referee_agrees``), so that each test file lists only its configurations.

    SLOW = [(f"players=2,{MX}", 7001, 1000), ...]           # (spec, seed, games)
    CONFORMANCE = [(f"players=2,{MT}", 4101), ...]          # (spec, seed): the test gives the games

    @cases(CONFORMANCE, games=18)
    def test_referee_agrees_x(spec: str, seed: int, games: int) -> None:
        referee_agrees(spec, seed, games)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any

import numpy as np
import pytest

from sim.games.tokaido.engine import play_games
from sim.games.tokaido.referee.game import referee_game, rows_from_records
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.profiles import profile_sets
from sim.games.tokaido.rules.tables import Rules
from sim.overrides import expand_sets

CHUNK = 250  # games per engine call (bounds the log buffer's memory)
PROFILES = ("online", "online-2020")  # the rulebook's own runs are each file's plain conformance test
ALL_VARIANTS = "variants=initiation+return-trip+gastronomy+preparations"

Case = tuple[str, int] | tuple[str, int, int]  # (spec, seed) or (spec, seed, games); GameConfig.spec()-style


@cache
def setup(spec: str) -> tuple[GameConfig, Rules]:
    """The configuration of ``spec`` and its rules, built once per test session."""
    config = GameConfig.parse(spec)
    return config, config.rules()


def cases(
    specs: Sequence[Case], games: int | None = None, seed_offset: int = 0, slow: bool = False
) -> Callable[[Any], Any]:
    """Parametrize a test over ``(spec, seed, games)``, one id per spec: ``games`` (if given) replaces
    each case's own count, ``seed_offset`` shifts the seeds, ``slow`` marks it ``@pytest.mark.slow``."""
    params = [(c[0], c[1] + seed_offset, games if games is not None else c[2]) for c in specs]  # type: ignore[misc]
    marks = [pytest.mark.slow] if slow else []
    return pytest.mark.parametrize(
        ("spec", "seed", "games"), [pytest.param(*p, id=p[0], marks=marks) for p in params]
    )


def referee_agrees(spec: str, seed: int, games: int) -> None:
    """``assert_referee_agrees`` on the configuration of ``spec``."""
    config, rules = setup(spec)
    assert_referee_agrees(config, rules, seed, games)


def profile_cases(
    specs: Sequence[Case], games: int, seed_offset: int, slow: bool = False
) -> Callable[[Any], Any]:
    """Parametrize a test over ``(profile, spec, seed, games)``: every configuration under each online
    profile."""
    marks = [pytest.mark.slow] if slow else []
    return pytest.mark.parametrize(
        ("profile", "spec", "seed", "games"),
        [
            pytest.param(profile, c[0], c[1] + seed_offset, games, id=f"{profile}-{c[0]}", marks=marks)
            for profile in PROFILES
            for c in specs
        ],
    )


@cache
def profiled(profile: str, spec: str) -> tuple[GameConfig, Rules]:
    """``spec`` under ``profile``: the profile's patch before the spec's own overrides, as the CLI builds
    it."""
    config = GameConfig.parse(spec)
    items = [tuple(s.split("=", 1)) for s in expand_sets(profile_sets(profile))]
    config = dataclasses.replace(config, overrides=(*items, *config.overrides), profile=profile)
    return config, config.rules()


def referee_agrees_under(profile: str, spec: str, seed: int, games: int) -> None:
    """``assert_referee_agrees`` on the configuration of ``spec`` under the rules profile ``profile``."""
    config, rules = profiled(profile, spec)
    assert_referee_agrees(config, rules, seed, games)


def logged_events(specs: Sequence[Case], games: int) -> Iterator[list[int]]:
    """Every action-log row of the first ``games`` games of each configuration (at its own seed)."""
    for case in specs:
        config, rules = setup(case[0])
        batch = play_games(config, rules, case[1], 0, games, log=True)
        for i in range(games):
            yield from batch.game_events(i).tolist()


def by_game(records: np.ndarray, n: int, name: str) -> np.ndarray:
    """Column ``name`` of the records as one row per game (``n`` players)."""
    return records[name].astype(np.int64).reshape(-1, n)


def assert_referee_agrees(config: GameConfig, rules: Rules, seed: int, games: int) -> None:
    """Fail with the first disagreeing game (config, seed, referee errors, a replay command)."""
    n = config.n_players
    mismatches, first = 0, None
    for start in range(0, games, CHUNK):
        count = min(CHUNK, games - start)
        batch = play_games(config, rules, seed, start, count, log=True)  # raises if a log overflows
        for i in range(count):
            res = referee_game(
                config, rules, batch.game_events(i), rows_from_records(batch.records[i * n : (i + 1) * n])
            )
            if not res.ok:
                mismatches += 1
                if first is None:
                    first = (start + i, res.errors[:5])
    if first is not None:
        game, errors = first
        pytest.fail(
            f"{mismatches} of {games} games disagree; first: config {config.spec()}, seed {seed}, "
            f"game {game}\n"
            + "\n".join(f"referee: {e}" for e in errors)
            + f"\nreplay: tokaido-sim replay --seed {seed} --game {game} {config.cli_args()}",
            pytrace=False,
        )
