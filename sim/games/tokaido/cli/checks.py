"""``tokaido-sim check stats|make-baseline|calibrate``: Tokaido's statistical baselines for CI (docs/ci.md).

Exit codes: 0 nothing moved, 1 something moved (or the golden file is stale),
2 a user error (one line ``error: ...`` on stderr).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.cli import validate
from sim.dataset.manifest import check_seed
from sim.errors import UserError, user_errors
from sim.files import read_json
from sim.games.tokaido.cli.options import Bots
from sim.games.tokaido.rules.config import GameConfig
from sim.overrides import parse_sets_and_patches

check_app = typer.Typer()  # merged into the shared ``check`` group

Sets = Annotated[
    list[str] | None, typer.Option("--set", help="Rule override KEY=VALUE or @patch.toml, repeatable.")
]
Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).", min=1)]
BaselineFile = Annotated[Path, typer.Option("--baseline", "-b", help="Baseline JSON (results/baselines/).")]
Alpha = Annotated[float, typer.Option(help="Family-wise false-alarm level (Holm-corrected).")]
RateTol = Annotated[
    float | None,
    typer.Option(help="Tolerance of rates (win, pick), e.g. 0.01 = 1 pp (default: the baseline's)."),
]
ScoreTol = Annotated[
    float | None, typer.Option(help="Tolerance of mean scores, in points (default: the baseline's).")
]


def tolerance(rate: float | None, score: float | None) -> dict[str, float]:
    tol = {k: v for k, v in (("rate", rate), ("score", score)) if v is not None}
    if any(v < 0 for v in tol.values()):
        raise UserError("--rate-tolerance and --score-tolerance must be 0 or more")
    return tol


def baseline_overrides(data: dict[str, Any], sets: list[str] | None) -> tuple[tuple[str, Any], ...]:
    """The ``--set`` overrides for a baseline's configuration; refused if one has no effect there."""
    from sim.games.tokaido.checks.golden import with_overrides
    from sim.games.tokaido.rules.inert import refuse_inert

    overrides, patches = parse_sets_and_patches(sets)
    config = GameConfig.parse(data["spec"])
    shift = len(config.overrides)  # the baseline's own overrides come first
    refuse_inert(with_overrides(config, overrides), {shift + i: name for i, name in patches.items()})
    return overrides


def load_baseline(path: Path) -> dict[str, Any]:
    from sim.games.tokaido.checks.statcheck import check_baseline

    data = read_json(
        path,
        "a tokaido-sim baseline (JSON, like results/baselines/base-4p-greedy.json)",
        "make one with tokaido-sim check make-baseline",
    )
    return check_baseline(data, str(path))


# ------------------------------------------------------------------- stats
@check_app.command()
@user_errors
def stats(
    baseline: BaselineFile,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-g",
            help="Games to play (default: the baseline's). The "
            "tolerances need enough games; below the number "
            "the baseline needs the output warns and names "
            "it (sim/games/tokaido/checks/power.py).",
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", "-s", help="Seed of the new games (default: a fixed seed other than the baseline's)."
        ),
    ] = None,
    alpha: Alpha = 0.05,
    rate_tolerance: RateTol = None,
    score_tolerance: ScoreTol = None,
    sets: Sets = None,
    show_all: Annotated[
        bool, typer.Option("--all", help="Show every figure, not only those that moved.")
    ] = False,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write the results to this JSON file.")
    ] = None,
    threads: Threads = None,
    sequential: Annotated[
        bool,
        typer.Option(
            "--sequential",
            help="SPRT: play in batches and stop as soon as every "
            "figure is decided; --games is then the cap (docs/ci.md).",
        ),
    ] = False,
) -> None:
    """Play the baseline's configuration with a new seed; exit 1 if a figure moved beyond tolerance.

    The check needs enough games for its tolerances: for every figure, the 95% interval of the
    difference must be at most twice the tolerance wide (about 47,000 games for the shipped 4-player
    baseline at ±1 pp). With fewer, it warns and says how many.
    """
    from sim.games.tokaido.checks import statcheck

    data = load_baseline(baseline)
    if games is not None and games < 2:
        raise UserError(f"--games must be at least 2, got {games}")
    if json_out is not None:
        validate.out_file(json_out, "--json")
    t0 = time.perf_counter()
    tol = tolerance(rate_tolerance, score_tolerance)
    if sequential:
        from sim.games.tokaido.checks import sequential as sprt

        seq = sprt.run_sequential(
            data, games, seed, alpha, tol, baseline_overrides(data, sets), threads, str(baseline)
        )
        typer.echo(sprt.render_text(seq, show_all) + f"\n[{time.perf_counter() - t0:.1f} s]")
        if not seq.ok:
            raise typer.Exit(1)
        return
    result = statcheck.run_check(
        data, games, seed, alpha, tol, baseline_overrides(data, sets), threads, str(baseline)
    )
    from sim.games.tokaido.checks.power import note

    few = note(data, result.tolerance, result.games)
    if few is not None:
        result.notes.append(few)
    if sys.stdout.isatty():
        statcheck.render_rich(result, show_all)
    else:
        typer.echo(statcheck.render_text(result, show_all))
    typer.echo(f"[{time.perf_counter() - t0:.1f} s]")
    if json_out is not None:
        rows = [
            {
                "figure": r.key,
                "label": r.label,
                "baseline": r.base,
                "now": r.now,
                "difference": r.diff,
                "se": r.se,
                "tolerance": r.tol,
                "p_adjusted": r.p_adj,
                "verdict": r.verdict,
            }
            for r in result.rows
        ]
        json_out.write_text(
            json.dumps(
                {
                    "ok": result.ok,
                    "games": result.games,
                    "seed": result.seed,
                    "alpha": alpha,
                    "notes": result.notes,
                    "figures": rows,
                },
                indent=1,
            )
            + "\n"
        )
    if not result.ok:
        raise typer.Exit(1)


@check_app.command("make-baseline")
@user_errors
def make_baseline(
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Baseline JSON to write.")] = None,
    refresh: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="Remake this baseline (same configuration, games, seed, tolerances); --out defaults to it.",
        ),
    ] = None,
    players: Annotated[int, typer.Option("--players", "-p", help="Players, 2 to 5.")] = 4,
    travelers: Annotated[str, typer.Option(help="draft | random | NAME,NAME,...")] = "draft",
    bots: Bots = "greedy",
    variants: Annotated[str, typer.Option(help="Variants, comma-separated.")] = "",
    expansions: Annotated[str, typer.Option(help="Expansions, comma-separated.")] = "",
    sets: Sets = None,
    games: Annotated[int | None, typer.Option("--games", "-g", help="Games (default 200000).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed (default 1).")] = None,
    rate_tolerance: RateTol = None,
    score_tolerance: ScoreTol = None,
    threads: Threads = None,
) -> None:
    """Play games and write a baseline of every tracked figure."""
    from sim.games.tokaido.checks import statcheck
    from sim.games.tokaido.checks.golden import with_overrides
    from sim.games.tokaido.cli.options import make_config
    from sim.games.tokaido.rules.inert import refuse_inert
    from sim.run import runner

    tol = tolerance(rate_tolerance, score_tolerance)
    from_file = "--from takes the configuration from the baseline it remakes" if refresh is not None else None
    validate.refuse_unused(
        players=from_file,
        travelers=from_file,
        bots=from_file,
        variants=from_file,
        expansions=from_file,
        sets=from_file,
    )
    if games is not None and games < 2:
        raise UserError(f"--games must be at least 2, got {games}")
    if refresh is not None:
        old = load_baseline(refresh)
        config = GameConfig.parse(old["spec"])
        games, seed = (
            int(old["games"]) if games is None else games,
            int(old["seed"]) if seed is None else seed,
        )
        tol = {**old.get("tolerance", {}), **tol}
        out = out or refresh
    else:
        if out is None:
            raise UserError("give --out FILE (or --from BASELINE to remake one)")
        overrides, patches = parse_sets_and_patches(sets)
        config = refuse_inert(
            with_overrides(make_config(players, travelers, bots, variants, expansions, None), overrides),
            patches,
        )
    games, seed = 200_000 if games is None else games, 1 if seed is None else seed
    runner.validate(games, seed, 1, threads)
    validate.out_file(out)
    t0 = time.perf_counter()
    data = statcheck.make_baseline(config, games, seed, tol, threads)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    typer.echo(
        f"wrote {out}: {len(data['figures'])} figures of {games:,} games of {config.spec()} "
        f"(seed {seed}), {time.perf_counter() - t0:.1f} s"
    )


@check_app.command()
@user_errors
def calibrate(
    baseline: BaselineFile,
    runs: Annotated[int, typer.Option(help="Checks to run, each with its own seed.")] = 100,
    games: Annotated[
        int | None, typer.Option("--games", "-g", help="Games per check (default: the baseline's).")
    ] = None,
    first_seed: Annotated[int, typer.Option(help="Seed of the first check; then +1, +2, ...")] = 1_000_000,
    fresh: Annotated[
        bool,
        typer.Option(
            "--fresh-baselines",
            help="Also remake the baseline for every check (its own seed): the rate over baselines too.",
        ),
    ] = False,
    alpha: Alpha = 0.05,
    rate_tolerance: RateTol = None,
    score_tolerance: ScoreTol = None,
    sets: Sets = None,
    threads: Threads = None,
) -> None:
    """Run the stats check RUNS times with different seeds; report how often it fails.

    Without --set: the false-alarm rate of an unchanged engine. With --set (a
    rule change): the power, the share of checks that catch the change.
    """
    from sim.games.tokaido.checks import statcheck

    data = load_baseline(baseline)
    if runs < 1:
        raise UserError(f"--runs must be at least 1, got {runs}")
    if games is not None and games < 2:
        raise UserError(f"--games must be at least 2, got {games}")
    check_seed(first_seed, "--first-seed")
    tol, overrides = tolerance(rate_tolerance, score_tolerance), baseline_overrides(data, sets)
    t0 = time.perf_counter()
    fails, moved = statcheck.calibrate(data, runs, games, first_seed, alpha, tol, overrides, fresh, threads)
    what = "power (share of checks catching the change)" if overrides else "false-alarm rate"
    typer.echo(
        f"{fails} of {runs} checks failed: {what} {fails / runs:.1%} "
        f"(95% CI {_wilson(fails, runs)}); {time.perf_counter() - t0:.0f} s"
    )
    for label, n in sorted(moved.items(), key=lambda x: -x[1])[:10]:
        typer.echo(f"  {label}: flagged in {n} of {runs}")
    from sim.games.tokaido.checks.power import note
    from sim.games.tokaido.checks.statcheck import DEFAULT_TOLERANCE

    few = note(data, {**DEFAULT_TOLERANCE, **data.get("tolerance", {}), **tol}, games or int(data["games"]))
    if few is not None:
        typer.echo(few)


def _wilson(k: int, n: int) -> str:
    z = 1.959963984540054
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return f"{max(c - h, 0):.1%} to {min(c + h, 1):.1%}"
