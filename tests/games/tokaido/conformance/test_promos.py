"""Promo Travelers' conformance: the referee agrees with the kernels on games with Antoine, Naiade,
Eriku and Felicia, with the base game and with Crossroads, at 2-5 players.

* ``test_referee_agrees_promos_fast``: every configuration, 25 games each (375 games), in the
  normal suite.
* ``test_referee_agrees_promos`` (``@pytest.mark.slow``, ``make test-slow``): the same 15
  configurations, 1,000 games each (15,000 games): greedy, random, heuristic and expert bots,
  fixed and random Travelers, Crossroads with and without New Encounters, and three with Matsuri
  (ix: 10 combined configurations x 200 games, 0 of 2,000 disagree after its fixes).
* ``test_promo_games_exercise_every_promo_rule``: those games hold duels for every kind of card
  with a cost, won and lost rounds, Eriku's start meal bought and refused, his top card bought
  and left, and Naiade's reverse panoramas.

    .venv/bin/pytest -n 2 -m slow tests/games/tokaido/conformance/test_promos.py
"""

from __future__ import annotations

from kernels.tokaido.core.enums import Deck, Ev
from sim.games.tokaido.rules.config import GameConfig
from tests.helpers.conformance import (
    cases,
    logged_events,
    profile_cases,
    referee_agrees,
    referee_agrees_under,
)

PR = "expansions=promos"
XR = "expansions=crossroads+promos"
XR_NE = "expansions=crossroads+new-encounters+promos"
MX = "expansions=crossroads+matsuri+promos"
MX_NE = "expansions=crossroads+matsuri+new-encounters+promos"
FOUR = "antoine+naiade+eriku+felicia"

# (spec, seed); every spec is GameConfig.spec()-style
CONFORMANCE: list[tuple[str, int]] = [
    (f"players=2,{PR},travelers=felicia+eriku", 1501),
    (f"players=3,{PR},travelers=antoine+naiade+felicia,bots=random", 1502),
    (f"players=4,{PR},travelers={FOUR}", 1503),
    (f"players=5,{PR},travelers={FOUR}+kinko,bots=greedy+random+greedy+random+greedy", 1504),
    (f"players=4,{PR},travelers=random,bots=heuristic", 1505),
    (f"players=2,{XR},travelers=naiade+antoine,bots=random", 1506),
    (f"players=3,{XR},travelers=eriku+felicia+nampo", 1507),
    (f"players=4,{XR},travelers={FOUR},bots=random", 1508),
    (f"players=5,{XR},travelers={FOUR}+satsuki", 1509),
    (f"players=4,{XR_NE},travelers=felicia+eriku+hiroshige+antoine,bots=random+greedy+random+greedy", 1510),
    (f"players=4,{XR},travelers=random,bots=expert", 1511),
    (f"players=3,variants=gastronomy+preparations,{XR_NE},travelers=felicia+naiade+eriku,bots=random", 1512),
    # with Matsuri (ix): Antoine's Matsuri ties, Naiade's o-Fune, Eriku's look at a Cho-yo hand, o-Tsukimi
    (f"players=4,{MX},travelers={FOUR}", 9103),
    (f"players=5,variants=return-trip,{MX},travelers=random,bots=random", 9108),
    (f"players=3,variants=gastronomy+preparations,{MX_NE},travelers=felicia+naiade+eriku,bots=random", 9107),
]
SLOW_GAMES, FAST_GAMES = 1000, 25


def test_conformance_covers_promos() -> None:
    """At least 10,000 games with promos over 2-5 players, with and without Crossroads, every promo
    Traveler named, random Travelers too, and every bot kind that plays them."""
    configs = [GameConfig.parse(s) for s, _ in CONFORMANCE]
    assert SLOW_GAMES * len(CONFORMANCE) >= 10_000
    assert all("promos" in c.expansions for c in configs)
    assert {c.n_players for c in configs} == {2, 3, 4, 5}
    assert {"crossroads" in c.expansions for c in configs} == {True, False}
    named = {n for c in configs if c.travelers not in ("draft", "random") for n in c.travelers.split(",")}
    assert named >= {"antoine", "naiade", "eriku", "felicia"}
    assert {b for c in configs for b in c.bot_names()} >= {"greedy", "random", "heuristic", "expert"}


def test_promo_games_exercise_every_promo_rule() -> None:
    """The checked games reach every promo rule: Felicia duels for souvenirs, meals, Amulets,
    Calligraphy, Legendary Objects and Bathhouses, wins and loses rounds, and declines; Eriku
    looks at the start and at Inns, and his top card is bought and left."""
    duel_decks, rps, declines, looks = set(), set(), set(), set()
    for e in logged_events(CONFORMANCE, 100):
        if e[0] == Ev.DUEL:
            duel_decks.add(e[3])
        elif e[0] == Ev.RPS:
            rps.add(e[3])
        elif e[0] == Ev.OPTION and e[2] == 18:
            declines.add(e[3])
        elif e[0] == Ev.LOOK:
            looks.add(e[3])
    assert duel_decks == {
        Deck.SOUVENIR,
        Deck.MEAL,
        Deck.AMULET,
        Deck.CALLIGRAPHY,
        Deck.LEGENDARY,
        Deck.BATHHOUSE,
    }
    assert rps == {0, 1} and declines == {0, 1} and looks == {0, 1}


@cases(CONFORMANCE, games=FAST_GAMES, seed_offset=100)
def test_referee_agrees_promos_fast(spec: str, seed: int, games: int) -> None:
    """The referee accepts a few games of every promo configuration and recomputes every column."""
    referee_agrees(spec, seed, games)


@cases(CONFORMANCE, games=SLOW_GAMES, slow=True)
def test_referee_agrees_promos(spec: str, seed: int, games: int) -> None:
    """The referee accepts every promo game and recomputes every kernel column (15,000 games)."""
    referee_agrees(spec, seed, games)


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
