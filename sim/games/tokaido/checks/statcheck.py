"""Statistical baselines: did a tracked figure move beyond its tolerance?

A baseline (``results/baselines/NAME.json``) holds a configuration, the seed and
game count it was played with, the rules fingerprint, and for every tracked
figure the sample mean, standard deviation and size:

- ``win/<traveler>``: win rate of a Traveler (a tied win counts 1/k) over the games it plays;
- ``pick/<traveler>``: share of games a Traveler plays in (draft and random modes);
- ``score/<traveler>``: mean score of a Traveler;
- ``seat/<s>``: win rate of seat s (1 = first in the lineup);
- ``score/all``: mean score, per game (the mean of the game's players).

Every sample unit is one game, and games are independent, so each figure of a
new run (another seed) and the baseline are two independent samples. Each
figure gets a two-sided *minimum-effect* z-test of H0: |difference| <= tol
(``p = P(Z > (|d| - tol)/se) + P(Z < (-|d| - tol)/se)``, the usual two-sided
z-test when tol = 0), and the p-values are Holm-corrected across figures, so
the chance that any figure is flagged on an unchanged engine is at most alpha.
A figure "MOVED" when its adjusted p < alpha: the data show a move larger than
the tolerance. A shift that is significant but could be within the tolerance
is reported as "small shift" and does not fail the check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.stats import norm
from statsmodels.stats.multitest import multipletests

from sim.errors import UserError
from sim.games.tokaido import engine
from sim.games.tokaido.rules.config import GameConfig
from sim.run.game import win_share

FORMAT = 1
CHUNK = 100_000
MIN_N = 100  # fewer sample units than this in either sample: not tested
DEFAULT_TOLERANCE = {"rate": 0.01, "score": 0.5}  # 1 percentage point; half a point
DEFAULT_CHECK_SEED = 7_777_777
Z95 = float(norm.ppf(0.975))


@dataclass
class Acc:
    """Running sums of one figure's sample: count, sum, sum of squares."""

    kind: str  # "rate" or "score" (which tolerance applies)
    label: str
    n: int = 0
    s: float = 0.0
    ss: float = 0.0

    def add(self, x: np.ndarray) -> None:
        x = np.asarray(x, np.float64)
        self.n += x.size
        self.s += float(x.sum())
        self.ss += float((x * x).sum())

    def summary(self) -> dict[str, Any]:
        mean = self.s / self.n if self.n else 0.0
        var = max(self.ss - self.n * mean * mean, 0.0) / (self.n - 1) if self.n > 1 else 0.0
        return {"kind": self.kind, "label": self.label, "mean": mean, "sd": math.sqrt(var), "n": self.n}


def accumulate(accs: dict[str, Acc], records: np.ndarray, config: GameConfig, names: list[str]) -> None:
    n = config.n_players
    games = len(records) // n
    win = win_share(records)
    score = records["score"].astype(np.float64)
    trav = records["traveler"].astype(np.int64)

    def acc(key: str, kind: str, label: str) -> Acc:
        return accs.setdefault(key, Acc(kind, label))

    for s in range(n):
        acc(f"seat/{s + 1}", "rate", f"win rate, seat {s + 1}").add(win[records["seat"] == s])
    acc("score/all", "score", "mean score, all").add(score.reshape(games, n).mean(axis=1))
    if config.travelers in ("draft", "random") and "initiation" not in config.variants:
        counts = np.bincount(trav[trav >= 0], minlength=len(names))
        for t, name in enumerate(names):
            a = acc(f"pick/{name}", "rate", f"pick rate, {name}")
            a.n += games
            a.s += float(counts[t])  # a Traveler plays at most once a game: a 0/1 sample
            a.ss += float(counts[t])
    if (trav >= 0).any():
        for t, name in enumerate(names):
            m = trav == t
            acc(f"win/{name}", "rate", f"win rate, {name}").add(win[m])
            acc(f"score/{name}", "score", f"mean score, {name}").add(score[m])


def measure(
    config: GameConfig, games: int, seed: int, threads: int | None = None
) -> dict[str, dict[str, Any]]:
    """Play games ``0..games-1`` of ``config`` with ``seed``; every tracked figure's mean, sd and n."""
    if games < 2:
        raise UserError(f"--games must be at least 2, got {games}")
    rules = config.rules()
    names = [t.name for t in rules.travelers]
    accs: dict[str, Acc] = {}
    for start in range(0, games, CHUNK):
        batch = engine.play_games(config, rules, seed, start, min(CHUNK, games - start), threads=threads)
        accumulate(accs, batch.records, config, names)
    return {k: a.summary() for k, a in accs.items()}


def make_baseline(
    config: GameConfig,
    games: int,
    seed: int,
    tolerance: dict[str, float] | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    from sim.games.tokaido.checks import golden
    from sim.run import outdir

    rules = config.rules()
    return {
        "format": FORMAT,
        "kind": "tokaido-sim baseline",
        "spec": config.spec(),
        "config": config.to_dict(),
        "seed": seed,
        "games": games,
        "rules_version": rules.version,
        "rules_fingerprint": rules.fingerprint(),
        "bots_digest": golden.bots_digest(),
        "created": outdir.now(),
        "versions": outdir.versions(),
        "tolerance": {**DEFAULT_TOLERANCE, **(tolerance or {})},
        "figures": measure(config, games, seed, threads),
    }


REMAKE = "remake it with tokaido-sim check make-baseline"


def check_baseline(data: Any, where: str) -> dict[str, Any]:
    """``data`` if it is a baseline that can check something; ``UserError`` naming the first field that is
    not."""
    if (
        not isinstance(data, dict)
        or data.get("kind") != "tokaido-sim baseline"
        or data.get("format") != FORMAT
    ):
        raise UserError(
            f"{where} is not a tokaido-sim baseline (format {FORMAT}); make one with "
            "tokaido-sim check make-baseline"
        )
    for key, typ, want in (
        ("spec", str, "a configuration string"),
        ("seed", int, "a whole number"),
        ("games", int, "a whole number of games"),
    ):
        if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
            raise UserError(f"{where}: '{key}' must be {want}, got {data.get(key)!r}; {REMAKE}")
    if data["games"] < 2:
        raise UserError(f"{where}: 'games' is {data['games']}: a baseline needs at least 2 games; {REMAKE}")
    figures = data.get("figures")
    if not isinstance(figures, dict) or not figures:
        raise UserError(f"{where} holds no figures, so it would pass any check; {REMAKE}")
    for key, f in figures.items():
        ok = (
            isinstance(f, dict)
            and f.get("kind") in ("rate", "score")
            and all(
                isinstance(f.get(k), int | float) and not isinstance(f.get(k), bool)
                for k in ("mean", "sd", "n")
            )
            and f["n"] >= 1
            and f["sd"] >= 0
        )
        if not ok:
            raise UserError(
                f"{where}: figure '{key}' must hold kind (rate or score), mean, sd and n >= 1; {REMAKE}"
            )
    return data


# --------------------------------------------------------------------- tests
def min_effect_p(d: float, se: float, tol: float) -> float:
    """Two-sided p-value of H0: |true difference| <= tol, given estimate d with standard error se."""
    if se <= 0:
        return 0.0 if abs(d) > tol else 1.0
    a = abs(d)
    return min(1.0, float(norm.sf((a - tol) / se) + norm.sf((a + tol) / se)))


def holm(ps: list[float]) -> list[float]:
    """Holm step-down adjusted p-values (controls the family-wise error under any dependence)."""
    if not ps:
        return []
    return [float(p) for p in multipletests(ps, method="holm")[1]]


@dataclass
class Row:
    key: str
    label: str
    kind: str
    base: dict[str, Any]
    now: dict[str, Any]
    diff: float = 0.0
    se: float = 0.0
    tol: float = 0.0
    p: float = 1.0
    p_adj: float = 1.0
    p0_adj: float = 1.0  # Holm-adjusted p of "no change at all" (tol = 0)
    verdict: str = "ok"

    def ci(self, which: dict[str, Any]) -> tuple[float, float, float]:
        m, h = which["mean"], Z95 * which["sd"] / math.sqrt(max(which["n"], 1))
        return m, m - h, m + h


@dataclass
class CheckResult:
    rows: list[Row]
    games: int
    seed: int
    baseline: dict[str, Any]
    alpha: float
    tolerance: dict[str, float]
    notes: list[str] = field(default_factory=list)

    @property
    def moved(self) -> list[Row]:
        return [r for r in self.rows if r.verdict == "MOVED"]

    @property
    def ok(self) -> bool:
        return not self.moved


def compare(
    base: dict[str, dict[str, Any]], now: dict[str, dict[str, Any]], alpha: float, tolerance: dict[str, float]
) -> tuple[list[Row], list[str]]:
    """Test every figure of ``now`` against ``base``; Holm across the tested ones."""
    rows, notes = [], []
    for key in [k for k in base if k in now]:
        b, n = base[key], now[key]
        r = Row(key, b.get("label", key), b["kind"], b, n, tol=float(tolerance[b["kind"]]))
        if min(b["n"], n["n"]) < MIN_N:
            r.verdict = "too few"
        else:
            r.diff = n["mean"] - b["mean"]
            r.se = math.sqrt(b["sd"] ** 2 / b["n"] + n["sd"] ** 2 / n["n"])
            r.p = min_effect_p(r.diff, r.se, r.tol)
        rows.append(r)
    tested = [r for r in rows if r.verdict != "too few"]
    for r, pa, p0 in zip(
        tested,
        holm([r.p for r in tested]),
        holm([min_effect_p(r.diff, r.se, 0.0) for r in tested]),
        strict=True,
    ):
        r.p_adj, r.p0_adj = pa, p0
        r.verdict = "MOVED" if pa < alpha else "small shift" if p0 < alpha else "ok"
    gone = [k for k in base if k not in now]
    new = [k for k in now if k not in base]
    if gone:
        notes.append(f"figures of the baseline no longer measured: {', '.join(gone)}")
    if new:
        notes.append(f"figures not in the baseline (not tested): {', '.join(new)}")
    return rows, notes


def default_seed(baseline_seed: int) -> int:
    return DEFAULT_CHECK_SEED if baseline_seed != DEFAULT_CHECK_SEED else DEFAULT_CHECK_SEED + 1


def run_check(
    baseline: dict[str, Any],
    games: int | None = None,
    seed: int | None = None,
    alpha: float = 0.05,
    tolerance: dict[str, float] | None = None,
    overrides: tuple[tuple[str, Any], ...] = (),
    threads: int | None = None,
    where: str = "BASELINE.json",
) -> CheckResult:
    """Play the baseline's configuration (plus ``overrides``) with another seed and test every figure."""
    from sim.games.tokaido.checks.golden import with_overrides

    if not 0 < alpha < 1:
        raise UserError(f"--alpha must be between 0 and 1, got {alpha}")
    tol = {**DEFAULT_TOLERANCE, **baseline.get("tolerance", {}), **(tolerance or {})}
    if any(v < 0 for v in tol.values()):
        raise UserError("tolerances must be 0 or more")
    config = with_overrides(GameConfig.parse(baseline["spec"]), overrides)
    games = int(games or baseline["games"])
    seed = default_seed(int(baseline["seed"])) if seed is None else seed
    if seed == baseline["seed"]:
        raise UserError(f"--seed {seed} is the baseline's own seed; the check needs new games (another seed)")
    rows, notes = compare(baseline["figures"], measure(config, games, seed, threads), alpha, tol)
    if not rows:
        raise UserError(
            f"none of the figures of {where} is measured any more ({notes[0] if notes else 'none'}), "
            f"so nothing would be checked; {REMAKE}"
        )
    notes += rules_notes(baseline, config, overrides, where)
    return CheckResult(rows, games, seed, baseline, alpha, tol, notes)


def calibrate(
    baseline: dict[str, Any],
    runs: int,
    games: int | None,
    first_seed: int,
    alpha: float,
    tolerance: dict[str, float],
    overrides: tuple[tuple[str, Any], ...] = (),
    fresh: bool = False,
    threads: int | None = None,
) -> tuple[int, dict[str, int]]:
    """Run the check ``runs`` times with seeds ``first_seed + k`` (never the baseline's).

    With ``fresh`` each check also gets its own new baseline (same games as the
    baseline file, seed ``first_seed + runs + k``), so the rate is over
    baselines too, not conditional on one committed baseline. Returns (checks
    that failed, how often each figure was flagged).
    """
    from sim.games.tokaido.checks.golden import with_overrides

    tol = {**DEFAULT_TOLERANCE, **baseline.get("tolerance", {}), **tolerance}
    plain = GameConfig.parse(baseline["spec"])
    config = with_overrides(plain, overrides)
    games = int(games or baseline["games"])
    fails, moved = 0, dict[str, int]()
    seeds = [s for s in range(first_seed, first_seed + 2 * runs + 1) if s != baseline["seed"]]
    for k in range(runs):
        base = (
            measure(plain, int(baseline["games"]), seeds[runs + k], threads) if fresh else baseline["figures"]
        )
        rows, _ = compare(base, measure(config, games, seeds[k], threads), alpha, tol)
        flagged = [r.label for r in rows if r.verdict == "MOVED"]
        fails += bool(flagged)
        for label in flagged:
            moved[label] = moved.get(label, 0) + 1
    return fails, moved


def rules_notes(
    baseline: dict[str, Any], config: GameConfig, overrides: tuple[tuple[str, Any], ...], where: str
) -> list[str]:
    """Whether the rules differ from the baseline's, and why."""
    from sim.games.tokaido.checks.golden import bots_digest

    out = []
    f0, v0 = baseline.get("rules_fingerprint"), baseline.get("rules_version")
    plain = GameConfig.parse(baseline["spec"]).rules()
    if plain.fingerprint() != f0:
        out.append(
            f"the rules changed since the baseline was made (fingerprint {f0} -> {plain.fingerprint()}, "
            f"version {v0} -> {plain.version}); after a deliberate change refresh it with: "
            f"tokaido-sim check make-baseline --from {where}"
        )
    elif baseline.get("bots_digest") not in (None, bots_digest()):
        out.append(
            f"the bot weights changed since the baseline was made; after a deliberate change refresh it "
            f"with: tokaido-sim check make-baseline --from {where}"
        )
    if overrides:
        out.append(
            f"played with {' '.join(f'--set {k}={v}' for k, v in overrides)} (rules fingerprint "
            f"{config.rules().fingerprint()})"
        )
    return out


# -------------------------------------------------------------------- output
def _fmt(kind: str, x: float, signed: bool = False) -> str:
    s = "+" if signed else ""
    return f"{100 * x:{s}.1f}" if kind == "rate" else f"{x:{s}.2f}"


def cells(r: Row) -> list[str]:
    """Figure, baseline [CI], now [CI], difference [CI], tolerance, adjusted p, verdict."""
    unit = "%" if r.kind == "rate" else ""
    dunit = " pp" if r.kind == "rate" else ""

    def est(which: dict[str, Any]) -> str:
        m, lo, hi = r.ci(which)
        return f"{_fmt(r.kind, m)}{unit} [{_fmt(r.kind, lo)}, {_fmt(r.kind, hi)}]"

    if r.verdict == "too few":
        diff, p = f"(n = {min(r.base['n'], r.now['n'])})", "-"
    else:
        lo, hi = r.diff - Z95 * r.se, r.diff + Z95 * r.se
        diff = f"{_fmt(r.kind, r.diff, True)}{dunit} [{_fmt(r.kind, lo, True)}, {_fmt(r.kind, hi, True)}]"
        p = f"{r.p_adj:.2g}" if r.p_adj >= 1e-4 else "<1e-4"
    return [r.label, est(r.base), est(r.now), diff, f"±{_fmt(r.kind, r.tol)}{dunit}", p, r.verdict]


HEADERS = [
    "figure",
    "baseline [95% CI]",
    "now [95% CI]",
    "difference [95% CI]",
    "tolerance",
    "adj. p",
    "verdict",
]


LEGEND = (
    "MOVED: moved by more than the tolerance (adj. p < alpha; fails the check). small shift: a real "
    "change not shown to exceed the tolerance (does not fail)."
)


def shown(result: CheckResult, show_all: bool) -> list[Row]:
    order = {"MOVED": 0, "small shift": 1, "ok": 2, "too few": 3}
    rows = sorted(result.rows, key=lambda r: (order[r.verdict], r.p_adj))
    return rows if show_all else [r for r in rows if r.verdict in ("MOVED", "small shift")]


def summary(result: CheckResult) -> str:
    b = result.baseline
    tested = sum(r.verdict != "too few" for r in result.rows)
    head = (
        f"{result.games:,} games (seed {result.seed}) of {b['spec']} against the baseline's "
        f"{b['games']:,} (seed {b['seed']}); {tested} figures, Holm-corrected alpha {result.alpha}"
    )
    if result.ok:
        return head + "\nno figure moved beyond its tolerance"
    return head + f"\n{len(result.moved)} figure(s) MOVED beyond tolerance"


def render_text(result: CheckResult, show_all: bool = False) -> str:
    table = [HEADERS, *(cells(r) for r in shown(result, show_all))]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADERS))]
    lines = [summary(result)]
    if len(table) > 1:
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in table]
        lines.append(LEGEND)
    return "\n".join(lines + result.notes)


def render_rich(result: CheckResult, show_all: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(summary(result))
    rows = shown(result, show_all)
    if rows:
        table = Table(*HEADERS)
        style = {"MOVED": "bold red", "small shift": "yellow", "ok": "green", "too few": "dim"}
        for r in rows:
            table.add_row(*cells(r), style=style[r.verdict])
        console.print(table)
        console.print(LEGEND)
    for note in result.notes:
        console.print(note)
