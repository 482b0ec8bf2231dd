"""The bot tiers (docs/bots.md): legal games, random and greedy unchanged, no peeking, the draft."""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

from kernels.tokaido import play, search
from kernels.tokaido.bots import abilities, expert, features, heuristic, policy
from kernels.tokaido.bots import crossroads as xchoices
from kernels.tokaido.bots.scratch import B_CAND
from kernels.tokaido.core import enums as E
from kernels.tokaido.core import weights as Wt
from kernels.tokaido.core.enums import PF, G
from kernels.tokaido.core.weights import W
from sim.games.tokaido import bots, engine
from sim.games.tokaido.referee.game import explain_mismatch, referee_game
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.bot_positions import position_with_hand, reshuffle_hidden, search_values

CHEAP = {W.S_ROLLOUTS: 2, W.S_TOPK: 2}  # a search budget small enough for the tests


def weights(config: GameConfig, rules, budget: dict[int, float] | None = None) -> np.ndarray:
    """The players' weights, with the search bot's budget cut to ``budget`` (default CHEAP)."""
    ws = np.array([bots.bot_weights(b, rules) for b in config.bot_names()])
    for p, b in enumerate(config.bot_names()):
        if b == "search":
            for k, v in (budget or CHEAP).items():
                ws[p, k] = v
    return ws


# ---------------------------------------------------------------- random and greedy are unchanged
# sums over 1000 games (seed 1) of the result columns and of the action log, recorded at rules 1.2
# (rule fixes may change greedy games on purpose; new bot tiers must not change them)
PINS = [
    ("players=4,bots=random", (151562, 30210, 6646, 17775, 9852), (243425, 4413314)),
    ("players=4,bots=greedy", (261115, 54326, 17575, 15256, 14916), (310267, 5929442)),
    ("players=2,bots=greedy", (142891, 27671, 7815, 7562, 7535), (226251, 4026668)),
    (
        "players=5,bots=greedy,variants=preparations+gastronomy,expansions=new-encounters",
        (289546, 59535, 17869, 18824, 17792),
        (338346, 6740929),
    ),
    ("players=3,bots=random+greedy+greedy", (173656, 35294, 12293, 11865, 9771), (242480, 4318929)),
    (
        "players=5,bots=random+greedy+greedy+random+random",
        (242316, 50329, 17676, 21044, 15045),
        (318671, 6212053),
    ),
]


@pytest.mark.parametrize(("spec", "cols", "log"), PINS, ids=[p[0] for p in PINS])
def test_random_and_greedy_play_the_same_games(spec, cols, log):
    config = GameConfig.parse(spec)
    batch = engine.play_games(config, config.rules(), 1, 0, 1000, log=True)
    rec = batch.records
    got = tuple(
        int(rec[f].astype(np.int64).sum()) for f in ("score", "stops", "coins_left", "traveler", "meals")
    )
    assert got == cols
    ev = np.concatenate([batch.game_events(i) for i in range(1000)]).astype(np.int64)
    assert (len(ev), int(ev.sum())) == log


# ---------------------------------------------------------------- every tier plays legal games
CASES = [(tier, n) for tier in ("heuristic", "tuned", "expert", "search") for n in (2, 3, 4, 5)]


@pytest.mark.parametrize(("tier", "n"), CASES, ids=[f"{t}-{n}p" for t, n in CASES])
def test_every_tier_plays_legal_games(tier, n):
    games = 60 if tier == "search" else 150
    field = (tier, "greedy", "tuned", tier, "random")[:n]
    expansions = ("new-encounters",) if n % 2 else ()
    if tier in ("expert", "search") and n >= 3:
        expansions = ("crossroads",)  # every Crossroads choice and Amulet use of the expert's valuations
    variants = ("preparations",) if n >= 4 else ()
    config = GameConfig(n_players=n, bots=field, expansions=expansions, variants=variants)
    rules = config.rules()
    batch = engine.play_games(config, rules, 100 + n, 0, games, log=True, weights=weights(config, rules))
    names = batch.records.dtype.names
    rows = [dict(zip(names, map(int, r), strict=True)) for r in batch.records.tolist()]
    for i in range(games):
        res = referee_game(config, rules, batch.game_events(i), rows[i * n : (i + 1) * n])
        assert res.ok, f"game {i}: {explain_mismatch(res)}"


def test_tiers_differ_and_are_deterministic():
    config = GameConfig(n_players=3, bots=("search", "tuned", "heuristic"))
    rules = config.rules()
    a = engine.play_games(config, rules, 9, 0, 20, weights=weights(config, rules), threads=1).records
    b = engine.play_games(config, rules, 9, 10, 10, weights=weights(config, rules)).records
    assert np.array_equal(a[30:], b)  # game i depends only on (seed, i), whatever the threads and chunks
    assert list(np.unique(a["bot"])) == [E.Bot.HEURISTIC, E.Bot.TUNED, E.Bot.SEARCH]


# ---------------------------------------------------------------- the search bot never peeks
def test_no_bot_function_receives_hid():
    for mod in (policy, features, heuristic, xchoices, expert, abilities, search):
        for name, obj in vars(mod).items():
            func = getattr(obj, "py_func", None)
            if func is None or func.__module__ != mod.__name__:
                continue
            assert "hid" not in inspect.signature(func).parameters, f"{mod.__name__}.{name} receives hid"
    assert list(inspect.signature(play.decide_move_nb.py_func).parameters) == [
        "pub",
        "ru",
        "t",
        "ctrl",
        "ncand",
    ]
    assert not re.search(r"\bhid\b", inspect.getsource(search).replace("``hid``", ""))  # scratch piles: h2


def test_expert_decision_ignores_what_the_player_cannot_see():
    """The expert's move values are the same whatever the hidden order of the piles and the unseen hand."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    w = bots.bot_weights("expert", GameConfig(n_players=4).rules())
    for p in range(4):
        ru[0]["botw"][p] = w

    def values(p):
        p = p.copy()
        k = heuristic.heuristic_move_nb(p[0], ru[0], t, ctrl, ncand, ru[0]["botw"][ctrl, W.EXPERT] > 0.5)
        return int(k), p[0]["bscr"][B_CAND : B_CAND + ncand].copy()

    base = values(pubs)
    rng = np.random.default_rng(1)
    for _ in range(3):
        p, _h = reshuffle_hidden(pubs, hids, rng)
        k, vals = values(p)
        assert k == base[0] and np.array_equal(vals, base[1])


def test_search_decision_ignores_what_the_player_cannot_see():
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    assert pubs[0]["ps"][t, PF.POS] < pubs[0]["gs"][G.LAST]
    base = search_values(ru, pubs, t, ctrl, ncand)
    rng = np.random.default_rng(0)
    for _ in range(3):
        p, _h = reshuffle_hidden(pubs, hids, rng)
        k, vals = search_values(ru, p, t, ctrl, ncand)
        assert k == base[0]
        assert np.array_equal(vals, base[1])
    # the values are rollouts: another stream gives other values
    p = pubs.copy()
    p[0]["rng"][0] ^= np.uint64(0xABCDEF)
    assert not np.array_equal(search_values(ru, p, t, ctrl, ncand)[1], base[1])


# ---------------------------------------------------------------- the draft
@pytest.mark.parametrize("tier", ["greedy", "heuristic", "tuned", "expert", "search"])
def test_each_tier_keeps_the_traveler_it_values_more(tier):
    config = GameConfig(n_players=4, bots=(tier,))
    rules = config.rules()
    w = bots.bot_weights(tier, rules, config)  # with the configuration: the tier's draft table
    ws = np.repeat(w[None, :], 4, axis=0)
    ws[:, W.S_ROLLOUTS], ws[:, W.S_TOPK] = CHEAP[W.S_ROLLOUTS], CHEAP[W.S_TOPK]
    batch = engine.play_games(config, rules, 3, 0, 40, log=True, weights=ws)
    coins = np.array([t.coins for t in rules.travelers])

    def value(x: int) -> float:
        return w[W.DRAFT_COIN] * coins[x] + w[W.TRAV0 + x]

    kept = 0
    for i in range(40):
        ev = batch.game_events(i)
        deals = {int(r[1]): (int(r[2]), int(r[3])) for r in ev if r[0] == E.Ev.DEAL}
        for r in ev[ev[:, 0] == E.Ev.KEEP]:
            a, b = deals[int(r[1])]
            other = b if int(r[2]) == a else a
            assert value(int(r[2])) >= value(other)
            kept += 1
    assert kept == 160


def test_the_heuristic_tiers_draft_by_measured_win_shares():
    """Each heuristic tier's draft values are its measured win shares; none is missing."""
    for n, xp in ((4, ()), (3, ("crossroads",))):
        config = GameConfig(n_players=n, expansions=xp)
        rules = config.rules()
        for tier in ("heuristic", "tuned", "expert"):
            vals = bots.draft_values(tier, config, rules)
            assert vals is not None and len(vals) == len(rules.travelers)
            w = bots.bot_weights(tier, rules, config)
            assert w[W.DRAFT_COIN] == 0.0
            got = w[W.TRAV0 : W.TRAV0 + len(rules.travelers)]
            assert np.allclose(got, [vals[i] for i in range(len(rules.travelers))])
            assert len(set(np.round(got, 4))) > len(rules.travelers) // 2  # measured, not one default


def test_draft_temperature_gives_variety():
    """At temperature 0 the better value is always kept; a high temperature keeps either."""
    config = GameConfig(n_players=4, bots=("tuned",))
    rules = config.rules()
    w = bots.bot_weights("tuned", rules, config)
    kept = {}
    for temp in (0.0, 10.0):
        w[W.DRAFT_TEMP] = temp
        ev = engine.play_games(config, rules, 4, 0, 60, log=True, weights=np.repeat(w[None, :], 4, axis=0))
        worse = 0
        for i in range(60):
            e = ev.game_events(i)
            deals = {int(r[1]): (int(r[2]), int(r[3])) for r in e if r[0] == E.Ev.DEAL}
            for r in e[e[:, 0] == E.Ev.KEEP]:
                a, b = deals[int(r[1])]
                other = b if int(r[2]) == a else a
                worse += w[W.TRAV0 + int(r[2])] < w[W.TRAV0 + other]
        kept[temp] = worse
    assert kept[0.0] == 0 and kept[10.0] > 30


def test_tuned_weights_are_data():
    rules = GameConfig().rules()
    h, t, x, s = (bots.bot_weights(b, rules) for b in ("heuristic", "tuned", "expert", "search"))
    assert not np.array_equal(h, t)
    assert s[W.S_ROLLOUTS] >= 1 and s[W.S_TOPK] >= 2
    # the expert's own region is empty for tuned (the Traveler priors and Matsuri weights past it are not)
    assert x[W.EXPERT] == 1.0 and t[W.EXPERT] == 0.0 and not t[W.XF0 : W.TRAV0].any()
    assert t[W.M_OPP] == bots.bot_weights("greedy", rules)[W.M_OPP] > 0
    budget = (
        W.S_ROLLOUTS,
        W.S_TOPK,
        W.S_WIN,
        W.S_HORIZON,
        W.S_PRIOR,
        W.S_HALVE,
        W.S_RACE,
        W.S_GATE,
    )  # [search]
    core = [i for i in range(Wt.W_N) if i not in budget]
    assert np.array_equal(s[core], x[core])  # search.toml inherits the expert's weights
    assert bots.feature_names()[0] == "pts" and len(bots.feature_names()) == Wt.HF_N
