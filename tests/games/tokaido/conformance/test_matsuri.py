"""Matsuri conformance: the independent referee agrees with the kernels on Matsuri games.

* ``test_referee_agrees_matsuri`` (fast, ~300 games): four Matsuri configurations, 2-5 players,
  replayed by the referee (``sim/games/tokaido/referee/matsuri.py``, written from seed 002, not from the
  kernels).
* ``test_referee_agrees_matsuri_slow`` (``@pytest.mark.slow``): 21 configurations of 1,000 games and
  one of 500 (21,500 games): 2-5 players, greedy and random bots (alone and mixed; the heuristic,
  tuned and expert tiers in the last one), draft / random / fixed Travelers, every variant alone and
  all combined, with and without New Encounters, and a Matsuri rule choice switched
  (``make test-slow`` runs it). On merging mk 93aa353, 119 of the 21,500 games disagreed, all of one
  kind: Umegae taking Hadaka matsuri's Encounter got no +1 point +1 coin from the kernel, which her
  ability gives "for each Encounter" (seed 002:L1027; expansions.md M7). Fixed in the kernel (MR24);
  on the merged code (the Matsuri and promo Travelers in the pool) all 21,500 agree, as do the fast
  test's 300. Kernel and referee together take ~8 ms a game: the 21,500 run ~3 minutes on one core.
* ``test_conformance_games_exercise_every_matsuri_card``: those games keep every card, bring
  cards in through Hanabi, close spaces fully and by half, and take every Matsuri option.

    .venv/bin/pytest -n 2 -m slow tests/games/tokaido/conformance/test_matsuri.py
"""

from __future__ import annotations

from kernels.tokaido.core.enums import Ev, Opt
from sim.games.tokaido.rules.config import VARIANTS, GameConfig
from tests.helpers.conformance import (
    ALL_VARIANTS,
    cases,
    logged_events,
    profile_cases,
    referee_agrees,
    referee_agrees_under,
    setup,
)

MX = "expansions=crossroads+matsuri"
MX_NE = "expansions=crossroads+matsuri+new-encounters"
GAMES = 1000

# (spec, seed, games); every spec is GameConfig.spec()-style
SLOW: list[tuple[str, int, int]] = [
    (f"players=2,{MX}", 7001, GAMES),
    (f"players=3,{MX}", 7002, GAMES),
    (f"players=4,{MX}", 7003, GAMES),
    (f"players=5,{MX}", 7004, GAMES),
    (f"players=2,{MX},travelers=random,bots=random", 7005, GAMES),
    (f"players=3,{MX},bots=random", 7006, GAMES),
    (f"players=4,{MX},travelers=random,bots=random", 7007, GAMES),
    (f"players=5,{MX},travelers=random,bots=greedy+random+greedy+random+greedy", 7008, GAMES),
    (f"players=3,variants=initiation,{MX}", 7009, GAMES),
    (f"players=4,variants=return-trip,{MX},bots=random", 7010, GAMES),
    (f"players=2,variants=gastronomy,{MX}", 7011, GAMES),
    (f"players=5,variants=preparations,{MX},travelers=random,bots=random", 7012, GAMES),
    (f"players=4,{MX_NE}", 7013, GAMES),
    (f"players=3,{MX_NE},travelers=random,bots=random", 7014, GAMES),
    (f"players=2,{ALL_VARIANTS},{MX_NE},bots=random", 7015, GAMES),
    (f"players=4,{ALL_VARIANTS},{MX},bots=greedy+random+random+greedy", 7016, GAMES),
    (f"players=5,{MX_NE},travelers=umegae+yoshiyasu+kita+satsuki+chuubei,bots=random", 7017, GAMES),
    (f"players=4,variants=gastronomy,{MX},travelers=kinko+sasayakko+nampo+mitsukuni", 7018, GAMES),
    (
        f"players=3,variants=return-trip,{MX_NE},travelers=hirotada+gotozaemon+miyataka,bots=random",
        7019,
        GAMES,
    ),
    (f"players=4,{MX},bots=random,set:matsuri.choices.friendship_on_half_closed=false", 7020, GAMES),
    (
        f"players=5,variants=return-trip+gastronomy,{MX_NE},bots=random+greedy+random+greedy+random",
        7021,
        GAMES,
    ),
    (f"players=4,{MX_NE},bots=heuristic+expert+tuned+greedy", 7022, 500),  # the stronger tiers' choices
]
FAST: list[tuple[str, int, int]] = [
    (f"players=2,{MX_NE},bots=random", 7101, 75),
    (f"players=3,variants=return-trip,{MX},travelers=random", 7102, 75),
    (f"players=4,{MX},bots=greedy+random+random+greedy", 7103, 75),
    (f"players=5,variants=gastronomy,{MX_NE},travelers=random,bots=random", 7104, 75),
    # the rule alternatives M4 (the Neutral's mover chooses) and M18 (Hanabi in the chooser's order)
    (
        f"players=2,{MX},bots=random,set:matsuri.choices.first_arrival_skips_neutral=false,"
        "set:matsuri.choices.hanabi_order=chooser",
        7105,
        75,
    ),
]


def test_conformance_covers_matsuri() -> None:
    """At least 20,000 Matsuri games over 2-5 players, every bulk tier (alone and mixed), draft / random /
    fixed Travelers, every variant alone and combined, New Encounters, a Matsuri choice switched."""
    configs = [GameConfig.parse(s) for s, _, _ in SLOW]
    assert sum(g for _, _, g in SLOW) >= 20_000
    assert sum(g for _, _, g in FAST) >= 300
    specs = [s for s, _, _ in SLOW + FAST]
    assert len(set(specs)) == len(specs) == len({s for _, s, _ in SLOW + FAST})
    assert all({"crossroads", "matsuri"} <= set(c.expansions) for c in configs)
    assert any("new-encounters" in c.expansions for c in configs)
    assert {c.n_players for c in configs} == {2, 3, 4, 5}
    assert {b for c in configs for b in c.bot_names()} >= {"greedy", "random", "heuristic", "tuned", "expert"}
    assert any(len(set(c.bot_names())) == 2 for c in configs), "mixed bots"
    assert all(any(c.variants == (v,) for c in configs) for v in VARIANTS), "each variant alone"
    assert any(set(c.variants) == set(VARIANTS) for c in configs), "all variants combined"
    modes = {c.travelers if c.travelers in ("draft", "random") else "fixed" for c in configs}
    assert modes == {"draft", "random", "fixed"}
    assert any(k.startswith("matsuri.") for c in configs for k, _ in c.overrides)


@cases(FAST)
def test_referee_agrees_matsuri(spec: str, seed: int, games: int) -> None:
    """The referee accepts every Matsuri game and recomputes every kernel column."""
    referee_agrees(spec, seed, games)


@cases(SLOW, slow=True)
def test_referee_agrees_matsuri_slow(spec: str, seed: int, games: int) -> None:
    referee_agrees(spec, seed, games)


def test_conformance_games_exercise_every_matsuri_card() -> None:
    """In the first 150 games of every slow configuration every card is kept at an Inn and some come
    through Hanabi, spaces close fully and by half, every Matsuri option is both taken and declined,
    o-Bon sees 0..3 coins, Gion picks and o-Tsukimi shares a card, every token kind is taken."""
    kept: set[int] = set()
    hanabi: set[int] = set()
    closes: set[int] = set()
    options: set[tuple[int, int]] = set()
    picks: set[int] = set()
    tokens: set[int] = set()
    for e in logged_events(SLOW, 150):
        if e[0] == Ev.MATSURI:
            (hanabi if e[5] == 1 else kept).add(e[2])
        elif e[0] == Ev.CLOSE:
            closes.add(e[3])
        elif e[0] == Ev.OPTION and e[2] >= Opt.OBON:
            options.add((e[2], e[3]))
        elif e[0] == Ev.PICK:
            picks.add(e[2])
        elif e[0] == Ev.TOKEN:
            tokens.add(e[2])
    n_cards = len(setup(SLOW[0][0])[1].raw["matsuri"]["card"])
    assert kept == set(range(n_cards))
    assert len(hanabi) >= 10
    assert closes == {0, 1}
    assert {(o, b) for o in (Opt.HADAKA, Opt.YAMA_NO_KO, Opt.OTAUE) for b in (0, 1)} <= options
    assert {(Opt.OBON, k) for k in range(4)} <= options
    assert picks == {3, 6}
    assert tokens == {0, 1, 2}


@profile_cases(FAST, games=6, seed_offset=500)
def test_referee_agrees_under_each_online_profile(profile: str, spec: str, seed: int, games: int) -> None:
    """The same configurations under ``--rules online`` and ``online-2020`` (docs/rules-choices.md, "Rules
    profiles")."""
    referee_agrees_under(profile, spec, seed, games)


@profile_cases(FAST, games=200, seed_offset=700, slow=True)
def test_referee_agrees_under_each_online_profile_slow(
    profile: str, spec: str, seed: int, games: int
) -> None:
    referee_agrees_under(profile, spec, seed, games)
