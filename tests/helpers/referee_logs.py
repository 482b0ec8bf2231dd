"""Hand-built referee logs for the referee tests: ``ev`` rows, ``setup_log`` and ``feed``, and the
Crossroads set-up (``xcfg``, ``xr_setup``, ``ok``, ``stop``) with the Crossroads card ids and board spaces.

The referee tests and the rule tests that also check the referee import them from here.
"""

from __future__ import annotations

from functools import cache

from kernels.tokaido.core.enums import Deck, Ev, Opt
from sim.games.tokaido.referee.game import Referee
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

Row = tuple[int, int, int, int, int, int]


def ev(kind: int, t: int = -1, a: int = -1, b: int = -1, c: int = -1) -> Row:
    return (kind, t, a, b, c, -1)


@cache
def cfg(
    n: int = 3,
    travelers: str = "draft",
    variants: tuple[str, ...] = (),
    expansions: tuple[str, ...] = (),
    overrides: tuple[tuple[str, str], ...] = (),
) -> tuple[GameConfig, Rules]:
    config = GameConfig(
        n_players=n, travelers=travelers, variants=variants, expansions=expansions, overrides=overrides
    )
    return config, config.rules()


def setup_log(
    config: GameConfig,
    rules: Rules,
    decks: dict[int, list[int]] | None = None,
    lineup: list[int] | None = None,
) -> list[Row]:
    """DECK (identity order unless given; a given prefix is completed), DEAL/KEEP (fixed), LINEUP, COINS."""
    rows: list[Row] = []
    sizes = [len(rules.souvenirs), len(rules.meals), len(rules.hot_springs), len(rules.encounters)]
    for d, size in enumerate(sizes):
        order = list((decks or {}).get(d, []))
        order += [c for c in range(size) if c not in order]
        rows += [ev(Ev.DECK, -1, d, c) for c in order]
    n = config.n_players
    n_trav = n + (n == 2)
    initiation = "initiation" in config.variants
    ids = [] if initiation else [rules.traveler_index(x) for x in config.travelers.split(",")]
    rows += [ev(Ev.DEAL, p, i, -1) for p, i in enumerate(ids)]
    rows += [ev(Ev.KEEP, p, i) for p, i in enumerate(ids)]
    lineup = lineup or list(range(n_trav))  # lineup[t] = departure order of traveler t
    rows += [ev(Ev.LINEUP, t, lineup[t]) for t in range(n_trav)]
    seats = sorted(range(n), key=lambda p: lineup[p])
    for p in range(n):
        coins = 7 if initiation else rules.travelers[ids[p]].coins
        if "preparations" in config.variants:
            coins += rules.preparations[n][seats.index(p)]
        rows.append(ev(Ev.COINS, p, coins))
    return rows


def feed(config: GameConfig, rules: Rules, rows: list[Row]) -> Referee:
    ref = Referee(config, rules)
    ref.feed_all(rows)
    return ref


def assert_illegal(ref: Referee, index: int, *words: str) -> None:
    assert ref.errors, "the referee accepted an illegal log"
    err = ref.errors[0]
    assert err.startswith(f"event {index} "), err
    for w in words:
        assert w in err, err


# ====================================================================== Crossroads
XR = ("crossroads",)
# card ids (sim/games/tokaido/data/crossroads.toml order)
SHODO, EMAKI, BUPPATSU, EMA, MURASAME, MASAMUNE = range(6)
VITALITY, FORTUNE, HEALTH, FRIENDSHIP, HOSPITALITY, DEVOTION = range(6)
FORESIGHT, CONTEMPLATION, NOSTALGIA, PATIENCE, PERFECTION, FASTING = range(6)
# board spaces (Kyoto -> Edo)
VILLAGE1, TEMPLE2, ENCOUNTER3, PADDY4, HOT5, MOUNTAIN6, FARM7, VILLAGE8, TEMPLE9 = range(1, 10)
ENCOUNTER10, SEA11, MOUNTAIN12, HOT13, INN14 = range(10, 15)


def xcfg(
    n: int = 3,
    travelers: str = "draft",
    variants: tuple[str, ...] = (),
    overrides: tuple[tuple[str, str], ...] = (),
) -> tuple[GameConfig, Rules]:
    """A Crossroads configuration with seed 002's by-count table (4 cards of each type at 2-3 players),
    so that the hand-made logs can leave cards out of play; self-play games use the defaults."""
    return cfg(n, travelers, variants, XR, (("crossroads.by_player_count", "true"), *overrides))


def xr_setup(
    config: GameConfig,
    rules: Rules,
    markets: dict[int, list[int]] | None = None,
    start: dict[int, int] | None = None,
    decks: dict[int, list[int]] | None = None,
    lineup: list[int] | None = None,
) -> list[Row]:
    """``setup_log`` plus the MARKET rows (cards 0..k-1 unless given) and the start-Amulet options.

    ``start`` maps a player to the Amulet card they buy at set-up; every other
    player with a coin declines.
    """
    rows = setup_log(config, rules, decks, lineup)
    k = rules.crossroads_cards[config.n_players]
    chosen = {d: list(range(k)) for d in (Deck.LEGENDARY, Deck.AMULET, Deck.CALLIGRAPHY)}
    chosen.update(markets or {})
    xr = [
        ev(Ev.MARKET, -1, d, c, 1) for d in (Deck.LEGENDARY, Deck.AMULET, Deck.CALLIGRAPHY) for c in chosen[d]
    ]
    xr += [ev(Ev.MARKET, -1, Deck.CHERRY, -1, k), ev(Ev.MARKET, -1, Deck.BATHHOUSE, -1, k)]
    last_deck = max(i for i, r in enumerate(rows) if r[0] == Ev.DECK)
    rows = rows[: last_deck + 1] + xr + rows[last_deck + 1 :]
    coins = {r[1]: r[2] for r in rows if r[0] == Ev.COINS}
    n_trav = config.n_players + (config.n_players == 2)
    order = lineup or list(range(n_trav))
    for p in sorted(range(config.n_players), key=lambda p: order[p]):
        if coins[p] >= 1:
            buy = (start or {}).get(p)
            rows.append(ev(Ev.OPTION, p, Opt.START_AMULET, int(buy is not None)))
            if buy is not None:
                rows.append(ev(Ev.GAIN, p, Deck.AMULET, buy, 1))
    return rows


def ok(config: GameConfig, rules: Rules, rows: list[Row]) -> Referee:
    ref = feed(config, rules, rows)
    assert ref.errors == [], ref.errors
    return ref


def stop(t: int, space: int, option: int = 0) -> list[Row]:
    """A player's MOVE to a station and the CHOICE that follows."""
    from sim.games.tokaido.rules.tables import load_rules

    kind = load_rules().board_types[space]
    return [ev(Ev.MOVE, t, space, t), ev(Ev.CHOICE, t, kind, option)]
