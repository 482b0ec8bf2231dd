"""Crossroads conformance: the referee agrees with the kernels; invariants of Crossroads records.

* ``test_referee_agrees_crossroads``: 21 Crossroads configurations, 1,000 games each (21,000
  games): 2-5 players, greedy and random bots (alone and mixed), draft / random / fixed
  Travelers (the six Crossroads Travelers among them), every variant alone and all combined,
  with and without New Encounters and the start Amulet. Every game is played with the action
  log and replayed by the independent referee (``sim/games/tokaido/referee/game.py``); 0 mismatches. The
  referee
  replays a Crossroads game in ~3-5 ms (2 players ~2.7 ms, 5 players ~5 ms): about 80 s on one
  core, ~45 s with ``pytest -n 2``.
* ``test_conformance_games_exercise_every_crossroads_rule``: those games take every option at
  every station, use every Amulet, roll every face for every purpose, gain every card.
* ``test_record_invariants_crossroads``: ~52,000 kernel-only Crossroads games checked with
  vectorised numpy: points by source (every ``pts_*`` column) sum to the score; each kind of
  Crossroads card taken in a game is at most the cards in play (C23); a Cherry Tree is 2 points,
  a Bathhouse 4; no Crossroads points without Crossroads cards; one Crossroads card per station
  stop (plus the start Amulet); ranks; coins.

    .venv/bin/pytest -n 2 tests/games/tokaido/conformance/test_crossroads.py
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.tokaido.core.enums import Ev, Space
from sim.games.tokaido.engine import play_games
from sim.games.tokaido.rules.config import VARIANTS, GameConfig
from tests.helpers.conformance import (
    ALL_VARIANTS,
    by_game,
    cases,
    logged_events,
    profile_cases,
    referee_agrees,
    referee_agrees_under,
    setup,
)

XR = "expansions=crossroads"
XR_NE = "expansions=crossroads+new-encounters"
TRAV_X5 = "daigoro+gotozaemon+jirocho+kita+miyataka"
GAMES = 1000

# (spec, seed, games); every spec is GameConfig.spec()-style
CONFORMANCE: list[tuple[str, int, int]] = [
    (f"players=2,{XR}", 3001, GAMES),
    (f"players=3,{XR}", 3002, GAMES),
    (f"players=4,{XR}", 3003, GAMES),
    (f"players=5,{XR}", 3004, GAMES),
    (f"players=2,{XR},travelers=random,bots=random", 3005, GAMES),
    (f"players=3,{XR},bots=random", 3006, GAMES),
    (f"players=4,{XR},travelers=random,bots=random", 3007, GAMES),
    (f"players=5,{XR},travelers=random,bots=greedy+random+greedy+random+greedy", 3008, GAMES),
    (f"players=3,variants=initiation,{XR}", 3009, GAMES),
    (f"players=4,variants=return-trip,{XR},bots=random", 3010, GAMES),
    (f"players=2,variants=gastronomy,{XR}", 3011, GAMES),
    (f"players=5,variants=preparations,{XR},travelers=random,bots=random", 3012, GAMES),
    (f"players=4,{XR_NE}", 3013, GAMES),
    (f"players=3,{XR_NE},travelers=random,bots=random", 3014, GAMES),
    (f"players=2,{ALL_VARIANTS},{XR_NE},bots=random", 3015, GAMES),
    (f"players=4,{ALL_VARIANTS},{XR},bots=greedy+random+random+greedy", 3016, GAMES),
    (f"players=5,{XR},travelers={TRAV_X5},bots=random", 3017, GAMES),
    (f"players=4,variants=gastronomy+preparations,{XR},travelers=nampo+kita+miyataka+mitsukuni", 3018, GAMES),
    (
        f"players=3,variants=return-trip+preparations,{XR_NE},travelers=umegae+jirocho+gotozaemon,bots=random",
        3019,
        GAMES,
    ),
    (f"players=4,{XR},travelers=random,bots=random,set:crossroads.start_amulet=false", 3020, GAMES),
    (
        f"players=5,variants=return-trip+gastronomy,{XR_NE},bots=random+greedy+random+greedy+random",
        3021,
        GAMES,
    ),
]


def test_conformance_covers_crossroads() -> None:
    """At least 20,000 Crossroads games over 2-5 players, both bots (alone and mixed), draft /
    random / fixed Travelers (all six Crossroads Travelers), every variant alone and combined, New
    Encounters, and the start Amulet on and off."""
    configs = [GameConfig.parse(s) for s, _, _ in CONFORMANCE]
    assert sum(g for _, _, g in CONFORMANCE) >= 20_000
    assert len({s for s, _, _ in CONFORMANCE}) == len(CONFORMANCE) == len({s for _, s, _ in CONFORMANCE})
    assert all("crossroads" in c.expansions for c in configs)
    assert any("new-encounters" in c.expansions for c in configs)
    assert {c.n_players for c in configs} == {2, 3, 4, 5}
    assert {b for c in configs for b in c.bot_names()} == {"greedy", "random"}
    assert any(len(set(c.bot_names())) == 2 for c in configs), "mixed bots"
    assert all(any(c.variants == (v,) for c in configs) for v in VARIANTS), "each variant alone"
    assert any(set(c.variants) == set(VARIANTS) for c in configs), "all variants combined"
    modes = {c.travelers if c.travelers in ("draft", "random") else "fixed" for c in configs}
    assert modes == {"draft", "random", "fixed"}
    fixed = {n for c in configs if c.travelers not in ("draft", "random") for n in c.travelers.split(",")}
    assert fixed >= {"daigoro", "gotozaemon", "jirocho", "kita", "miyataka", "nampo"}
    assert any(dict(c.overrides).get("crossroads.start_amulet") == "false" for c in configs)


def test_conformance_games_exercise_every_crossroads_rule() -> None:
    """The games the referee checks reach every Crossroads rule: in the first 250 games of every
    configuration each station type sees options 0, 1 and 2 (C27), every Amulet is used, the die is
    rolled with every face for the Gaming Room, Jirocho and the Fortune Amulet, the start Amulet and
    Jirocho's bet are both taken and declined, and every Legendary Object, Amulet and Calligraphy
    card is gained."""
    choices, uses, dice, options, gains = set(), set(), set(), set(), set()
    for e in logged_events(CONFORMANCE, 250):
        if e[0] == Ev.CHOICE:
            choices.add((e[2], e[3]))
        elif e[0] == Ev.USE:
            uses.add(e[2])
        elif e[0] == Ev.DIE:
            dice.add((e[4], e[2]))
        elif e[0] == Ev.OPTION:
            options.add((e[2], e[3]))
        elif e[0] == Ev.GAIN and 4 <= e[2] <= 6:
            gains.add((e[2], e[3]))
    # options 0-2 at every station type; 3 (Health: the alternative first, rules 1.2 X22) where it arises
    assert {(typ, o) for typ in range(Space.VILLAGE, Space.ENCOUNTER + 1) for o in (0, 1, 2)} <= choices
    assert {o for _, o in choices} == {0, 1, 2, 3}
    assert uses == set(range(6))
    assert dice == {(src, face) for src in range(3) for face in range(5)}
    assert {(4, 0), (4, 1), (5, 0), (5, 1)} <= options
    assert gains == {(deck, c) for deck in (4, 5, 6) for c in range(6)}


@cases(CONFORMANCE)
def test_referee_agrees_crossroads(spec: str, seed: int, games: int) -> None:
    """The referee accepts every Crossroads game and recomputes every kernel column."""
    referee_agrees(spec, seed, games)


# ======================================================================== invariants
INVARIANT_CONFIGS = [
    (f"players=2,{XR}", 6000),
    (f"players=3,{XR},bots=random", 6000),
    (f"players=4,{XR}", 6000),
    (f"players=5,{XR},travelers=random,bots=random", 6000),
    (f"players=2,{ALL_VARIANTS},{XR_NE},bots=random", 5000),
    (f"players=3,variants=gastronomy+preparations,{XR_NE},travelers=random", 5000),
    (f"players=4,variants=return-trip,{XR},bots=greedy+random+greedy+random", 5000),
    (f"players=5,{XR},travelers={TRAV_X5}", 5000),
    (f"players=4,variants=initiation,{XR},bots=random", 4000),
    (f"players=4,{XR},travelers=nampo+kita+miyataka+jirocho,bots=random", 4000),
]


def test_invariant_total_crossroads() -> None:
    assert sum(g for _, g in INVARIANT_CONFIGS) >= 50_000


@pytest.mark.parametrize(("spec", "games"), INVARIANT_CONFIGS, ids=[s for s, _ in INVARIANT_CONFIGS])
def test_record_invariants_crossroads(spec: str, games: int) -> None:
    """C23, C38 and the rulebook's arithmetic on every record of ``games`` kernel-only games."""
    config, rules = setup(spec)
    n = config.n_players
    k = rules.crossroads_cards[n]  # cards of each Crossroads type in play (all of them by default, C23)
    p = rules.params
    rec = play_games(config, rules, 99, 0, games).records
    f = {name: by_game(rec, n, name) for name in rec.dtype.names}
    pts = [c for c in rec.dtype.names if c.startswith("pts_")]
    assert {"pts_cherry_trees", "pts_bathhouses", "pts_legendary", "pts_calligraphy"} <= set(pts)
    # points by source sum to the score (C38)
    assert (sum(f[c] for c in pts) == f["score"]).all()
    assert all((f[c] >= 0).all() for c in pts)
    # no more Crossroads cards taken in a game than are in play (C23); Legendary Objects and
    # Calligraphy never come back, Cherry Trees and Bathhouses are counted
    for col, cap in (
        ("cherry_trees", k),
        ("bathhouses", k),
        ("legendary", min(k, len(rules.legendary))),
        ("calligraphy", min(k, len(rules.calligraphy))),
    ):
        per_game = f[col].sum(axis=1)
        assert (per_game <= cap).all(), f"{col}: a game took {per_game.max()} of {cap} in play"
        assert (f[col] >= 0).all()
    # fixed points per card; no Crossroads points without Crossroads cards
    assert (f["pts_cherry_trees"] == p["CHERRY_POINTS"] * f["cherry_trees"]).all()
    assert (f["pts_bathhouses"] == p["BATH_POINTS"] * f["bathhouses"]).all()
    assert (f["pts_legendary"][f["legendary"] == 0] == 0).all()
    assert (f["pts_calligraphy"][f["calligraphy"] == 0] == 0).all()
    # one Crossroads card per station stop at most, plus the start Amulet
    xcards = f["cherry_trees"] + f["bathhouses"] + f["legendary"] + f["calligraphy"] + f["amulets"]
    assert (xcards <= f["stops"] + int(p["START_AMULET"])).all()
    # the temple: purse donations, Hirotada's bank coin and Devotion score pts_temple and are on the
    # Temple; Miko's coins are on it too (their point is pts_encounters)
    assert (f["pts_temple"] <= f["donated"]).all()
    assert np.isin(f["pts_temple_bonus"], [0, *rules.ranking_points]).all()
    # end achievements (4) + panorama achievements (3), 3 points each
    assert (f["achievements"] <= 7).all() and (f["pts_achievements"] == 3 * f["achievements"]).all()
    extra = f["encounters"] if "new-encounters" in config.expansions else 0
    assert (f["meals"] <= 4 + extra).all() and (f["coins_left"] >= 0).all()
    assert (f["panoramas"] <= 12).all()
    # competition ranks by (score, achievements); win_k counts the winners
    key = f["score"] * 64 + f["achievements"]
    better = (key[:, None, :] > key[:, :, None]).sum(axis=2)
    assert (f["rank"] == better + 1).all()
    winners = (f["rank"] == 1).sum(axis=1)
    assert (f["win_k"] == winners[:, None]).all()
    # starting coins from the tiles (Crossroads Travelers included), before the start Amulet
    if "initiation" not in config.variants:
        order = np.argsort(np.argsort(f["seat"], axis=1), axis=1)
        prep = np.array(rules.preparations[n])[order] if "preparations" in config.variants else 0
        coins = np.array([t.coins for t in rules.travelers])
        assert (f["coins_start"] == np.maximum(0, coins[f["traveler"]] + prep)).all()
        assert ((f["traveler"] >= 0) & (f["traveler"] < 16)).all()


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
