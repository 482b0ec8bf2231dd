"""Scoring arithmetic of the referee: souvenir sets, temple ranking, achievements, ranks, rows.

Pure functions on plain Python values, each written from the rulebook text
(seed 000) and ``docs/rules-choices.md``; the referee calls them, the tests
check them against the rulebook examples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kernels.tokaido.core.enums import Calli
from sim.games.tokaido.referee.state import GameState, TravelerState

# Result columns the referee recomputes (kernels.tokaido.core.enums.RESULT_FIELDS minus game and bot).
ROW_FIELDS = (
    "player",
    "seat",
    "traveler",
    "alt_traveler",
    "score",
    "rank",
    "win_k",
    "pts_meals",
    "pts_souvenirs",
    "pts_panoramas",
    "pts_hot_springs",
    "pts_temple",
    "pts_temple_bonus",
    "pts_encounters",
    "pts_achievements",
    "pts_other",
    "pts_cherry_trees",
    "pts_bathhouses",
    "pts_legendary",
    "pts_calligraphy",
    "meals",
    "meal_value",
    "souvenirs",
    "hot_springs",
    "encounters",
    "achievements",
    "donated",
    "coins_left",
    "coins_start",
    "stops",
    "panoramas",
    "cherry_trees",
    "bathhouses",
    "legendary",
    "calligraphy",
    "amulets",
)
# Matsuri games add these (docs/log-format.md "Matsuri", Results); the per-game cards repeat on every row.
MATSURI_ROW_FIELDS = (
    "pts_matsuri",
    "dolls",
    "carps",
    "matsuri_tokens",
    "matsuri_inn1",
    "matsuri_inn2",
    "matsuri_inn3",
    "matsuri_rej1",
    "matsuri_rej2",
    "matsuri_rej3",
    "matsuri_hanabi1",
    "matsuri_hanabi2",
)
END_ACHIEVEMENTS = ("gourmet", "bather", "chatterbox", "collector")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ---------------------------------------------------------------- souvenirs
def souvenir_points(
    family_counts: Sequence[int], family: int, set_points: Sequence[int]
) -> tuple[int, int, int]:
    """Points for adding one card of ``family`` to a collection holding ``family_counts``.

    The k-th card of a family joins set k; a set's i-th different family scores
    ``set_points[i-1]`` (1/3/5/7). Returns (points, set number, place in the set),
    both 1-based.
    """
    k = family_counts[family] + 1
    size = 1 + sum(1 for f, c in enumerate(family_counts) if f != family and c >= k)
    return set_points[min(size, len(set_points)) - 1], k, size


def souvenir_collection_points(
    families: Sequence[int], set_points: Sequence[int], n_families: int = 4
) -> int:
    """Total souvenir points of a collection given as a list of family ids (any order)."""
    counts = [0] * max(n_families, max(families, default=0) + 1)
    total = 0
    for f in families:
        total += souvenir_points(counts, f, set_points)[0]
        counts[f] += 1
    return total


# ---------------------------------------------------------------- temple
def temple_bonus(donations: Sequence[int], ranking_points: Sequence[int]) -> list[int]:
    """End-of-game temple ranking: dense ranks over the distinct amounts donated.

    The largest amount scores ranking_points[0] (10), the next distinct amount the
    next value (7, 4), every further donor the last value (2); ties share a value
    and skip none; a traveler who donated nothing scores nothing.
    """
    amounts = sorted({d for d in donations if d > 0}, reverse=True)
    value = {amt: ranking_points[min(i, len(ranking_points) - 1)] for i, amt in enumerate(amounts)}
    return [value[d] if d > 0 else 0 for d in donations]


# ---------------------------------------------------------------- achievements and ranks
def achievement_winners(counts: Sequence[int], min_count: int) -> list[int]:
    """Indices of everyone tied for the best count; nobody if the best is below ``min_count`` (C11)."""
    if not counts:
        return []
    best = max(counts)
    if best < min_count:
        return []
    return [i for i, c in enumerate(counts) if c == best]


def end_achievement_count(tr: TravelerState, name: str) -> int:
    """The count an end achievement compares; Crossroads cards count too (C31, zero in base games)."""
    if name == "gourmet":
        return tr.meal_value  # printed costs (C22)
    if name == "bather":
        return len(tr.hot_springs) + tr.bathhouses
    if name == "chatterbox":
        return len(tr.encounters) + len(tr.calligraphy)
    return len(tr.souvenirs) + len(tr.legendary)


# ---------------------------------------------------------------- Crossroads
def script_purchase_points(souvenirs: int, legendary: int, per_card: int = 1) -> int:
    """A Script object (Shodo, Emaki) on purchase: a point per Souvenir and other Legendary Object held
    (C29)."""
    return per_card * (souvenirs + legendary)


def patience_points(arrival: int, n_travelers: int, params: dict[str, int]) -> int:
    """Patience: ``arrival`` is the 0-based order of arrival at the final Inn among ``n_travelers`` (C33)."""
    from_last = n_travelers - 1 - arrival
    if from_last == 0:
        return params["PATIENCE_LAST"]
    if from_last == 1:
        return params["PATIENCE_SECOND"]
    return params["PATIENCE_OTHER"]


def calligraphy_points(
    kind: int,
    params: dict[str, int],
    *,
    coins: int = 0,
    complete_panoramas: int = 0,
    cherry_trees: int = 0,
    legendary: int = 0,
    souvenirs: int = 0,
    arrival: int = 0,
    n_travelers: int = 1,
    achievements: int = 0,
    calligraphy: int = 1,
    inn_meals: int = 0,
) -> int:
    """End points of one Calligraphy card (seed 002 "Calligraphy"; C32-C34)."""
    p = params
    if kind == Calli.FORESIGHT:
        return p["FORESIGHT"] * coins
    if kind == Calli.CONTEMPLATION:
        return p["CONTEMPLATION_PAN"] * complete_panoramas + p["CONTEMPLATION_CHERRY"] * cherry_trees
    if kind == Calli.NOSTALGIA:
        return p["NOSTALGIA_LEGEND"] * legendary + p["NOSTALGIA_SOUVENIR"] * souvenirs
    if kind == Calli.PATIENCE:
        return patience_points(arrival, n_travelers, p)
    if kind == Calli.PERFECTION:
        return p["PERFECTION_ACH"] * achievements + p["PERFECTION_CALLI"] * calligraphy  # counts itself
    if kind == Calli.FASTING:
        return p["FASTING_MEAL"] * max(0, p["FASTING_INNS"] - inn_meals)
    raise ValueError(f"unknown Calligraphy kind {kind}")


def final_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Competition ranking by (score, achievements), highest first; equal keys share a rank (C18)."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


# ---------------------------------------------------------------- rows
def build_rows(state: GameState, ranks: Sequence[int] | None = None) -> list[dict[str, int]]:
    """The referee's result row for every player (rank/win_k 0 if the game is unfinished)."""
    players = state.players()
    if ranks is None:
        ranks = [0] * len(players)
    win_k = sum(1 for r in ranks if r == 1)
    rows = []
    for tr, rank in zip(players, ranks, strict=True):
        row: dict[str, Any] = {
            "player": tr.index,
            "seat": tr.seat,
            "traveler": tr.traveler_id,
            "alt_traveler": tr.alt_traveler,
            "score": tr.score,
            "rank": rank,
            "win_k": win_k if rank == 1 else 0,
        }
        row.update(tr.points)
        row.update(
            meals=len(tr.meals),
            meal_value=tr.meal_value,
            souvenirs=len(tr.souvenirs),
            hot_springs=len(tr.hot_springs),
            encounters=len(tr.encounters),
            achievements=len(tr.achievements),
            donated=tr.donated,
            coins_left=tr.coins,
            coins_start=tr.coins_start,
            stops=tr.stops,
            panoramas=sum(tr.panorama),
            cherry_trees=tr.cherry_trees,
            bathhouses=tr.bathhouses,
            legendary=len(tr.legendary),
            calligraphy=len(tr.calligraphy),
            amulets=tr.amulets_acquired,
        )
        fields: tuple[str, ...] = ROW_FIELDS
        if state.matsuri:
            m = state.m
            hanabi = (m.hanabi + [-1, -1])[:2]
            row.update(
                dolls=tr.dolls,
                carps=tr.carps,
                matsuri_tokens=tr.m_tokens,
                **{f"matsuri_inn{i + 1}": m.kept[i] for i in range(3)},
                **{f"matsuri_rej{i + 1}": m.rejected[i] for i in range(3)},
                **{f"matsuri_hanabi{i + 1}": hanabi[i] for i in range(2)},
            )
            fields = ROW_FIELDS + MATSURI_ROW_FIELDS
        rows.append({k: int(row[k]) for k in fields})
    return rows


def compare_rows(
    ours: Sequence[dict[str, int]], theirs: Sequence[dict[str, Any]], names: Sequence[str]
) -> list[str]:
    """One message per differing value; ``win_k`` is compared for winners only."""
    if len(theirs) != len(ours):
        return [f"the engine gave {len(theirs)} result rows for {len(ours)} players"]
    by_player = {int(r["player"]): r for r in theirs if "player" in r}
    out = []
    for i, mine in enumerate(ours):
        other = by_player.get(mine["player"], theirs[i])
        for f in mine:
            if f == "win_k" and mine["rank"] != 1:
                continue
            if f not in other:
                out.append(f"player {mine['player']} ({names[i]}): the engine row has no '{f}'")
                continue
            if int(other[f]) != mine[f]:
                out.append(
                    f"player {mine['player']} ({names[i]}) {f}: referee {mine[f]}, engine {int(other[f])}"
                )
    return out
