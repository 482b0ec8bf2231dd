"""A sequential regression check (``check stats --sequential``): stop as soon as the games decide.

Chess-engine testing frameworks (Fishtest, OpenBench) do not play a fixed number of games:
they run a sequential probability ratio test (SPRT) and stop as soon as the log-likelihood
ratio (LLR) of "the change is worth elo1" against "it is worth elo0" crosses a bound. The
same works for a baseline's figures. For each figure, with the difference d (now - baseline)
and its standard error se after every batch of games, the generalized SPRT uses the normal
approximation to the likelihood:

    LLR(theta0 -> theta1) = (theta1 - theta0) * (2 d - theta0 - theta1) / (2 se^2)

and tests H0: difference 0 against H1: difference +tol, and against H1: -tol (two one-sided
tests). A figure is **MOVED** when either LLR reaches ``log((1 - beta) / a)`` and **ok** when
both fall to ``log(beta / (1 - a))``, with a = alpha / (2 m) over the m figures (Bonferroni:
the chance that any figure is MOVED on an unchanged engine stays at most alpha). The check
stops at the first MOVED figure, or when every figure is ok, or at ``--games``; a figure still
undecided then is reported as ``undecided`` and, like ``small shift`` in the fixed check, does
not fail: its true change is most likely between 0 and the tolerance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sim.errors import UserError
from sim.games.tokaido import engine
from sim.games.tokaido.checks import statcheck
from sim.games.tokaido.rules.config import GameConfig

BETA = 0.05  # chance of missing a change of exactly the tolerance, per figure
MIN_BATCH = 2_000


def llr(d: float, se: float, theta0: float, theta1: float) -> float:
    """The normal-approximation log-likelihood ratio of theta1 against theta0 for an estimate d (s.e. se)."""
    if se <= 0:
        return math.inf if abs(d - theta1) < abs(d - theta0) else -math.inf
    return (theta1 - theta0) * (2 * d - theta0 - theta1) / (2 * se * se)


def bounds(a: float, beta: float = BETA) -> tuple[float, float]:
    """Wald's (lower, upper) LLR bounds for false-alarm rate ``a`` and miss rate ``beta``."""
    return math.log(beta / (1 - a)), math.log((1 - beta) / a)


@dataclass
class SeqRow:
    key: str
    label: str
    kind: str
    base: dict[str, Any]
    now: dict[str, Any] = field(default_factory=dict)
    diff: float = 0.0
    se: float = 0.0
    tol: float = 0.0
    llr: float = 0.0  # the larger of the two one-sided LLRs when last tested
    games: int = 0  # games played when the figure was decided
    verdict: str = "undecided"  # MOVED, ok, undecided, too few


def decide(row: SeqRow, now: dict[str, Any], lower: float, upper: float, games: int) -> None:
    """Update an undecided figure with the summary ``now`` of the games played so far."""
    b = row.base
    row.now = now
    if min(b["n"], now["n"]) < statcheck.MIN_N:
        row.verdict = "too few"
        return
    row.diff = now["mean"] - b["mean"]
    row.se = math.sqrt(b["sd"] ** 2 / b["n"] + now["sd"] ** 2 / now["n"])
    up, down = llr(row.diff, row.se, 0.0, row.tol), llr(row.diff, row.se, 0.0, -row.tol)
    row.llr = max(up, down)
    if row.llr >= upper:
        row.verdict, row.games = "MOVED", games
    elif up <= lower and down <= lower:
        row.verdict, row.games = "ok", games
    else:
        row.verdict = "undecided"


def can_accept(row: SeqRow, lower: float) -> bool:
    """Whether "no change" can ever be accepted: with infinitely many new games the standard error
    falls to the baseline's own, so its LLR against a change of the tolerance is bounded."""
    b = row.base
    se_b2 = b["sd"] ** 2 / max(b["n"], 1)
    return se_b2 <= 0 or row.tol * row.tol / (2 * se_b2) > -lower


@dataclass
class SeqResult:
    rows: list[SeqRow]
    games: int  # games played
    max_games: int
    seed: int
    baseline: dict[str, Any]
    alpha: float
    bounds: tuple[float, float]
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(r.verdict == "MOVED" for r in self.rows)


def run_sequential(
    baseline: dict[str, Any],
    games: int | None = None,
    seed: int | None = None,
    alpha: float = 0.05,
    tolerance: dict[str, float] | None = None,
    overrides: tuple[tuple[str, Any], ...] = (),
    threads: int | None = None,
    where: str = "BASELINE.json",
    batch: int | None = None,
) -> SeqResult:
    """Play the baseline's configuration in batches until every figure is decided (or ``games`` are
    played)."""
    from sim.games.tokaido.checks.golden import with_overrides

    if not 0 < alpha < 1:
        raise UserError(f"--alpha must be between 0 and 1, got {alpha}")
    tol = {**statcheck.DEFAULT_TOLERANCE, **baseline.get("tolerance", {}), **(tolerance or {})}
    if any(v <= 0 for v in tol.values()):
        raise UserError(
            "--sequential needs tolerances above 0: the test decides between no change and a change "
            "of the tolerance"
        )
    config = with_overrides(GameConfig.parse(baseline["spec"]), overrides)
    cap = int(games or baseline["games"])
    seed = statcheck.default_seed(int(baseline["seed"])) if seed is None else seed
    if seed == baseline["seed"]:
        raise UserError(f"--seed {seed} is the baseline's own seed; the check needs new games (another seed)")
    rows = [
        SeqRow(k, f.get("label", k), f["kind"], f, tol=float(tol[f["kind"]]))
        for k, f in baseline["figures"].items()
    ]
    lower, upper = bounds(alpha / (2 * max(len(rows), 1)))
    rules = config.rules()
    names = [t.name for t in rules.travelers]
    step = batch or max(MIN_BATCH, cap // 20)
    accs: dict[str, statcheck.Acc] = {}
    played = 0
    while played < cap:
        n = min(step, cap - played)
        for start in range(played, played + n, statcheck.CHUNK):
            chunk = engine.play_games(
                config, rules, seed, start, min(statcheck.CHUNK, played + n - start), threads=threads
            )
            statcheck.accumulate(accs, chunk.records, config, names)
        played += n
        for r in rows:
            if r.verdict in ("undecided", "too few") and r.key in accs:
                decide(r, accs[r.key].summary(), lower, upper, played)
        # a figure too rare so far may become testable with more games; one rare in the baseline never does
        if any(r.verdict == "MOVED" for r in rows) or all(
            r.verdict == "ok"
            or (r.verdict == "too few" and r.base["n"] < statcheck.MIN_N)
            or not can_accept(r, lower)
            for r in rows
        ):
            break
    notes = statcheck.rules_notes(baseline, config, overrides, where)
    small = [r.label for r in rows if r.verdict == "undecided" and not can_accept(r, lower)]
    if small:
        notes.append(
            f"{len(small)} figure(s) can never be shown within tolerance, the baseline's own interval being "
            f"too wide ({'; '.join(small)}): they fail only on a large move; remake the baseline with more "
            "games to test them fully"
        )
    gone = [r.label for r in rows if r.key not in accs]
    if gone:
        notes.append(f"figures of the baseline no longer measured: {', '.join(gone)}")
    return SeqResult(rows, played, cap, seed, baseline, alpha, (lower, upper), notes)


def render_text(result: SeqResult, show_all: bool = False) -> str:
    b = result.baseline
    moved = [r for r in result.rows if r.verdict == "MOVED"]
    lo, hi = result.bounds
    lines = [
        f"sequential check (SPRT): {result.games:,} of at most {result.max_games:,} games (seed "
        f"{result.seed}) "
        f"of {b['spec']} against the baseline's {b['games']:,} (seed {b['seed']}); {len(result.rows)} "
        f"figures, "
        f"family-wise alpha {result.alpha}, beta {BETA} (LLR bounds {lo:.2f}, {hi:.2f})"
    ]
    undecided = sum(r.verdict == "undecided" for r in result.rows)
    if moved:
        lines.append(f"{len(moved)} figure(s) MOVED beyond tolerance (stopped after {result.games:,} games)")
    elif undecided:
        lines.append(
            f"no figure moved; {undecided} undecided at the cap (a change between 0 and the tolerance?)"
        )
    else:
        lines.append("no figure moved beyond its tolerance: every figure decided ok")
    order = {"MOVED": 0, "undecided": 1, "ok": 2, "too few": 3}
    shown = sorted(result.rows, key=lambda r: (order[r.verdict], -r.llr))
    shown = shown if show_all else [r for r in shown if r.verdict in ("MOVED", "undecided")]
    table = [["figure", "baseline", "now", "difference", "tolerance", "LLR", "verdict"]]
    for r in shown:
        fmt = (lambda x, s="": f"{100 * x:{s}.1f}") if r.kind == "rate" else (lambda x, s="": f"{x:{s}.2f}")
        unit = " pp" if r.kind == "rate" else ""
        now = fmt(r.now["mean"]) if r.now else "-"
        table.append(
            [
                r.label,
                fmt(r.base["mean"]),
                now,
                f"{fmt(r.diff, '+')}{unit} ± {fmt(1.96 * r.se)}",
                f"±{fmt(r.tol)}{unit}",
                f"{r.llr:.1f}",
                r.verdict,
            ]
        )
    if len(table) > 1:
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in table]
    return "\n".join(lines + result.notes)
