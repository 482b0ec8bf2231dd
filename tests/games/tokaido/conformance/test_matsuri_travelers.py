"""Matsuri Travelers conformance: the independent referee
(``sim/games/tokaido/referee/matsuri_travelers.py``) agrees with
the kernels on games with ``--expansions crossroads,matsuri`` (the pool then holds the 16 Matsuri Travelers),
2-5 players, variants and New Encounters, random and fixed Travelers, the MT-* choices flipped.

* ``test_referee_agrees_matsuri_travelers``: the fast set, ~300 games.
* ``test_referee_agrees_matsuri_travelers_slow``: >= 20,000 games (``make test-slow``).
"""

from __future__ import annotations

from tests.helpers.conformance import ALL_VARIANTS, cases, profile_cases, referee_agrees, referee_agrees_under

MT = "expansions=crossroads+matsuri"
MT_NE = "expansions=crossroads+matsuri+new-encounters"
ABIL = "set:abilities."
GROUP1 = "travelers=ayumu+chihaya+iyasaka+kamui+kidzuna"
GROUP2 = "travelers=kushinada+mari+marihito+misaki+musubi"
GROUP3 = "travelers=mutsumi+rakuren+suseri+takeru+titia"
GROUP4 = "travelers=yashima+kushinada+musubi+takeru"
GROUP3_OF_1 = "travelers=chihaya+iyasaka+kamui"

# (spec, seed); the slow test plays each for SLOW games, the fast one FAST
CONFORMANCE: list[tuple[str, int]] = [
    (f"players=2,{MT}", 4101),
    (f"players=3,{MT},travelers=random,bots=random", 4102),
    (f"players=4,{MT}", 4103),
    (f"players=5,{MT},travelers=random,bots=greedy+random+greedy+random+greedy", 4104),
    (f"players=5,{MT},{GROUP1},bots=random", 4105),
    (f"players=5,{MT},{GROUP2},bots=random", 4106),
    (f"players=5,{MT},{GROUP3},bots=random", 4107),
    (f"players=4,{MT_NE},{GROUP4}", 4108),
    (f"players=2,{MT},travelers=musubi+kushinada,bots=random", 4109),
    (f"players=3,variants=return-trip+gastronomy,{MT_NE},travelers=random,bots=random", 4110),
    (f"players=4,variants=preparations,{MT},travelers=random", 4111),
    (f"players=2,{ALL_VARIANTS},{MT_NE},bots=random", 4112),
    (
        f"players=5,{MT},{GROUP2},{ABIL}musubi_timing=all_arrived,{ABIL}mari_double_devotion=true,bots=random",
        4113,
    ),
    (f"players=5,{MT},{GROUP1},{ABIL}kamui_free_meal_cancels=false,bots=random", 4114),
    (f"players=4,{MT},{GROUP4},{ABIL}yashima_same_inn=true,bots=random", 4115),
    ("players=3,expansions=promos,travelers=random,bots=random", 4116),
    ("players=4,expansions=crossroads+promos,travelers=titia+yashima+kinko+jirocho", 4117),
    (f"players=4,{MT},travelers=random,bots=expert", 4118),
    (f"players=3,{MT},{GROUP3_OF_1},bots=heuristic+tuned+expert", 4119),
    (f"players=5,{MT},{GROUP3},bots=expert", 4120),
    (f"players=4,{MT},set:draft.dealt=3,bots=greedy+random+expert+heuristic", 4121),
    (f"players=5,{MT_NE},set:draft.mode=free,bots=random+greedy+heuristic+tuned+expert", 4122),
    # Rakuren's Shop draw, with Titia's and Felicia's prices at the same table
    (
        "players=4,expansions=crossroads+matsuri+promos,travelers=rakuren+titia+felicia+ayumu,"
        "bots=greedy+heuristic+expert+random",
        4123,
    ),
    (f"players=2,{MT},travelers=rakuren+sasayakko,{ABIL}rakuren_legendary=false,bots=random", 4124),
    (f"players=3,{MT},travelers=rakuren+zen-emon+kinko,bots=tuned+expert+greedy", 4125),
]
FAST, SLOW = 18, 1200


@cases(CONFORMANCE, games=FAST)
def test_referee_agrees_matsuri_travelers(spec: str, seed: int, games: int) -> None:
    referee_agrees(spec, seed, games)


@cases(CONFORMANCE, games=SLOW, seed_offset=100, slow=True)
def test_referee_agrees_matsuri_travelers_slow(spec: str, seed: int, games: int) -> None:
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
