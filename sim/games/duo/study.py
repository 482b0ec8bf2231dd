"""``duo study``: which conclusions survive what is not known of Duo (research expansions.md C.6).

Every number table and the whole map of Duo are unknown (``sim/games/duo/data/unknowns.toml``).
The study samples ``worlds`` plausible versions of the game (``sim.games.duo.unknowns``: a
Latin hypercube over every unknown number and a random map of the board family), plays
``games`` greedy-vs-greedy games in each, and again with two rule readings (D2 walk
paths, D4 mandatory actions), on the same seeds.
Each conclusion (``CONCLUSIONS``: the claims the docs and reports make about Duo) is an
effect measured in every world with its standard error; ``sim.games.duo.study_report`` turns
them into verdicts (robust in >= 95% of the worlds, depends on named unknowns, or
unsupported) and the markdown. The shipped reconstruction is measured too, as a
reference outside the counts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import polars as pl

from sim.games.duo.engine import play_duo_games
from sim.games.duo.rules import DuoRules, from_raw
from sim.games.duo.unknowns import Unknowns, load_unknowns, sample_worlds, world_rules

TRIGGERS = ("temple", "garden", "gold", "gift")
CHARS = ("pilgrim", "merchant", "artist")
GOLD_RARE = 0.05  # "gold rarely ends a game": in fewer than 5% of games

# The rule readings played in every world beside the defaults: name -> [choices] changes.
SETTINGS: dict[str, dict[str, Any]] = {
    "walk": {"merchant_path": "walk"},
    "mandatory": {"actions_optional": False, "seashore_optional": False, "hot_spring_optional": False},
}
# The seed's two musts (003:L34, L70) are not compared: the greedy bot always takes a wave tile and the
# Hot Spring token when it may, so their optional reading replays the very same greedy games.


@dataclass(frozen=True)
class Conclusion:
    effect: str  # the column of the per-world effects
    sign: int  # +1: it holds in a world where the effect is > 0; -1: where it is < 0
    says: str  # the claim, in words


CONCLUSIONS = (
    Conclusion(
        "hot_spring_user_win_minus_non_user", +1, "players who use the Hot Spring token win more often"
    ),
    *(
        Conclusion(
            f"{c}_wave_holder_win_minus_half",
            +1,
            f"the holder of the {c} wave tile at the end wins more than half",
        )
        for c in CHARS
    ),
    Conclusion("gift_share_minus_best_other", +1, "the gift is the most common end trigger"),
    Conclusion("gold_share_minus_5pct", -1, "gold (the 6th slab) ends fewer than 5% of games"),
    Conclusion(
        "pilgrim_points_minus_best_other", +1, "the pilgrim earns the most points of the three characters"
    ),
    Conclusion("merchant_points_minus_lowest_other", -1, "the merchant earns the fewest points of the three"),
    Conclusion("first_picker_win_minus_half", -1, "the round-1 first picker wins less than half"),
    Conclusion("d2_walk_minus_simple_rounds", -1, "D2 walk paths make games shorter than simple paths"),
    Conclusion("d4_mandatory_minus_optional_rounds", -1, "D4 mandatory actions make games shorter"),
)


def _win(rec: np.ndarray) -> np.ndarray:
    return np.where(rec["rank"] == 1, 1.0 / rec["win_k"], 0.0)


def _mean_se(x: np.ndarray) -> tuple[float, float]:
    if len(x) == 0:
        return float("nan"), float("nan")
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


def _diff(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    (ma, sa), (mb, sb) = _mean_se(a), _mean_se(b)
    return ma - mb, float(np.hypot(sa, sb))


def effects(base: np.ndarray, alt: dict[str, np.ndarray]) -> dict[str, tuple[float, float]]:
    """Every effect of one world, ``(value, standard error)``, from the result records of its runs."""
    win = _win(base)
    out: dict[str, tuple[float, float]] = {}
    m, s = _mean_se(win[base["first"] == 1])
    out["first_picker_win_minus_half"] = (m - 0.5, s)
    used = base["hs_used"] > 0
    out["hot_spring_user_win_minus_non_user"] = _diff(win[used], win[~used])
    for bit, name in enumerate(CHARS):
        m, s = _mean_se(win[(base["waves_held"] >> bit) & 1 == 1])
        out[f"{name}_wave_holder_win_minus_half"] = (m - 0.5, s)
    games = base[base["player"] == 0]
    bits = {t: ((games["end_triggers"] >> k) & 1).astype(float) for k, t in enumerate(TRIGGERS)}
    for t in TRIGGERS:
        out[f"share_{t}"] = _mean_se(bits[t])
    other = max(("temple", "garden", "gold"), key=lambda t: bits[t].mean())
    out["gift_share_minus_best_other"] = _mean_se(bits["gift"] - bits[other])
    m, s = out["share_gold"]
    out["gold_share_minus_5pct"] = (m - GOLD_RARE, s)
    pts = {c: base[f"pts_{c}"].astype(float) for c in CHARS}
    for c in CHARS:
        out[f"points_{c}"] = _mean_se(pts[c])
    best = max(("merchant", "artist"), key=lambda c: pts[c].mean())
    out["pilgrim_points_minus_best_other"] = _mean_se(pts["pilgrim"] - pts[best])
    low = min(("pilgrim", "artist"), key=lambda c: pts[c].mean())
    out["merchant_points_minus_lowest_other"] = _mean_se(pts["merchant"] - pts[low])
    rounds = games["rounds"].astype(float)
    out["rounds"] = _mean_se(rounds)
    for name, col in (
        ("walk", "d2_walk_minus_simple_rounds"),
        ("mandatory", "d4_mandatory_minus_optional_rounds"),
    ):
        if name in alt:
            g = alt[name][alt[name]["player"] == 0]
            out[col] = _diff(g["rounds"].astype(float), rounds)
    return out


def _with_choices(rules: DuoRules, changes: dict[str, Any]) -> DuoRules:
    rraw = {**rules.rules_raw, "choices": {**rules.rules_raw["choices"], **changes}}
    return from_raw(rules.board_raw, rraw, rules.board.path, "study setting", rules.overrides)


def play_world(
    rules: DuoRules, seed: int, games: int, threads: int | None = None
) -> dict[str, tuple[float, float]]:
    """The effects of one world: its default rules and every ``SETTINGS`` reading, on the same seeds."""

    def rec(r: DuoRules) -> np.ndarray:
        return play_duo_games(r, seed, 0, games, ("greedy", "greedy"), threads=threads).records

    alt = {name: rec(_with_choices(rules, SETTINGS[name])) for name in readings(rules)}
    return effects(rec(rules), alt)


def readings(rules: DuoRules) -> list[str]:
    """The ``SETTINGS`` that differ from ``rules``' own choices (the others would replay the same games)."""
    return [
        name
        for name, ch in SETTINGS.items()
        if any(rules.rules_raw["choices"].get(k) != v for k, v in ch.items())
    ]


@dataclass
class StudyResult:
    worlds: pl.DataFrame  # one row per sampled world: the unknowns' values (as measured) and every effect
    shipped: dict[str, tuple[float, float]]  # the effects on the base rules (the shipped reconstruction)
    values: list[dict[str, Any]]  # each world's sampled values, as set
    unknowns: Unknowns
    settings: dict[str, Any] = field(default_factory=dict)  # seed, worlds, games, vary, base provenance ...


def study(
    base: DuoRules,
    worlds: int,
    games: int,
    seed: int,
    vary: str = "both",
    threads: int | None = None,
    unknowns: Unknowns | None = None,
    on_world: Callable[[int], None] | None = None,
) -> StudyResult:
    """Play ``worlds`` sampled worlds (and the base rules) and measure every effect in each."""
    u = unknowns or load_unknowns()
    t0 = time.perf_counter()
    shipped = play_world(base, seed, games, threads)
    values = sample_worlds(u, worlds, seed, vary)
    rows = []
    for i, v in enumerate(values):
        rules = world_rules(base, v, seed, i, vary)
        e = play_world(rules, seed, games, threads)
        row: dict[str, Any] = {"world": i, "board": rules.board.provenance}
        row.update({f"u:{d.key}": d.scalar(v[d.key]) for d in u.varied(vary)})
        if vary != "numbers":
            row["m:board.mountain_values"] = float(sum(rules.board.mountain_value.values()))
        for k, (val, se) in e.items():
            row[k], row[f"{k}:se"] = val, se
        rows.append(row)
        if on_world is not None:
            on_world(i + 1)
    settings = {
        "seed": seed,
        "worlds": worlds,
        "games": games,
        "vary": vary,
        "threads": threads,
        "base": base.provenance(),
        "overrides": [[k, v] for k, v in base.overrides],
        "unknowns": u.provenance,
        "unknowns_fingerprint": u.fingerprint(),
        "seconds": round(time.perf_counter() - t0, 1),
        "games_played": (worlds + 1) * games * (1 + len(readings(base))),
    }
    return StudyResult(pl.DataFrame(rows), shipped, values, u, settings)
