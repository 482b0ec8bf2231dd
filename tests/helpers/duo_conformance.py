"""Duo kernel-referee conformance, shared by the 2-player and the solo tests: ``assert_agrees``."""

from __future__ import annotations

import pytest

from sim.checks.verify import verify
from sim.games.duo.game import DuoGame
from sim.games.duo.rules import DuoRules


def assert_agrees(rules: DuoRules, bots: tuple[str, str], seed: int, games: int) -> None:
    """Every one of ``games`` games of ``seed`` is accepted by the independent referee, else the first one."""
    rep = verify(DuoGame(rules, bots), games, seed, chunk_size=500, keep=1)
    if not rep.ok:
        first = rep.first[0]
        pytest.fail(
            f"{rep.mismatches} of {games} Duo games disagree ({rules.provenance()}, bots {bots}, seed "
            f"{seed}); first: game {first.game}: {first.errors[:4]}\nreplay: {first.replay}",
            pytrace=False,
        )
