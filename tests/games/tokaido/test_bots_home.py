"""The bots' data has one home (``sim/games/tokaido/bots.py``): one configuration key for every table kept per
configuration, looked up most specific first, and the rules record's bot part built from it."""

from __future__ import annotations

import numpy as np

from kernels.tokaido.core import weights as Wt
from sim.games.tokaido import bots, engine
from sim.games.tokaido.rules.config import GameConfig


def test_one_key_names_every_configuration():
    assert bots.config_key(4) == "4p-base"
    assert bots.config_key(3, ("crossroads",)) == "3p-crossroads"
    assert bots.config_key(4, ("matsuri", "crossroads")) == "4p-crossroads+matsuri"  # sorted: one spelling
    config = GameConfig(n_players=5, expansions=("crossroads", "promos"))
    assert bots.key_of(config) == bots.config_key(5, config.expansions) == "5p-crossroads+promos"


def test_data_for_fewer_expansions_serves_until_a_configuration_has_its_own():
    """The keys tried: the configuration's own, then ever fewer expansions, the base game last."""
    keys = bots.lookup_keys(GameConfig(n_players=4, expansions=("crossroads", "matsuri")))
    assert keys == ["4p-crossroads+matsuri", "4p-crossroads", "4p-matsuri", "4p-base"]
    assert bots.lookup_keys(GameConfig(n_players=2)) == ["2p-base"]
    # the shipped files: Crossroads + Matsuri plays the Crossroads weights, promos the base game's
    for xs, want in ((("crossroads", "matsuri"), "expert-4p-crossroads"), (("promos",), "expert-4p-base")):
        path = bots.weight_file("expert", GameConfig(n_players=4, expansions=xs))
        assert path is not None and path.name == f"{want}.toml"


def test_tables_are_read_by_the_same_keys(tmp_path, monkeypatch):
    """A draft table's section for the configuration itself wins over its fallbacks; variants first."""
    monkeypatch.setattr(bots, "data_file", lambda name: tmp_path / f"{name}.toml")
    (tmp_path / "draft-x.toml").write_text(
        '["4p-crossroads"]\nhiroshige = 0.3\n'
        '["4p-crossroads+matsuri"]\nhiroshige = 0.4\n'
        '["4p-crossroads-preparations"]\nhiroshige = 0.5\n'
    )
    xm = GameConfig(n_players=4, expansions=("crossroads", "matsuri"))
    assert bots.draft_values("x", xm, xm.rules())[0] == 0.4
    xr = GameConfig(n_players=4, expansions=("crossroads",), variants=("preparations",))
    assert bots.draft_values("x", xr, xr.rules())[0] == 0.5
    xp = GameConfig(n_players=4, expansions=("crossroads", "promos"))
    assert bots.draft_values("x", xp, xp.rules())[0] == 0.3


def test_the_rules_record_carries_each_players_weights_and_the_search_evaluation_apart():
    config = GameConfig(n_players=3, bots=("search", "expert", "greedy"))
    rules = config.rules()
    ru = engine.rules_record(config, rules)
    assert np.array_equal(ru[0]["botw"][1], bots.bot_weights("expert", rules, config))
    assert np.array_equal(ru[0]["botw"][2], bots.bot_weights("greedy", rules, config))
    assert np.array_equal(ru[0]["seval"], bots.search_eval(config, rules)) and ru[0]["seval"].any()
    assert ru[0]["seval"].shape == (Wt.EV_N,)
