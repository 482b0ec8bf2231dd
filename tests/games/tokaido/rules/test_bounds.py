"""Rule values the kernels cannot hold, and options that would change nothing, are refused."""

from __future__ import annotations

import pytest

from sim.errors import UserError
from sim.games.tokaido import engine
from sim.games.tokaido.rules import bounds
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.inert import inert_options, refuse_inert
from sim.games.tokaido.rules.tables import RulesError, load_rules


def test_shipped_rules_are_inside_the_bounds_with_room() -> None:
    for cfg in (
        GameConfig(),
        GameConfig(expansions=("crossroads", "new-encounters"), variants=("preparations",)),
    ):
        coins, score = bounds.worst_case(cfg.rules())
        assert max(coins, score) < bounds.INT16_MAX / 3, (coins, score)


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "travelers.kinko.coins",
            "40000",
            "travelers.kinko.coins takes 0 to 100 (coins, points and costs are kept in 16-bit fields",
        ),
        ("travelers.kinko.coins", "99999999999", "takes 0 to 100"),
        ("travelers.kinko.coins", "-1", "takes 0 to 100"),
        ("travelers.kinko.coins", "lots", "travelers.kinko.coins wants a whole number"),
        (
            "encounters.annaibito",
            "1,2,3,4",
            "takes 3 values (copies for each panorama type: paddy, mountain, sea), got 4",
        ),
        ("encounters.annaibito", "2,2", "takes 3 values"),
        ("encounters.annaibito", "1,2,99", "encounters.annaibito takes 0 to 32"),
        ("meals.hand_extra", "-1", "meals.hand_extra takes 0 to 9"),
        ("souvenirs.draw", "4", "souvenirs.draw takes 1 to 3"),
        ("temple.ranking_points", "10,7,4", "takes 4 values"),
        ("crossroads.start_amulet", "1", "is true or false"),
    ],
)
def test_out_of_range_override_names_key_range_and_why(key: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match="^override " + key.replace(".", r"\.")) as exc:
        GameConfig(expansions=("crossroads",), overrides=((key, value),))
    assert message in str(exc.value)
    assert "sim/games/tokaido/data" not in str(exc.value) and "lower" not in str(exc.value)


def test_values_in_range_but_overflowing_together_are_refused_with_the_limit() -> None:
    cfg = GameConfig(expansions=("crossroads",), overrides=(("meals.points", "100"),))
    coins, score = bounds.worst_case(cfg.rules())  # fine alone
    assert max(coins, score) <= bounds.INT16_MAX
    with pytest.raises(
        ConfigError,
        match=r"foresight_per_coin=20 lets a player reach a score of up to .* takes "
        r"at most (\d+)",
    ) as exc:
        GameConfig(
            expansions=("crossroads",),
            overrides=(("meals.points", "100"), ("crossroads.calligraphy.foresight_per_coin", "20")),
        )
    most = int(str(exc.value).rsplit(" ", 1)[1])
    ok = GameConfig(
        expansions=("crossroads",),
        overrides=(("meals.points", "100"), ("crossroads.calligraphy.foresight_per_coin", str(most))),
    )
    assert max(bounds.worst_case(ok.rules())) <= bounds.INT16_MAX
    with pytest.raises(ConfigError):
        GameConfig(
            expansions=("crossroads",),
            overrides=(("meals.points", "100"), ("crossroads.calligraphy.foresight_per_coin", str(most + 1))),
        )


def test_a_bad_data_file_value_names_the_file() -> None:
    from sim.games.tokaido.rules import tables

    raw = tables._read_data()
    raw["rules"]["farm"]["coins"] = 500
    with pytest.raises(
        RulesError, match=r"^sim/games/tokaido/data/rules\.toml: farm\.coins=500 is out of range"
    ):
        tables.build_rules(raw)


def test_values_at_their_bounds_play_games_the_referee_accepts() -> None:
    """The bounds are inside what the engine holds: the referee (Python ints) agrees with the kernel."""
    from sim.games.tokaido.cli.options import kernel_rows
    from sim.games.tokaido.referee.game import referee_game

    cfg = GameConfig(
        n_players=3,
        travelers="kinko,chuubei,hiroshige",
        overrides=(
            ("travelers.kinko.coins", "100"),
            ("meals.points", "100"),
            ("farm.coins", "100"),
            ("encounters.samurai_points", "100"),
            ("temple.ranking_points", "100,100,100,100"),
        ),
    )
    rules = cfg.rules()
    batch = engine.play_games(cfg, rules, 1, 0, 20, log=True)
    rows = kernel_rows(batch.records)
    assert max(r["score"] for r in rows) > 500
    for i in range(20):
        assert referee_game(cfg, rules, batch.game_events(i), rows[i * 3 : (i + 1) * 3]).ok


def test_load_rules_checks_overrides_too() -> None:
    with pytest.raises(RulesError, match="takes 3 values"):
        load_rules({"encounters.annaibito": [1, 2, 3, 4]})


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"overrides": (("crossroads.fortune_die", "1,1,1,1,1,1"),)}, "no crossroads"),
        ({"overrides": (("travelers.gotozaemon.coins", "3"),)}, "gotozaemon is a Crossroads Traveler"),
        ({"variants": ("initiation",), "travelers": "kinko,chuubei,hiroshige,satsuki"}, "without Travelers"),
        ({"variants": ("initiation",), "overrides": (("travelers.kinko.coins", "3"),)}, "without Travelers"),
        ({"overrides": (("variants.preparations.4", "0,0,0,0"),)}, "--variants has no preparations"),
        (
            {"variants": ("preparations",), "overrides": (("variants.preparations.3", "0,0,0"),)},
            "for 3 players",
        ),
        ({"overrides": (("encounters.itamae_cost", "2"),)}, "no new-encounters"),
    ],
)
def test_options_with_no_effect_are_refused(kw: dict, message: str) -> None:
    cfg = GameConfig(**kw)
    assert inert_options(cfg)
    with pytest.raises(UserError, match="has no effect: .*" + message):
        refuse_inert(cfg)


def test_options_with_an_effect_pass() -> None:
    for cfg in (
        GameConfig(expansions=("crossroads",), overrides=(("crossroads.fortune_die", "1,1,1,1,1,1"),)),
        GameConfig(variants=("initiation",), overrides=(("variants.initiation.coins", "5"),)),
        GameConfig(variants=("preparations",), overrides=(("variants.preparations.4", "0,0,1,1"),)),
        GameConfig(overrides=(("travelers.kinko.coins", "6"),)),
    ):
        assert refuse_inert(cfg) is cfg


def test_duplicate_expansion_is_refused() -> None:
    with pytest.raises(ConfigError, match="'crossroads' is listed twice in --expansions"):
        GameConfig(expansions=("crossroads", "crossroads"))


def test_study_overrides_take_dotted_keys_and_refuse_one_that_matters_nowhere() -> None:
    from sim.games.tokaido.study import parse_study

    head = 'seed = 1\nplayers = [3]\ngames = 10\nexpansions = ["none", "crossroads"]\n'
    s = parse_study(
        head + "[overrides]\ntravelers.kinko.coins = 6\ncrossroads.fortune_die = [1, 1, 2, 2, 3, 3]\n"
    )
    assert all(
        ("travelers.kinko.coins", 6) in c.overrides for c in s.configs
    )  # matters in the Crossroads cell
    with pytest.raises(
        UserError, match=r"\[overrides\] crossroads\.bathhouse\.points = 9 has no effect in any cell"
    ):
        parse_study(
            head.replace('"none", "crossroads"', '"none"') + "[overrides]\ncrossroads.bathhouse.points = 9\n"
        )
    with pytest.raises(UserError, match=r"cell .*: override travelers\.kinko\.coins=40000 is out of range"):
        parse_study(head + '[overrides]\n"travelers.kinko.coins" = 40000\n')
