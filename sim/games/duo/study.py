"""``duo study --boards K``: which conclusions hold across a family of random boards (expansions.md C.6).

Each board of ``board_gen.board_family(seed, K)`` plays ``games`` greedy games,
and again with the D2 and D4 alternatives. Per board we measure signed
effects; a conclusion is *robust* when its sign is the same on >= 95% of the
boards, else it is "this board only". Every table names the family's
provenance: these are INVENTED boards, not the published map.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from kernels.duo.state import RESULT_FIELDS
from sim.games.duo.board_gen import board_family
from sim.games.duo.engine import play_duo_games
from sim.games.duo.rules import DuoRules, from_raw

ROBUST = 0.95
TRIGGERS = ("temple", "garden", "gold", "gift")


def _mean(s: pl.Series, empty: float = 0.5) -> float:
    return float(s.to_numpy().mean()) if len(s) else empty


def _frame(rules: DuoRules, seed: int, games: int, threads: int | None) -> pl.DataFrame:
    rec = play_duo_games(rules, seed, 0, games, ("greedy", "greedy"), threads=threads).records
    return pl.DataFrame({f: np.asarray(rec[f]) for f in RESULT_FIELDS}).with_columns(
        win=pl.when(pl.col("rank") == 1).then(1.0 / pl.col("win_k")).otherwise(0.0))


def effects(rules: DuoRules, seed: int, games: int, threads: int | None = None) -> dict[str, float]:
    """Signed effects on one board (win-rate points unless named otherwise)."""
    df = _frame(rules, seed, games, threads)
    out = {"first_picker_win_minus_half": _mean(df.filter(pl.col("first") == 1)["win"]) - 0.5}
    used = _mean(df.filter(pl.col("hs_used") > 0)["win"])
    out["hot_spring_user_win_minus_non_user"] = used - _mean(df.filter(pl.col("hs_used") == 0)["win"])
    for c, name in enumerate(("pilgrim", "merchant", "artist")):
        out[f"{name}_wave_holder_win_minus_half"] = _mean(df.filter((pl.col("waves_held") // (1 << c)) % 2 == 1)["win"]) - 0.5
    games_df = df.filter(pl.col("player") == 0)
    for b, name in enumerate(TRIGGERS):
        out[f"share_{name}_trigger"] = _mean((games_df["end_triggers"] // (1 << b)) % 2)
    out["rounds"] = _mean(games_df["rounds"])
    return out


@dataclass
class StudyResult:
    per_board: pl.DataFrame
    table: pl.DataFrame
    provenance: str


def study(base_rules: DuoRules, boards: int, games: int, seed: int, threads: int | None = None) -> StudyResult:
    rows = []
    for i, b in enumerate(board_family(seed, boards)):
        rules = from_raw(b.raw, base_rules.rules_raw)
        e = effects(rules, seed, games, threads)
        walk = from_raw(b.raw, {**base_rules.rules_raw, "choices": {**base_rules.rules_raw["choices"],
                                                                    "merchant_path": "walk"}})
        forced = from_raw(b.raw, {**base_rules.rules_raw, "choices": {**base_rules.rules_raw["choices"],
                                                                      "actions_optional": False}})
        e["d2_walk_minus_simple_rounds"] = effects(walk, seed, games, threads)["rounds"] - e["rounds"]
        e["d4_mandatory_minus_optional_rounds"] = effects(forced, seed, games, threads)["rounds"] - e["rounds"]
        top = max(TRIGGERS, key=lambda t: e[f"share_{t}_trigger"])
        for t in TRIGGERS:
            e[f"top_trigger_is_{t}"] = 1.0 if t == top else -1.0
        rows.append({"board": i, **e})
    per = pl.DataFrame(rows)
    signed = [c for c in per.columns if c not in ("board", "rounds") and not c.startswith("share_")]
    table = []
    for c in signed:
        vals = per[c].to_numpy()
        pos = float((vals > 0).mean())
        neg = float((vals < 0).mean())
        share, sign = (pos, "> 0") if pos >= neg else (neg, "< 0")
        table.append({"effect": c, "sign": sign, "share_of_boards": share, "median": float(np.median(vals)),
                      "verdict": "robust" if share >= ROBUST else "this board only"})
    prov = (f"{boards} generated boards (board_gen, seed {seed}; INVENTED, verified=false), numbers "
            f"{base_rules.numbers.provenance} (verified={str(base_rules.numbers.verified).lower()})")
    return StudyResult(per, pl.DataFrame(table), prov)


# What each signed effect says when it is positive / negative, in words (the markdown's conclusions).
SAYS = {
    "first_picker_win_minus_half": ("the round-1 first picker wins more than half", "the round-1 first picker wins "
                                    "less than half"),
    "hot_spring_user_win_minus_non_user": ("players who use the Hot Spring token win more often",
                                           "players who use the Hot Spring token win less often"),
    "d2_walk_minus_simple_rounds": ("D2 walk paths make games longer than simple paths",
                                    "D2 walk paths make games shorter than simple paths"),
    "d4_mandatory_minus_optional_rounds": ("D4 mandatory actions make games longer than optional ones",
                                           "D4 mandatory actions make games shorter than optional ones"),
    **{f"{c}_wave_holder_win_minus_half": (f"the holder of the {c} wave tile at the end wins more than half",
                                           f"the holder of the {c} wave tile at the end wins less than half")
       for c in ("pilgrim", "merchant", "artist")},
    **{f"top_trigger_is_{t}": (f"{t} is the most common end trigger", f"{t} is not the most common end trigger")
       for t in TRIGGERS},
}


def conclusion(effect: str, sign: str) -> str:
    pos, neg = SAYS.get(effect, (f"{effect} > 0", f"{effect} < 0"))
    return pos if sign == "> 0" else neg


def to_markdown(res: StudyResult, games: int) -> str:
    """Robust conclusions (the same sign on >= 95% of the boards) apart from the board-dependent ones."""
    rows = list(res.table.iter_rows(named=True))
    n = res.per_board.height

    def bullets(verdict: str) -> list[str]:
        rest = "" if verdict == "robust" else ", the opposite (or no difference) on the rest"
        items = [f"- {conclusion(r['effect'], r['sign'])}: on {r['share_of_boards']:.0%} of the boards{rest} "
                 f"(median {r['median']:+.3f}; `{r['effect']}`)" for r in rows if r["verdict"] == verdict]
        return items or ["- none"]

    lines = [f"# Duo board-family study ({n} boards, {games} greedy games per board and setting)", "",
             f"Provenance: {res.provenance}. Not the published board.", "",
             f"## Robust: the same sign on at least {ROBUST:.0%} of the boards", "", *bullets("robust"), "",
             "## This board only: the sign depends on the board", "", *bullets("this board only"), "",
             "Win-rate effects are in win-rate units (0.05 = 5 points), round effects in rounds. The Hot Spring "
             "and wave-tile effects are associations among greedy games, not causal values.", "",
             "## All effects", "",
             "| effect | sign | share of boards | median | verdict |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['effect']} | {r['sign']} | {r['share_of_boards']:.0%} | {r['median']:+.3f} | "
                     f"{r['verdict']} |")
    return "\n".join(lines) + "\n"
