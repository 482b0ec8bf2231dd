"""Tier agreement: do two tiers rank the Travelers alike? (A conclusion that changes when the
players get stronger is a bot artifact.)

For each configuration, both tiers play self-play games with Travelers dealt at random
(``sim.games.tokaido.tuning.draft.measure``: each Traveler's share of the wins); the agreement is the
Spearman rank correlation of the two tiers' shares and the largest difference, and a
Traveler's *verdict* (stronger or weaker than the fair share 1/N, at 95%) differs when
the two tiers call it on opposite sides. A difference is also given in standard errors of the
difference: above about 3, it is not the noise of the two samples but the tiers playing that
Traveler differently.

The agreement criterion, "every Traveler within 3 points", is tested on the intervals, not the point
estimates alone: a Traveler is *beyond* 3 points when the 95% interval of the difference lies
wholly outside +-3 pp, *within* when it lies wholly inside, and undecided otherwise (the
samples are too small to tell).

Rho is given with a 95% interval (``RHO_DRAWS`` parametric bootstrap draws of both tiers'
shares, each Traveler's normal with its own standard error) and with its *noise ceiling*: the
median rho of two such draws around the same shares (tier B's), which is what two tiers that
agree exactly would show with these sample sizes. A rho near its ceiling is as high as the
samples can show; "rho >= 0.9" cannot be shown where the ceiling is below 0.9.

``tokaido-sim calibrate-agreement`` stores both tiers' shares per configuration, with their
provenance, as ``sim/games/tokaido/data/bots/agreement-TIER.toml`` (``table_toml``); ``load_table`` reads it
back into ``Agreement`` rows (recomputed by ``compare``, so the file holds measurements only),
and the balance report names the Travelers whose figures the two tiers dispute.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import polars as pl

from sim.games.tokaido.tuning.draft import DATA_DIR, Cell, measure

TOLERANCE = 0.03  # the agreement criterion: "every Traveler within 3 points"
RHO_DRAWS = 4000  # bootstrap draws for rho's interval and ceiling (fixed seed: the table is reproducible)
# sim/games/tokaido/data/bots/agreement-TIER.toml: the measured agreement of TIER with a stronger tier
TABLE_PREFIX = "agreement-"


@dataclass
class Agreement:
    key: str
    tier_a: str
    tier_b: str
    a: Cell
    b: Cell
    rho: float
    max_diff: float
    max_diff_traveler: str
    differ: list[str]  # Travelers whose verdicts (vs the fair share) differ
    max_z: float = 0.0  # the largest difference in standard errors of the difference (beyond noise: > 3)
    max_z_traveler: str = ""
    beyond: list[str] = field(default_factory=list)  # difference beyond TOLERANCE at 95%
    within: list[str] = field(default_factory=list)  # difference inside +-TOLERANCE at 95%
    n_travelers: int = 0
    rho_lo: float = float("nan")  # rho's 95% interval (parametric bootstrap of both tiers' shares)
    rho_hi: float = float("nan")
    rho_ceiling: float = float("nan")  # the median rho of two tiers that agree exactly, at these sample sizes
    slope: float = float(
        "nan"
    )  # B's shares on A's, each less the fair 1/N (least squares): < 1, B compresses A's gaps
    off_line: dict[str, float] = field(default_factory=dict)  # each Traveler's B share less the line's

    @property
    def meets(self) -> bool:
        """The agreement criterion shown: rho >= 0.9 and every Traveler within 3 points at 95%."""
        return self.rho >= 0.9 and len(self.within) == self.n_travelers > 0


def verdict(share: float, half: float, fair: float) -> int:
    """+1 stronger than fair, -1 weaker, 0 not distinguishable at 95%."""
    return 1 if share - half > fair else (-1 if share + half < fair else 0)


def spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rho: the Pearson correlation of the ranks (ties share their mean rank)."""
    rx = pl.Series(x).rank("average").to_numpy()
    ry = pl.Series(y).rank("average").to_numpy()
    return float(np.corrcoef(rx, ry)[0, 1])


def _ranks(x: np.ndarray) -> np.ndarray:
    """Row-wise ranks 0..k-1 (draws of continuous normals have no ties)."""
    return np.argsort(np.argsort(x, axis=1), axis=1).astype(float)


def _row_rho(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    rx, ry = _ranks(x), _ranks(y)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    return (rx * ry).sum(axis=1) / np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))


def rho_interval(xa, sa, xb, sb, draws: int = RHO_DRAWS, seed: int = 0) -> tuple[float, float, float]:
    """(low, high, ceiling) of Spearman's rho for shares ``xa``, ``xb`` with standard errors ``sa``, ``sb``:
    the 2.5 and 97.5 percentiles of rho over bootstrap draws of both, and the median rho of two draws
    around ``xb`` alone (the same true shares measured twice)."""
    rng = np.random.default_rng(seed)
    xa, sa, xb, sb = (np.asarray(v, dtype=float)[None, :] for v in (xa, sa, xb, sb))
    k = xa.shape[1]
    da = xa + sa * rng.standard_normal((draws, k))
    db = xb + sb * rng.standard_normal((draws, k))
    lo, hi = np.percentile(_row_rho(da, db), [2.5, 97.5])
    same_a = xb + sa * rng.standard_normal((draws, k))
    ceiling = float(np.median(_row_rho(same_a, db)))
    return float(lo), float(hi), ceiling


def compare(a: Cell, b: Cell, n: int) -> Agreement:
    names = [t for t in a.shares if t in b.shares]
    xa = [a.shares[t] for t in names]
    xb = [b.shares[t] for t in names]
    rho = spearman(xa, xb) if len(names) > 2 else float("nan")
    diffs = {t: abs(a.shares[t] - b.shares[t]) for t in names}
    worst = max(diffs, key=lambda t: diffs[t])
    fair = 1.0 / n
    differ = [
        t
        for t in names
        if verdict(a.shares[t], a.halfwidth[t], fair) * verdict(b.shares[t], b.halfwidth[t], fair) < 0
    ]
    # the half-widths are 1.96 standard errors; the cells are taken as independent (they share the
    # deals, which if anything makes the true error of the difference smaller: the z is conservative)
    half = {t: float(np.hypot(a.halfwidth[t], b.halfwidth[t])) for t in names}  # of the difference, 95%
    z = {t: diffs[t] / max(1e-12, half[t] / 1.96) for t in names}
    zt = max(z, key=lambda t: z[t])
    beyond = [t for t in names if diffs[t] - half[t] > TOLERANCE]
    within = [t for t in names if diffs[t] + half[t] <= TOLERANCE]
    res = Agreement(
        a.key, "", "", a, b, rho, diffs[worst], worst, differ, z[zt], zt, beyond, within, len(names)
    )
    if len(names) > 2:
        # the line through the fair point: a tier that compresses every gap alike lies on it
        da, db = np.array(xa) - fair, np.array(xb) - fair
        res.slope = float(da @ db) / max(1e-12, float(da @ da))
        res.off_line = {t: float(y - res.slope * x) for t, x, y in zip(names, da, db, strict=True)}
        res.rho_lo, res.rho_hi, res.rho_ceiling = rho_interval(
            xa, [a.halfwidth[t] / 1.96 for t in names], xb, [b.halfwidth[t] / 1.96 for t in names]
        )
    return res


def agreement(
    tier_a: str,
    tier_b: str,
    n: int,
    expansions: tuple[str, ...],
    games_a: int,
    games_b: int,
    seed: int,
    threads: int | None = None,
) -> Agreement:
    a = measure(tier_a, n, expansions, (), games_a, seed, threads)
    b = measure(tier_b, n, expansions, (), games_b, seed, threads)
    res = compare(a, b, n)
    res.tier_a, res.tier_b = tier_a, tier_b
    return res


def markdown(rows: list[Agreement]) -> str:
    lines = [
        "### Tier agreement (Travelers dealt at random)",
        "",
        "| configuration | tiers | games | Spearman rho (95%) | rho's noise ceiling | max difference "
        "| largest in standard errors | verdicts that differ | within 3 pp at 95% | beyond 3 pp at 95% |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.key} | {r.tier_a} vs {r.tier_b} | {r.a.games} / {r.b.games} | {r.rho:.2f} "
            f"({r.rho_lo:.2f} to {r.rho_hi:.2f}) | {r.rho_ceiling:.2f} | "
            f"{100 * r.max_diff:.1f} pp ({r.max_diff_traveler}) | {r.max_z:.1f} ({r.max_z_traveler}) | "
            f"{', '.join(r.differ) or 'none'} | {len(r.within)} of {r.n_travelers} | "
            f"{', '.join(r.beyond) or 'none'} |"
        )
    lines += [
        "",
        "Within / beyond: the 95% interval of a Traveler's difference lies inside / outside +-3 pp; "
        "the rest the samples cannot decide. The agreement criterion (rho >= 0.9, every Traveler within "
        "3 pp) is shown only when every Traveler is within. Rho's interval: bootstrap draws of both tiers' "
        "shares; its noise ceiling: the median rho of two tiers that agree exactly, with these samples.",
    ]
    for r in rows:
        lines += per_traveler(r)
    return "\n".join(lines) + "\n"


def per_traveler(r: Agreement) -> list[str]:
    """One configuration's Travelers: both shares, the difference with its 95% interval, and how far
    B's share lies off the line ``B - fair = slope x (A - fair)`` (what is left once B's compression
    of A's gaps is taken out)."""
    lines = [
        "",
        f"#### {r.key}: per Traveler ({r.tier_b}'s shares on {r.tier_a}'s, less the fair share: slope "
        f"{r.slope:.2f})",
        "",
        f"| Traveler | {r.tier_a} | {r.tier_b} | difference | 95% interval | off the slope line |",
        "|---|---|---|---|---|---|",
    ]
    for t in r.off_line:
        d = r.b.shares[t] - r.a.shares[t]
        h = float(np.hypot(r.a.halfwidth[t], r.b.halfwidth[t]))
        lines.append(
            f"| {t} | {r.a.shares[t]:.3f} | {r.b.shares[t]:.3f} | {100 * d:+.1f} pp | "
            f"{100 * (d - h):+.1f} to {100 * (d + h):+.1f} | {100 * r.off_line[t]:+.1f} pp |"
        )
    return lines


def table_path(tier: str) -> Path:
    return DATA_DIR / f"{TABLE_PREFIX}{tier}.toml"


def _shares_toml(name: str, values: dict[str, float] | dict[str, int]) -> list[str]:
    return [f"[{name}]", *(f'"{t}" = {v}' for t, v in values.items())]


def table_toml(rows: list[tuple[str, Agreement]], command: str, seed: int) -> str:
    """The agreement table: for each (exact key, row), both tiers' games, shares, half-widths and
    appearances, under the provenance (command, seed, date). Derived figures are not stored."""
    tier_a, tier_b = rows[0][1].tier_a, rows[0][1].tier_b
    date = datetime.now(UTC).isoformat(timespec="seconds")
    lines = [
        f"# Tier agreement of '{tier_a}' with '{tier_b}': each Traveler's share of the wins in each tier's",
        "# self-play with Travelers dealt at random (a shared win counts 1/k; fair = 1/N), per "
        "configuration.",
        "# The balance report reads it to name the Travelers whose figures the two tiers dispute",
        "# (sim/games/tokaido/tuning/agreement.py; docs/bots.md, Tier agreement).",
        f"# Made by: {command}",
        "# Refresh after a rule or bot change with the same command.",
        "",
        "[provenance]",
        f'tier = "{tier_a}"',
        f'reference = "{tier_b}"',
        f'command = "{command}"',
        f"seed = {seed}",
        f'date = "{date}"',
    ]
    for key, r in rows:
        lines += [
            "",
            f'["{key}"]',
            f"n_players = {int(key.split('p-')[0])}",
            f"games = {r.a.games}",
            f"reference_games = {r.b.games}",
            f"seed = {r.a.seed}",
            f"reference_seed = {r.b.seed}",
        ]
        for name, cell in (("a", r.a), ("b", r.b)):
            lines += [""] + _shares_toml(f'"{key}".{name}_share', cell.shares)
            lines += [""] + _shares_toml(f'"{key}".{name}_half', cell.halfwidth)
            lines += [""] + _shares_toml(f'"{key}".{name}_apps', cell.appearances)
    return "\n".join(lines) + "\n"


def load_table(path: Path) -> tuple[dict[str, object], dict[str, Agreement]]:
    """(provenance, {exact key: Agreement}) of an agreement table; ValueError names what is wrong."""
    try:
        data = tomllib.loads(path.read_text())
        prov = data.pop("provenance")
        tier_a, tier_b = str(prov["tier"]), str(prov["reference"])
        rows = {}
        for key, sec in data.items():
            n = int(sec["n_players"])
            a = Cell(
                key,
                int(sec["games"]),
                int(sec["seed"]),
                dict(sec["a_share"]),
                dict(sec["a_half"]),
                {t: int(k) for t, k in sec["a_apps"].items()},
            )
            b = Cell(
                key,
                int(sec["reference_games"]),
                int(sec["reference_seed"]),
                dict(sec["b_share"]),
                dict(sec["b_half"]),
                {t: int(k) for t, k in sec["b_apps"].items()},
            )
            r = compare(a, b, n)
            r.key, r.tier_a, r.tier_b = key, tier_a, tier_b
            rows[key] = r
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(
            f"agreement table {path} is unreadable ({type(exc).__name__}: {exc}); "
            "remake it with tokaido-sim calibrate-agreement"
        ) from None
    return prov, rows
