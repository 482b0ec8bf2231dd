"""The referee's Matsuri rules as plain arithmetic, written from seed 002 ("The Matsuri", "Matsuri effects").

Pure functions and one small state object, kept apart from the log handling
(``sim/games/tokaido/referee/matsuri.py``) so the tests can check each rule on hand-built
values: which spaces a closure card closes, what a Doll or Carp token scores,
the Tanabata and Shishimai interim awards, who completes Sea through o-Fune,
what a meal costs under Cho-yo. Choices M1-M30 are those of
``../shared/research/expansions.md`` part A, as recorded in ``docs/rules-choices.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from kernels.tokaido.core.enums import Space
from sim.games.tokaido.referee.scoring import souvenir_points, temple_bonus

# The 20 festivals by the rulebook's names (seed 002:L1035-1057, L1273-1562), keyed as in the data.
NOW, LEG, NEXT_INN = "now", "leg", "next_inn"
CARD_TIMING: dict[str, str] = {
    "hadaka": LEG,
    "ohanami": LEG,
    "gion": LEG,
    "kamiarisai": LEG,
    "toka_ebisu": LEG,
    "mura": LEG,
    "obon": NOW,
    "tori_no_ichi": NOW,
    "hina": NOW,
    "tango": NOW,
    "hanabi": NOW,
    "ofune": NOW,
    "oshogatsu": NOW,
    "setsubun": NOW,
    "tanabata": NOW,
    "otsukimi": NOW,
    "shishimai": NOW,
    "choyo": NEXT_INN,
    "yama_no_ko": LEG,
    "otaue": LEG,
}
# "each Temple / Shop / Farm closes one of its spaces" (Kamiarisai, Toka Ebisu, Mura matsuri)
CLOSURE_SPACE = {"kamiarisai": Space.TEMPLE, "toka_ebisu": Space.VILLAGE, "mura": Space.FARM}
SMALL_OBJECTS = 0  # the Doll / Carp token "counts as a Souvenir of the type small objects"


# ---------------------------------------------------------------- closed spaces
def closures(
    board: Sequence[int],
    double: Sequence[int],
    inn: int,
    next_inn: int,
    kind: int,
    n_travelers: int,
    tokens: int,
) -> dict[int, int]:
    """The spaces a closure card closes for the leg from ``inn`` to ``next_inn`` (M10-M11).

    Every ``kind`` station of the leg closes one space: a single one closes
    completely, a double one loses its off-road space and becomes single. With
    fewer than 4 travelers a double station already has one usable space (base
    rule), and closing the off-road space changes nothing. No more spaces close than ``tokens`` left,
    taken along the road.
    """
    out: dict[int, int] = {}
    for pos in range(inn + 1, next_inn):
        if board[pos] != kind or len(out) >= tokens:
            continue
        if double[pos] and n_travelers < 4:
            continue  # M11: its off-road space is out of play anyway
        out[pos] = 1
    return out


def usable_slots(double: bool, n_travelers: int, closed: int) -> int:
    """Spaces of a station a traveler can stop on: 1 or 2 (double, 4-5 travelers), minus those closed."""
    slots = 2 if double and n_travelers >= 4 else 1
    return max(0, slots - closed)


# ---------------------------------------------------------------- Doll / Carp tokens
def token_points(
    family_counts: Sequence[int], set_points: Sequence[int], family: int = SMALL_OBJECTS
) -> tuple[int, int, int]:
    """Points of a Doll or Carp token added to a collection: a Souvenir of ``family`` (Small objects,
    ``matsuri.doll_family``) for sets only (M17).

    Returns (points, set number, place in the set) like ``souvenir_points``.
    """
    return souvenir_points(family_counts, family, set_points)


# ---------------------------------------------------------------- Shishimai, Tanabata
def shishimai_points(donations: Sequence[int], points: Sequence[int]) -> list[int]:
    """Interim Temple ranking: the top three distinct amounts score 4 / 2 / 1; ties share (M23).

    ``donations`` covers every traveler, the 2-player Neutral included: its coins
    take a rank (the caller gives it no points).
    """
    return temple_bonus(donations, [*points, 0])


def tanabata_winners(counts: Sequence[int], min_count: int) -> list[int]:
    """Indices of the players who would win an end achievement now: all tied for first (M21, C11)."""
    if not counts or max(counts) < min_count:
        return []
    best = max(counts)
    return [i for i, c in enumerate(counts) if c == best]


# ---------------------------------------------------------------- o-Fune
def ofune_completers(before: Sequence[int], length: int) -> list[int]:
    """Players who complete Sea through o-Fune: held ``length - 1`` Sea sections (those complete get none)."""
    return [i for i, held in enumerate(before) if held == length - 1]


# ---------------------------------------------------------------- Cho-yo
def cho_yo_price(price: int, discount: int) -> int:
    """A meal's price at the Cho-yo Inn: the price after abilities, less the discount, at least 0 (M24)."""
    return max(0, price - discount)
