"""Verdicts, dependence tables and the markdown of a ``duo study`` (``sim.games.duo.study``).

A conclusion *holds* in a world when its effect has the stated sign there. Its verdict:

- **robust**: it holds in at least 95% of the sampled worlds (the count is given);
- **contradicted**: it holds in at most 5% of them (the opposite is robust);
- **depends on**: neither, and some unknowns go with the effect: a Spearman rank
  correlation across the worlds whose Holm-adjusted p-value (over the unknowns, per
  conclusion) is below 5%; the table gives the share of worlds where it holds at the
  low and the high end of each such unknown (partial dependence);
- **unsupported**: neither, and no sampled unknown explains where it holds (the map, or
  an effect too small for the games per world).

A world's sign is its point estimate; ``clear`` counts the worlds where the effect is
more than two standard errors from zero, so a reader can tell noise from a real split.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy.stats import spearmanr
from statsmodels.stats.multitest import multipletests

from sim.games.duo.study import CONCLUSIONS, SETTINGS, StudyResult
from sim.games.duo.unknowns import text_of

ROBUST = 0.95
ALPHA = 0.05
FILES = ("study.md", "worlds.csv", "verdicts.csv", "dependence.csv", "study.json")


def _columns(res: StudyResult) -> list[str]:
    """The per-world explanatory columns: sampled unknowns (``u:``) and measured map features (``m:``)."""
    return [c for c in res.worlds.columns if c.startswith(("u:", "m:"))]


def _ends(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, str, str]:
    """Masks of the worlds at the low and the high end of ``x`` (its extreme levels, or its outer thirds)."""
    levels = np.unique(x)
    if len(levels) <= 4:
        return x == levels[0], x == levels[-1], f"{levels[0]:g}", f"{levels[-1]:g}"
    lo, hi = np.quantile(x, [1 / 3, 2 / 3])
    return x <= lo, x >= hi, f"<= {lo:.3g}", f">= {hi:.3g}"


def dependence(res: StudyResult) -> pl.DataFrame:
    """Per conclusion and unknown: Spearman rho, p, Holm p (per conclusion), where it holds at each end."""
    rows = []
    for c in CONCLUSIONS:
        if c.effect not in res.worlds.columns:
            continue
        eff = res.worlds[c.effect].to_numpy().astype(float)
        ok = ~np.isnan(eff)
        part = []
        for col in _columns(res):
            x = res.worlds[col].to_numpy().astype(float)[ok]
            y = eff[ok]
            if len(np.unique(x)) < 2 or len(np.unique(y)) < 2 or len(y) < 4:
                continue
            rho, p = spearmanr(x, y)
            low, high, lo_text, hi_text = _ends(x)
            holds = c.sign * y > 0
            part.append(
                {
                    "conclusion": c.effect,
                    "unknown": col[2:],
                    "sampled": col.startswith("u:"),
                    "rho": float(rho),
                    "p": float(p),
                    "low": lo_text,
                    "holds_low": int(holds[low].sum()),
                    "worlds_low": int(low.sum()),
                    "high": hi_text,
                    "holds_high": int(holds[high].sum()),
                    "worlds_high": int(high.sum()),
                }
            )
        if part:
            adj = multipletests([r["p"] for r in part], alpha=ALPHA, method="holm")[1]
            for r, a in zip(part, adj, strict=True):
                r["p_holm"] = float(a)
            rows += part
    schema = {
        "conclusion": pl.String,
        "unknown": pl.String,
        "sampled": pl.Boolean,
        "rho": pl.Float64,
        "p": pl.Float64,
        "low": pl.String,
        "holds_low": pl.Int64,
        "worlds_low": pl.Int64,
        "high": pl.String,
        "holds_high": pl.Int64,
        "worlds_high": pl.Int64,
        "p_holm": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


def verdicts(res: StudyResult, dep: pl.DataFrame | None = None) -> pl.DataFrame:
    dep = dependence(res) if dep is None else dep
    rows = []
    for c in CONCLUSIONS:
        if c.effect not in res.worlds.columns:
            continue
        eff = res.worlds[c.effect].to_numpy().astype(float)
        se = res.worlds[f"{c.effect}:se"].to_numpy().astype(float)
        ok = ~np.isnan(eff)
        n = int(ok.sum())
        k = int((c.sign * eff[ok] > 0).sum())
        z = c.sign * eff[ok] / np.where(se[ok] > 0, se[ok], np.inf)
        drivers = dep.filter((pl.col("conclusion") == c.effect) & (pl.col("p_holm") < ALPHA)).sort(
            pl.col("rho").abs(), descending=True
        )
        share = k / n if n else float("nan")
        if n and share >= ROBUST:
            verdict = "robust"
        elif n and share <= 1 - ROBUST:
            verdict = "contradicted"
        elif drivers.height:
            verdict = "depends on"
        else:
            verdict = "unsupported"
        shipped = res.shipped.get(c.effect, (float("nan"), float("nan")))[0]
        rows.append(
            {
                "conclusion": c.effect,
                "says": c.says,
                "holds": k,
                "worlds": n,
                "share": share,
                "clear_for": int((z > 2).sum()),
                "clear_against": int((z < -2).sum()),
                "median": float(np.median(eff[ok])) if n else float("nan"),
                "shipped": shipped,
                "shipped_holds": bool(c.sign * shipped > 0),
                "verdict": verdict,
                "depends_on": ", ".join(
                    f"{r['unknown']} ({r['rho']:+.2f})" for r in drivers.iter_rows(named=True)
                )
                if verdict == "depends on"
                else "",
            }
        )
    return pl.DataFrame(rows)


def _unknowns_table(res: StudyResult) -> list[str]:
    vary = res.settings.get("vary", "both")
    lines = ["| unknown | shipped | plausible values sampled | why |", "|---|---|---|---|"]
    for u in res.unknowns.varied(vary):
        lines.append(f"| `{u.key}` | {text_of(u.shipped)} | {u.describe()} | {u.why} |")
    return lines


def to_markdown(res: StudyResult, v: pl.DataFrame, dep: pl.DataFrame) -> str:
    s = res.settings
    n, games, vary = s["worlds"], s["games"], s["vary"]
    what = {
        "both": "the map (board family) and every unknown number",
        "numbers": "every unknown number (the map fixed)",
        "maps": "the map and the ring's space counts (the numbers fixed)",
    }[vary]
    lines = [
        f"# Duo sensitivity study: {n} sampled worlds, {games:,} greedy games each",
        "",
        f"**Status: reconstruction.** Every world is an invented version of Tokaido Duo: it varies {what}, "
        f"sampled by a Latin hypercube (seed {s['seed']}) over the ranges of "
        f"`sim/games/duo/data/unknowns.toml` "
        f"({s['unknowns']}, {s['unknowns_fingerprint']}). Base rules: {s['base']}. No conclusion below is "
        "about the published game; each says how much of it survives what is not known.",
        "",
        f"Each world plays {games:,} greedy games with the default readings and again with "
        f"{', '.join(SETTINGS)} (the same seeds). A conclusion **holds** in a world when its effect has the "
        f"stated sign there; robust = holds in at least {ROBUST:.0%} of the worlds.",
        "",
        "## Verdicts",
        "",
        "| conclusion | holds in | clear for / against | median | shipped reconstruction | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for r in v.iter_rows(named=True):
        verdict = r["verdict"] + (f": {r['depends_on']}" if r["depends_on"] else "")
        lines.append(
            f"| {r['says']} | {r['holds']}/{r['worlds']} | {r['clear_for']} / {r['clear_against']} | "
            f"{r['median']:+.3f} | {r['shipped']:+.3f} ({'holds' if r['shipped_holds'] else 'fails'}) | "
            f"{verdict} |"
        )
    robust = v.filter(pl.col("verdict") == "robust")
    lines += ["", "## What survives", ""]
    lines += [
        f"- {r['says']} (in {r['holds']} of {r['worlds']} worlds)" for r in robust.iter_rows(named=True)
    ] or ["- nothing"]
    lines += ["", "## What depends on the unknowns", ""]
    for r in v.filter(pl.col("verdict") == "depends on").iter_rows(named=True):
        lines += [
            f"### {r['says']} ({r['holds']}/{r['worlds']} worlds)",
            "",
            "| unknown | rank correlation | p (Holm) | holds at the low end | holds at the high end |",
            "|---|---|---|---|---|",
        ]
        d = dep.filter((pl.col("conclusion") == r["conclusion"]) & (pl.col("p_holm") < 0.05)).sort(
            pl.col("rho").abs(), descending=True
        )
        for x in d.iter_rows(named=True):
            lines.append(
                f"| `{x['unknown']}` | {x['rho']:+.2f} | {x['p_holm']:.2g} | {x['holds_low']}/"
                f"{x['worlds_low']} ({x['low']}) | {x['holds_high']}/{x['worlds_high']} ({x['high']}) |"
            )
        lines.append("")
    other = v.filter(pl.col("verdict").is_in(["unsupported", "contradicted"]))
    lines += ["## Unsupported or contradicted", ""]
    lines += [
        f"- {r['says']}: holds in {r['holds']}/{r['worlds']} worlds ({r['verdict']}; clearly against in "
        f"{r['clear_against']})"
        for r in other.iter_rows(named=True)
    ] or ["- none"]
    lines += [
        "",
        "## The sampled unknowns",
        "",
        *_unknowns_table(res),
        "",
        "Effects: win-rate effects in win-rate units (0.05 = 5 points), trigger shares as fractions of "
        "games, "
        "points in points, round effects in rounds. The Hot Spring and wave-tile effects are associations "
        "among greedy games, not causal values. `clear for / against`: worlds where the effect is more than "
        "two standard errors on that side of zero. Files: " + ", ".join(f"`{f}`" for f in FILES[1:]) + ".",
    ]
    return "\n".join(lines) + "\n"


def write_study(res: StudyResult, out: Path) -> tuple[pl.DataFrame, str]:
    """Write every file of ``FILES`` into ``out``; return the verdicts and the markdown."""
    dep = dependence(res)
    v = verdicts(res, dep)
    text = to_markdown(res, v, dep)
    out.mkdir(parents=True, exist_ok=True)
    (out / "study.md").write_text(text)
    res.worlds.write_csv(out / "worlds.csv")
    v.write_csv(out / "verdicts.csv")
    dep.write_csv(out / "dependence.csv")
    values: list[dict[str, Any]] = [{k: _plain(x) for k, x in w.items()} for w in res.values]
    (out / "study.json").write_text(
        json.dumps(
            {
                **res.settings,
                "status": "reconstruction",
                "shipped": {k: list(x) for k, x in res.shipped.items()},
                "world_values": values,
            },
            indent=1,
        )
        + "\n"
    )
    return v, text


def _plain(x: Any) -> Any:
    return [_plain(y) for y in x] if isinstance(x, list | tuple) else x
