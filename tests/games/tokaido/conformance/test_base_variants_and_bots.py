"""Conformance: the referee agrees with the kernels; invariants of the records; determinism.

* ``test_referee_agrees``: 37 configurations, 1,000 games each (150 for the
  slow search bot), 35,300 games in all: 2-5 players, every variant alone
  and combined, both expansions (the New Encounters promo, Crossroads),
  draft/random/fixed Travelers and every bot, played with the action log and
  replayed by the independent referee (``sim/games/tokaido/referee/game.py``); 0 mismatches.
  The referee replays ~750 games/s per core: the module takes about a minute
  on one core, ~40 s with ``pytest -n 2`` (one configuration per test), on a
  quiet machine.
* ``test_record_invariants``: ~62,000 kernel-only games checked with
  vectorised numpy (points by source sum to the score, ranks and win_k, seats,
  coins, meals, panoramas, Travelers and starting coins).
* Determinism: thread counts, chunkings and single games give identical records.
"""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest

from kernels.tokaido.core.enums import BOT_NAMES
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.rules.config import EXPANSIONS, VARIANTS, GameConfig
from sim.games.tokaido.rules.tables import Rules
from sim.run.game import Batch
from tests.helpers.conformance import (
    by_game,
    cases,
    profile_cases,
    referee_agrees,
    referee_agrees_under,
    setup,
)

TRAV_A = "hiroshige+chuubei+kinko+yoshiyasu+satsuki"
TRAV_B = "mitsukuni+sasayakko+hirotada+umegae+zen-emon"
TRAV_C = "daigoro+gotozaemon+jirocho+kita+miyataka"  # Crossroads
ALL_VARIANTS = "variants=initiation+return-trip+gastronomy+preparations,expansions=new-encounters"
GAMES = 1000
SLOW = 150  # the search bot plays ~10-20 games/s

# (spec, seed, games); every spec is GameConfig.spec()-style
CONFORMANCE: list[tuple[str, int, int]] = [
    ("players=2", 2001, GAMES),
    ("players=3", 2002, GAMES),
    ("players=4", 2003, GAMES),
    ("players=5", 2004, GAMES),
    ("players=2,travelers=random,bots=random", 2005, GAMES),
    ("players=3,bots=random", 2006, GAMES),
    ("players=4,travelers=random,bots=random", 2007, GAMES),
    ("players=5,bots=greedy+random+greedy+random+greedy", 2008, GAMES),
    ("players=3,variants=initiation", 2009, GAMES),
    ("players=5,variants=initiation,bots=random", 2010, GAMES),
    ("players=2,variants=return-trip", 2011, GAMES),
    ("players=4,variants=return-trip", 2012, GAMES),
    ("players=3,variants=gastronomy", 2013, GAMES),
    ("players=5,variants=gastronomy", 2014, GAMES),
    ("players=2,variants=preparations", 2015, GAMES),
    ("players=4,variants=preparations,travelers=random", 2016, GAMES),
    ("players=2,expansions=new-encounters", 2017, GAMES),
    ("players=5,expansions=new-encounters", 2018, GAMES),
    (f"players=5,travelers={TRAV_A}", 2019, GAMES),
    (f"players=5,expansions=new-encounters,travelers={TRAV_B}", 2020, GAMES),
    ("players=2,variants=gastronomy,travelers=satsuki+chuubei,bots=random+greedy", 2021, GAMES),
    ("players=4,variants=gastronomy+preparations", 2022, GAMES),
    ("players=3,variants=return-trip,expansions=new-encounters,travelers=random,bots=random", 2023, GAMES),
    (f"players=4,{ALL_VARIANTS}", 2024, GAMES),
    ("players=2,variants=initiation+return-trip", 2025, GAMES),
    ("players=3,variants=return-trip+preparations,travelers=umegae+hirotada+yoshiyasu", 2026, GAMES),
    # the Crossroads expansion
    ("players=2,expansions=crossroads", 2027, GAMES),
    ("players=3,expansions=crossroads,bots=random", 2028, GAMES),
    ("players=4,expansions=crossroads+new-encounters,travelers=random", 2029, GAMES),
    (f"players=5,expansions=crossroads,travelers={TRAV_C}", 2030, GAMES),
    (
        "players=3,variants=return-trip+gastronomy+preparations,expansions=crossroads+new-encounters,"
        "travelers=nampo+kita+jirocho",
        2031,
        GAMES,
    ),
    ("players=4,variants=initiation+preparations,expansions=crossroads,bots=random", 2032, GAMES),
    # the stronger bots
    ("players=3,bots=heuristic", 2033, GAMES),
    ("players=4,bots=tuned,variants=gastronomy,expansions=new-encounters", 2034, GAMES),
    ("players=5,bots=heuristic+tuned+greedy+random+tuned,expansions=crossroads", 2035, GAMES),
    ("players=2,bots=search", 2036, SLOW),
    ("players=4,bots=search+tuned+heuristic+greedy,expansions=crossroads,travelers=random", 2037, SLOW),
    ("players=5,bots=expert+tuned+expert+greedy+expert,expansions=crossroads", 2038, GAMES),
    ("players=2,bots=expert,variants=preparations", 2039, GAMES),
]


def test_conformance_covers_everything() -> None:
    configs = [GameConfig.parse(s) for s, _, _ in CONFORMANCE]
    assert sum(g for _, _, g in CONFORMANCE) >= 20_000
    assert len({s for s, _, _ in CONFORMANCE}) == len(CONFORMANCE)
    assert {c.n_players for c in configs} == {2, 3, 4, 5}
    assert {v for c in configs for v in c.variants} == set(VARIANTS)
    assert all(any(c.variants == (v,) for c in configs) for v in VARIANTS), "each variant alone"
    # Matsuri and the promos have their own conformance files (their referees came later)
    assert {x for c in configs for x in c.expansions} == set(EXPANSIONS) - {"matsuri", "promos"}
    here = Path(__file__).parent
    assert all(
        (here / f).exists() for f in ("test_matsuri.py", "test_matsuri_travelers.py", "test_promos.py")
    )
    assert {b for c in configs for b in c.bot_names()} == set(BOT_NAMES)
    modes = {c.travelers if c.travelers in ("draft", "random") else "fixed" for c in configs}
    assert modes == {"draft", "random", "fixed"}


@cases(CONFORMANCE)
def test_referee_agrees(spec: str, seed: int, games: int) -> None:
    referee_agrees(spec, seed, games)


# ======================================================================== invariants
INVARIANT_CONFIGS = [
    ("players=2", 5000),
    ("players=3,bots=random", 5000),
    ("players=4", 5000),
    ("players=5,travelers=random", 5000),
    ("players=2,variants=initiation+preparations,bots=random", 5000),
    ("players=4,variants=initiation", 4000),
    ("players=3,variants=return-trip+gastronomy,expansions=new-encounters", 5000),
    ("players=5,variants=preparations,expansions=new-encounters", 5000),
    (f"players=5,travelers={TRAV_B},expansions=new-encounters", 4000),
    (f"players=4,{ALL_VARIANTS}", 4000),
    ("players=2,variants=preparations,travelers=satsuki+hiroshige,bots=random+greedy", 3000),
    ("players=4,expansions=crossroads,travelers=random", 4000),
    ("players=3,variants=initiation+gastronomy,expansions=crossroads+new-encounters,bots=random", 4000),
    ("players=4,bots=heuristic+tuned+greedy+random,expansions=crossroads", 4000),
    ("players=3,bots=search+tuned+heuristic", 300),
]


def test_invariant_total() -> None:
    assert sum(g for _, g in INVARIANT_CONFIGS) >= 50_000


@pytest.mark.parametrize(("spec", "games"), INVARIANT_CONFIGS, ids=[s for s, _ in INVARIANT_CONFIGS])
def test_record_invariants(spec: str, games: int) -> None:
    config, rules = setup(spec)
    n = config.n_players
    rec = play_games(config, rules, 77, 0, games).records
    f = {name: by_game(rec, n, name) for name in rec.dtype.names}
    assert (f["game"] == np.arange(games)[:, None]).all()
    assert (f["player"] == np.arange(n)[None, :]).all()
    assert (f["bot"] == np.array([BOT_NAMES.index(b) for b in config.bot_names()])[None, :]).all()
    # points by source sum to the score
    assert (sum(f[c] for c in rec.dtype.names if c.startswith("pts_")) == f["score"]).all()
    # competition ranks by (score, achievements); exactly the winners have rank 1; win_k counts them
    key = f["score"] * 64 + f["achievements"]
    better = (key[:, None, :] > key[:, :, None]).sum(axis=2)
    assert (f["rank"] == better + 1).all()
    winners = (f["rank"] == 1).sum(axis=1)
    assert (winners >= 1).all() and (f["win_k"] == winners[:, None]).all()
    # seats: distinct departure orders (with 2 players the Neutral takes one of 0..2)
    seats = np.sort(f["seat"], axis=1)
    if n == 2:
        assert ((seats >= 0) & (seats <= 2)).all() and (seats[:, 0] < seats[:, 1]).all()
    else:
        assert (seats == np.arange(n)[None, :]).all()
    assert (f["coins_left"] >= 0).all() and (f["coins_start"] >= 0).all()
    extra = (
        f["encounters"] if "new-encounters" in config.expansions else 0
    )  # Itamae: at most one per encounter
    assert (f["meals"] <= 4 + extra).all() and (f["meals"] >= 0).all()
    assert (f["panoramas"] <= 12).all() and (f["panoramas"] >= 0).all()
    assert (f["donated"] >= 0).all() and (f["stops"] >= 0).all()
    # Travelers and starting coins
    order = np.argsort(np.argsort(f["seat"], axis=1), axis=1)  # departure order among the players
    prep = np.array(rules.preparations[n])[order] if "preparations" in config.variants else 0
    if "initiation" in config.variants:
        assert (f["traveler"] == -1).all() and (f["alt_traveler"] == -1).all()
        assert (f["coins_start"] == rules.params["INITIATION_COINS"] + prep).all()
        return
    t = f["traveler"]
    assert ((t >= 0) & (t < len(rules.travelers))).all()
    assert all((np.sort(t, axis=1)[:, 1:] != np.sort(t, axis=1)[:, :-1]).all(axis=1))
    coins = np.array([tr.coins for tr in rules.travelers])
    assert (f["coins_start"] == coins[t] + prep).all()
    if config.travelers == "draft":
        alt = f["alt_traveler"]
        assert ((alt >= 0) & (alt != t)).all()
        dealt = np.sort(np.concatenate([t, alt], axis=1), axis=1)
        assert (dealt[:, 1:] != dealt[:, :-1]).all()
    else:
        assert (f["alt_traveler"] == -1).all()
    if config.travelers not in ("draft", "random"):
        fixed = [rules.traveler_index(x) for x in config.travelers.split(",")]
        assert (t == np.array(fixed)[None, :]).all()


# ======================================================================== determinism
def first_difference(a: np.ndarray, b: np.ndarray) -> str | None:
    if a.shape != b.shape:
        return f"shapes {a.shape} != {b.shape}"
    for name in a.dtype.names:
        bad = np.flatnonzero(a[name] != b[name])
        if bad.size:
            i = int(bad[0])
            return f"row {i} (game {int(a['game'][i])}) field {name}: {a[name][i]} != {b[name][i]}"
    return None


def play_with_threads(config: GameConfig, rules: Rules, seed: int, count: int, threads: int) -> Batch:
    before = numba.get_num_threads()
    try:
        return play_games(config, rules, seed, 0, count, log=True, threads=threads)
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize(
    "spec", ["players=4", f"players=3,{ALL_VARIANTS}", "players=2,bots=random,travelers=random"]
)
def test_threads_do_not_change_games(spec: str) -> None:
    config, rules = setup(spec)
    one = play_with_threads(config, rules, 5, 3000, 1)
    two = play_with_threads(config, rules, 5, 3000, min(2, numba.config.NUMBA_NUM_THREADS))
    assert first_difference(one.records, two.records) is None
    assert one.n_events is not None and two.n_events is not None
    assert np.array_equal(one.n_events, two.n_events) and np.array_equal(one.events, two.events)


@pytest.mark.parametrize(
    "spec", ["players=5", "players=2,variants=gastronomy+preparations,expansions=new-encounters"]
)
def test_chunking_does_not_change_games(spec: str) -> None:
    config, rules = setup(spec)
    whole = play_games(config, rules, 9, 0, 2000).records
    cuts = [0, 1, 7, 500, 1333, 1999, 2000]
    parts = np.concatenate(
        [play_games(config, rules, 9, a, b - a).records for a, b in zip(cuts, cuts[1:], strict=False)]
    )
    assert first_difference(whole, parts) is None
    later = play_games(config, rules, 9, 1500, 500).records
    assert first_difference(whole[1500 * config.n_players :], later) is None


@pytest.mark.parametrize(
    "spec", ["players=3", f"players=5,travelers={TRAV_A}", "players=4,variants=initiation"]
)
def test_one_game_reproduces_the_batch(spec: str) -> None:
    config, rules = setup(spec)
    n = config.n_players
    big = play_games(config, rules, 123, 0, 1000, log=True)
    for i in (0, 1, 499, 998, 999):
        one = play_games(config, rules, 123, i, 1, log=True)
        assert first_difference(big.records[i * n : (i + 1) * n], one.records) is None, f"game {i}"
        assert np.array_equal(big.game_events(i), one.game_events(0)), f"game {i}: the action logs differ"


def test_other_seeds_give_other_games() -> None:
    config, rules = setup("players=4")
    a = play_games(config, rules, 1, 0, 200).records
    b = play_games(config, rules, 2, 0, 200).records
    assert first_difference(a, b) is not None


@profile_cases(CONFORMANCE, games=6, seed_offset=500)
def test_referee_agrees_under_each_online_profile(profile: str, spec: str, seed: int, games: int) -> None:
    """The same configurations under ``--rules online`` and ``online-2020`` (docs/rules-choices.md, "Rules
    profiles")."""
    referee_agrees_under(profile, spec, seed, games)


@profile_cases(CONFORMANCE, games=200, seed_offset=700, slow=True)
def test_referee_agrees_under_each_online_profile_slow(
    profile: str, spec: str, seed: int, games: int
) -> None:
    referee_agrees_under(profile, spec, seed, games)
