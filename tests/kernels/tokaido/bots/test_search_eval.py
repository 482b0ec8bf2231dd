"""The search bot's truncated rollouts and its fitted evaluation at the Inns (kernels/tokaido/search.py).

A rollout with ``S_HORIZON`` = H stops once everyone has gathered at the H-th Inn after the
position and values the players there (``margin_nb``, coefficients from
``sim/games/tokaido/data/bots/search_eval.toml`` in ``ru['seval']``); it never reads the true piles.
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.tokaido import search
from kernels.tokaido.bots.heuristic import heuristic_move_nb
from kernels.tokaido.bots.scratch import B_CAND
from kernels.tokaido.core import enums as E
from kernels.tokaido.core import weights as Wt
from kernels.tokaido.core.enums import PF, G, Space
from kernels.tokaido.core.state import PUB_DTYPE
from kernels.tokaido.core.weights import W
from kernels.tokaido.game.turn import move_nb
from sim.games.tokaido import bots, engine
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.tuning import search_fit
from tests.helpers.bot_positions import position_with_hand, reshuffle_hidden, search_values


def _with_eval(ru, horizon: int, prior: float = 0.0):
    """The position's rules with the 4p-base evaluation and every player's horizon set."""
    ru = ru.copy()
    ru[0]["seval"] = bots.search_eval(GameConfig(n_players=4))
    for p in range(4):
        ru[0]["botw"][p, W.S_HORIZON] = horizon
        ru[0]["botw"][p, W.S_PRIOR] = prior
    return ru


def _inns(ru) -> list[int]:
    board = ru[0]["board"][0]
    return [s for s in range(1, E.N_SPACES - 1) if board[s] == Space.INN]


@pytest.mark.parametrize("horizon", [0, 1, 2])
def test_truncated_rollout_stops_at_the_horizon_inn(horizon):
    """H legs: every traveler stands on the H-th Inn ahead of the farthest one (H = 0: the end)."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    ru = _with_eval(ru, horizon)
    p2, h2 = pubs.copy(), hids.copy()
    lead = int(p2[0]["ps"][:4, PF.POS].max())
    ahead = (
        [s for s in _inns(ru) if s > lead] if lead not in _inns(ru) else [s for s in _inns(ru) if s >= lead]
    )
    with np.errstate(over="ignore"):
        search.determinize_nb(p2[0], h2[0], ru[0])
        s = int(p2[0]["cand"][0])
        move_nb(p2[0], h2[0], ru[0], t, ctrl, s)
        search.rollout_value_nb(p2[0], h2[0], ru[0], ctrl, ru[0]["botw"][ctrl], s)
    pos = p2[0]["ps"][: p2[0]["gs"][G.N_TRAV], PF.POS]
    want = int(p2[0]["gs"][G.LAST]) if horizon == 0 else ahead[horizon - 1]
    assert (pos == want).all(), (pos, want)


def test_truncated_search_ignores_what_the_player_cannot_see():
    """With the fitted evaluation and a horizon of one leg, the hidden pile order and the unseen
    meal hand change neither the move nor any candidate's value; another stream does."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    ru = _with_eval(ru, 1, prior=2.0)
    base = search_values(ru, pubs, t, ctrl, ncand)
    rng = np.random.default_rng(3)
    for _ in range(3):
        p, _h = reshuffle_hidden(pubs, hids, rng)
        k, vals = search_values(ru, p, t, ctrl, ncand)
        assert k == base[0] and np.array_equal(vals, base[1])
    p = pubs.copy()
    p[0]["rng"][0] ^= np.uint64(0x5EED)
    assert not np.array_equal(search_values(ru, p, t, ctrl, ncand)[1], base[1])


def _three_players(field: int, values: list[int]):
    """Three players scoring 20, 22, 10 with ``values`` in ``ps[:, field]``; no win bonus, an empty
    evaluation row."""
    config = GameConfig(n_players=3)
    ru = engine.rules_record(config, config.rules())
    pubs = np.zeros(1, PUB_DTYPE)
    pub = pubs[0]
    pub["gs"][G.N_PLAYERS] = pub["gs"][G.N_TRAV] = 3
    pub["ps"][:3, PF.SCORE] = [20, 22, 10]
    pub["ps"][:3, field] = values
    w = ru[0]["botw"][0].copy()
    w[W.S_WIN] = 0.0
    ru[0]["seval"][:] = 0.0
    return pubs, ru, w


def test_margin_weighs_each_inn_with_its_own_coefficients():
    """At Inn k a coin is worth the evaluation's coefficient (k - 1) * EV_NF + 1; at the end nothing."""
    pubs, ru, w = _three_players(PF.COINS, [6, 0, 0])
    for k, coin in ((1, 0.5), (2, 1.0), (3, 2.0)):
        ru[0]["seval"][:] = 0.0
        ru[0]["seval"][(k - 1) * Wt.EV_NF + 1] = coin
        got = [search.margin_nb(pubs.copy()[0], ru[0], 0, w, kk) for kk in (1, 2, 3, 0)]
        want = [(20 + 6 * coin - 22) if kk == k else -2.0 for kk in (1, 2, 3, 0)]
        assert got == pytest.approx(want)


def test_margin_adds_each_travelers_term_at_each_inn():
    """At Inn k player u's value has its Traveler's term, EV_T0 + (k - 1) * EV_NT + traveler: a
    term of 3 at Inn 2 for Traveler 4 turns a 2-point deficit into a 1-point lead there only."""
    pubs, ru, w = _three_players(PF.TRAVELER, [4, 1, 2])
    ru[0]["seval"][Wt.EV_T0 + Wt.EV_NT + 4] = 3.0
    got = [search.margin_nb(pubs.copy()[0], ru[0], 0, w, k) for k in (1, 2, 3, 0)]
    assert got == pytest.approx([-2.0, 1.0, -2.0, -2.0])


def _fit_file(tmp_path, monkeypatch, fit):
    (tmp_path / "search_eval.toml").write_text(search_fit.to_toml([fit], "test", 1))
    real = bots.data_file
    monkeypatch.setattr(
        bots,
        "data_file",
        lambda name: tmp_path / "search_eval.toml" if name == bots.SEARCH_EVAL else real(name),
    )


def test_search_eval_file_lands_in_the_evaluation(tmp_path, monkeypatch):
    """The TOML's ``innK`` lists go to ``ru['seval']`` in Inn order, the Travelers' terms after them by
    Traveler index, only when a search bot plays; a section with the wrong length or an unknown
    Traveler is a clear error; a missing configuration means zeros."""
    coef = np.arange(3 * Wt.EV_NF, dtype=float).reshape(3, Wt.EV_NF) / 8
    fit = search_fit.Fit(
        "4p-base", 100, coef, np.zeros(3), np.zeros(3), np.zeros(3), {"kinko": np.array([1.5, 1.0, 0.5])}
    )
    _fit_file(tmp_path, monkeypatch, fit)
    config = GameConfig(n_players=4, bots=("search", "expert", "expert", "expert"))
    ru = engine.rules_record(config, config.rules())
    row = ru[0]["seval"]
    assert np.array_equal(row[: Wt.EV_T0], coef.ravel())
    kinko = [t.name for t in config.rules().travelers].index("kinko")
    terms = row[Wt.EV_T0 : Wt.EV_T0 + 3 * Wt.EV_NT].reshape(3, Wt.EV_NT)
    assert np.array_equal(terms[:, kinko], [1.5, 1.0, 0.5])
    terms[:, kinko] = 0.0
    assert not terms.any() and not row[Wt.EV_T0 + 3 * Wt.EV_NT :].any()
    plain = GameConfig(n_players=4, bots=("expert",))
    assert not engine.rules_record(plain, plain.rules())[0]["seval"].any()
    assert not bots.search_eval(GameConfig(n_players=3)).any()
    (tmp_path / "search_eval.toml").write_text("[4p-base]\ninn2 = [1.0, 2.0]\n")
    with pytest.raises(ConfigError, match="inn2 has 2 coefficients"):
        bots.search_eval(config)
    (tmp_path / "search_eval.toml").write_text("[4p-base.travelers]\nkinko = [1.0, 2.0]\n")
    with pytest.raises(ConfigError, match="kinko has 2 values"):
        bots.search_eval(config)
    (tmp_path / "search_eval.toml").write_text("[4p-base.travelers]\nkinkoo = [1.0, 2.0, 3.0]\n")
    with pytest.raises(ConfigError, match="names 'kinkoo'"):
        bots.search_eval(config)


def test_fit_gives_each_traveler_its_worth_to_come(monkeypatch):
    """A Traveler whose final score is 5 points above what its state predicts gets a term 5 above
    the others' at every Inn (the terms are defined up to a constant), and only played Travelers
    get one."""
    rng = np.random.default_rng(1)
    g, n = 400, 4
    feats = rng.normal(size=(g, 3, n, Wt.EV_NF))
    now = rng.normal(size=(g, 3, n)) * 3
    trav = np.tile(np.arange(n), (g, 1))
    for r in trav:
        rng.shuffle(r)
    final = now[:, 2] + feats[:, 2] @ np.linspace(0.1, 0.9, Wt.EV_NF) + 5.0 * (trav == 2)
    monkeypatch.setattr(search_fit, "inn_states", lambda *a: (feats, now, final, trav))
    f = search_fit.fit(GameConfig(n_players=n), g, 1)
    names = [t.name for t in GameConfig(n_players=n).rules().travelers]
    assert set(f.travelers) == set(names[:n])
    t = np.array([f.travelers[names[i]][2] for i in range(n)])
    assert t[2] - np.delete(t, 2).mean() == pytest.approx(5.0, abs=1e-6)
    assert np.delete(t, 2).std() == pytest.approx(0.0, abs=1e-6)
    assert f.coef[2] == pytest.approx(np.linspace(0.1, 0.9, Wt.EV_NF), abs=1e-6)


def test_shipped_evaluation_covers_every_configuration():
    """sim/games/tokaido/data/bots/search_eval.toml has all three Inns of every player count, base and
    Crossroads,
    and values coins positively at every Inn (a coin can still buy points)."""
    for x in ((), ("crossroads",)):
        for n in (2, 3, 4, 5):
            ev = bots.search_eval(GameConfig(n_players=n, expansions=x))[: Wt.EV_T0].reshape(3, Wt.EV_NF)
            assert (ev != 0).any(axis=1).all()
            assert (ev[:, search_fit.FEATURES.index("coins")] > 0).all()


def test_the_evaluation_is_a_field_of_its_own():
    """The evaluation is ``ru['seval']``, not a row of the weights: every traveler's row holds weights,
    and a search bot's rules change no weight row to carry it."""
    plain = GameConfig(n_players=4, bots=("expert",))
    searched = GameConfig(n_players=4, bots=("search", "expert", "expert", "expert"))
    a, b = (engine.rules_record(c, c.rules()) for c in (plain, searched))
    assert np.array_equal(a[0]["botw"][1:], b[0]["botw"][1:]) and b[0]["seval"].any()
    assert len(b[0]["seval"]) == Wt.EV_N == Wt.EV_T0 + 3 * Wt.EV_NT


@pytest.mark.parametrize("args", [["--games", "10"], ["--players", "7"], ["--expansions", "nosuch"]])
def test_fit_search_eval_rejects_bad_input(args, capsys, tmp_path):
    """One clear line, exit 2, nothing written."""
    from tests.helpers.cli import assert_user_error, call

    out = tmp_path / "e.toml"
    assert_user_error(*call(["fit-search-eval", *args, "--out", str(out)], capsys))
    assert not out.exists()


def _top4(ru, pubs, t, ctrl, ncand) -> np.ndarray:
    """The four candidates the search compares: the heuristic's best (first index on ties)."""
    p = pubs.copy()
    heuristic_move_nb(p[0], ru[0], t, ctrl, ncand, ru[0]["botw"][ctrl, W.EXPERT] > 0.5)
    return np.argsort(-p[0]["bscr"][B_CAND : B_CAND + ncand], kind="stable")[:4]


def _budget(ru, ctrl, rollouts: int, halve: int, prior: float = 0.0, race: float = 0.0, gate: float = 0.0):
    r = ru.copy()
    r[0]["botw"][ctrl, W.S_ROLLOUTS], r[0]["botw"][ctrl, W.S_HALVE] = rollouts, halve
    r[0]["botw"][ctrl, W.S_TOPK], r[0]["botw"][ctrl, W.S_PRIOR] = 4, prior
    r[0]["botw"][ctrl, W.S_RACE], r[0]["botw"][ctrl, W.S_GATE] = race, gate
    return r


def test_successive_halving_drops_the_worse_half_on_common_random_numbers():
    """halve = 2, rollouts = 8, four candidates: the two worse after 2 rollouts each keep those
    means; the two better go on to 8, on the same futures as without halving (common random
    numbers), and the move is the better of those two."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    ru = _with_eval(ru, 1)
    assert ncand >= 4
    sel = _top4(ru, pubs, t, ctrl, ncand)
    k, vals = search_values(_budget(ru, ctrl, 8, 2), pubs, t, ctrl, ncand)
    short = search_values(_budget(ru, ctrl, 2, 0), pubs, t, ctrl, ncand)[1]
    full = search_values(_budget(ru, ctrl, 8, 0), pubs, t, ctrl, ncand)[1]
    order = sel[np.argsort(-short[sel], kind="stable")]
    kept, dropped = order[:2], order[2:]
    assert np.allclose(vals[kept], full[kept]) and np.allclose(vals[dropped], short[dropped])
    assert not np.allclose(short[kept], full[kept])  # the kept ones really had more rollouts
    assert k == kept[np.argmax(full[kept])]


def test_prior_keeps_the_heuristic_choice_when_large():
    """prior = 1000: the heuristic's best move whatever the rollouts; prior = 0: the best mean."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    ru = _with_eval(ru, 1)
    sel = _top4(ru, pubs, t, ctrl, ncand)
    k0, vals = search_values(_budget(ru, ctrl, 8, 0), pubs, t, ctrl, ncand)
    assert k0 == sel[np.argmax(vals[sel])]
    assert search_values(_budget(ru, ctrl, 8, 0, prior=1000.0), pubs, t, ctrl, ncand)[0] == sel[0]
    assert k0 != sel[0], "choose a position where the rollouts disagree with the heuristic"


def test_racing_without_a_decisive_deficit_plays_every_rollout():
    """A threshold no deficit reaches: every candidate gets all its rollouts, the same move and means as
    without racing."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    ru = _with_eval(ru, 1)
    full = search_values(_budget(ru, ctrl, 16, 0), pubs, t, ctrl, ncand)
    raced = search_values(_budget(ru, ctrl, 16, 0, race=1e9), pubs, t, ctrl, ncand)
    assert full[0] == raced[0] and np.array_equal(full[1], raced[1])


def test_racing_stops_the_clearly_worse_on_common_random_numbers():
    """race = 2, 32 rollouts, prior 2: each candidate's mean is that of its first n rollouts (n = 8, 12, ...
    32: the same futures as without racing), two stop after 8, and the move is the best mean plus prior of
    the two that ran to the end."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(3)
    ru = _with_eval(ru, 1)
    p = pubs.copy()
    heuristic_move_nb(p[0], ru[0], t, ctrl, ncand, True)
    prior = 2.0 * p[0]["bscr"][B_CAND : B_CAND + ncand]
    sel = _top4(ru, pubs, t, ctrl, ncand)
    k, vals = search_values(_budget(ru, ctrl, 32, 0, prior=2.0, race=2.0), pubs, t, ctrl, ncand)
    firsts = {
        n: search_values(_budget(ru, ctrl, n, 0, prior=2.0), pubs, t, ctrl, ncand)[1] for n in range(8, 33, 4)
    }
    ran = {int(j): max(n for n, v in firsts.items() if np.isclose(v[j], vals[j])) for j in sel}
    assert sorted(ran.values()) == [8, 8, 32, 32], ran
    finalists = [j for j in sel if ran[int(j)] == 32]
    assert k == finalists[int(np.argmax(vals[finalists] + prior[finalists]))]


def test_gate_leaves_out_candidates_far_behind_in_prior():
    """A gate below every prior gap: the heuristic's move with no rollout and no draw from the game's
    stream; a gate above every gap: the search as without it."""
    ru, pubs, hids, t, ctrl, ncand = position_with_hand(5)
    ru = _with_eval(ru, 1)
    sel = _top4(ru, pubs, t, ctrl, ncand)
    p = pubs.copy()
    with np.errstate(over="ignore"):
        k = search.search_move_nb(p[0], _budget(ru, ctrl, 8, 0, prior=2.0, gate=1e-9)[0], t, ctrl, ncand)
    assert k == sel[0] and np.array_equal(p[0]["rng"], pubs[0]["rng"])
    wide = search_values(_budget(ru, ctrl, 8, 0, prior=2.0, gate=1e9), pubs, t, ctrl, ncand)
    off = search_values(_budget(ru, ctrl, 8, 0, prior=2.0), pubs, t, ctrl, ncand)
    assert wide[0] == off[0] and np.array_equal(wide[1], off[1])
