"""``tokaido-sim check ...``: golden games and statistical baselines for CI (docs/ci.md).

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

from sim.checks.golden import GoldenSuite
from sim.cli import validate
from sim.cli.options import Bots
from sim.dataset.manifest import check_seed
from sim.errors import UserError, user_errors
from sim.files import read_json
from sim.games.tokaido.rules.config import GameConfig

check_app = typer.Typer(no_args_is_help=True, help="CI checks: golden games and statistical baselines.")

Sets = Annotated[list[str] | None, typer.Option("--set", help="Rule override KEY=VALUE or @patch.toml, repeatable.")]
Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).", min=1)]
BaselineFile = Annotated[Path, typer.Option("--baseline", "-b", help="Baseline JSON (results/baselines/).")]
Alpha = Annotated[float, typer.Option(help="Family-wise false-alarm level (Holm-corrected).")]
RateTol = Annotated[float | None, typer.Option(help="Tolerance of rates (win, pick), e.g. 0.01 = 1 pp "
                                                   "(default: the baseline's).")]
ScoreTol = Annotated[float | None, typer.Option(help="Tolerance of mean scores, in points (default: the baseline's).")]




def parse_sets(sets: list[str] | None) -> tuple[tuple[str, Any], ...]:
    """``--set`` items (``KEY=VALUE`` or ``@patch.toml``) as override pairs (a patch's values keep their type)."""
    return parse_sets_and_patches(sets)[0]


def parse_sets_and_patches(sets: list[str] | None) -> tuple[tuple[tuple[str, Any], ...], dict[int, str]]:
    """``parse_sets``, and the index of each pair read from a patch file with its file (``sim.games.tokaido.rules.inert``)."""
    from sim.overrides import load_patch, parse_value

    out: list[tuple[str, Any]] = []
    patches: dict[int, str] = {}
    for item in sets or []:
        if item.strip().startswith("@"):
            pairs = load_patch(item.strip()[1:])
            patches.update({len(out) + i: item.strip()[1:] for i in range(len(pairs))})
            out += pairs
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UserError(f"malformed --set '{item}'; use --set KEY=VALUE or --set @patch.toml")
        out.append((key.strip(), parse_value(value)))  # typed: lists survive the config string
    return tuple(out), patches


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

    data = read_json(path, "a tokaido-sim baseline (JSON, like results/baselines/base-4p-greedy.json)",
                     "make one with tokaido-sim check make-baseline")
    return check_baseline(data, str(path))


# ------------------------------------------------------------------ golden
@check_app.command()
@user_errors
def golden(
    file: Annotated[Path | None, typer.Option("--file", help="One golden file, Tokaido or Duo (default: both "
                                                             "tests/golden/golden.json and duo_golden.json of "
                                                             "this checkout).")] = None,
    update: Annotated[bool, typer.Option("--update", help="Refresh after a deliberate change; print what moved.")]
    = False,
    force: Annotated[bool, typer.Option("--force", help="With --update: write even if the rules version was "
                                                        "not bumped.")] = False,
    sets: Sets = None,
) -> None:
    """Replay every game's golden games; exit 1 with the first differing game and turn if any moved."""
    from sim.checks import golden as G
    from sim.games import plugins

    validate.refuse_unused(force=None if update else "it lets --update write without a rules version bump; "
                                                     "without --update nothing is written")
    if file is not None:
        read_json(file, "a golden file (JSON, like tests/golden/golden.json)",
                  "make one with tokaido-sim check golden --update --file FILE")
    overrides = parse_sets(sets)
    suites = {name: p.golden() for name, p in plugins().items()}
    if file is not None:
        game = G.peek_game(file) or "tokaido"  # a missing or unreadable file: load() names the problem
        if game not in suites:
            raise UserError(f"{file} holds golden games of '{game}', a game this tokaido-sim does not have")
        ok = _golden(suites[game], file, update, force, overrides)
    elif overrides:  # --set is a Tokaido rule: the other games' files are checked as they are
        ok = _golden(suites["tokaido"], suites["tokaido"].path, update, force, overrides)
    else:
        ok = all([_golden(suite, suite.path, update, force, ()) for suite in suites.values()])
    if not ok:
        raise typer.Exit(1)


def _golden(suite: GoldenSuite, path: Path, update: bool, force: bool, overrides: tuple[tuple[str, Any], ...]) -> bool:
    from sim.checks import golden as G

    t0 = time.perf_counter()
    if update:
        if overrides:
            raise UserError("--update writes the goldens of the rules as they are; drop --set "
                            "(change the rules data instead)")
        rep, new, written = G.update(suite, path, force)
        games = sum(len(c["games"]) for c in new["configs"])
        if rep is not None and (rep.diffs or rep.notes):
            typer.echo("\n".join(rep.lines()))
        if not written:
            return False
        made = {k: new[k] for k in ("rules_version", "provenance", "rules_fingerprint") if k in new}
        typer.echo(f"wrote {path}: {games} {suite.game} games of {len(new['configs'])} configurations "
                   f"({', '.join(map(str, made.values()))}), {time.perf_counter() - t0:.1f} s")
        return True
    rep = G.check(suite, G.load(path), overrides)
    typer.echo("\n".join(rep.lines()) + f"  [{time.perf_counter() - t0:.1f} s]")
    return rep.ok


# ------------------------------------------------------------------- stats
@check_app.command()
@user_errors
def stats(
    baseline: BaselineFile,
    games: Annotated[int | None, typer.Option("--games", "-g", help="Games to play (default: the baseline's). The "
                                                                    "tolerances need enough games; below the number "
                                                                    "the baseline needs the output warns and names "
                                                                    "it (sim/games/tokaido/checks/power.py).")]
    = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the new games (default: a fixed "
                                                                  "seed other than the baseline's).")] = None,
    alpha: Alpha = 0.05, rate_tolerance: RateTol = None, score_tolerance: ScoreTol = None, sets: Sets = None,
    show_all: Annotated[bool, typer.Option("--all", help="Show every figure, not only those that moved.")] = False,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the results to this JSON file.")]
    = None,
    threads: Threads = None,
    sequential: Annotated[bool, typer.Option("--sequential", help="SPRT: play in batches and stop as soon as every "
                                             "figure is decided; --games is then the cap (docs/ci.md).")] = False,
) -> None:
    """Play the baseline's configuration with a new seed; exit 1 if a figure moved beyond tolerance.

    The check needs enough games for its tolerances: for every figure, the 95% interval of the
    difference must be at most twice the tolerance wide (about 47,000 games for the shipped 4-player
    baseline at ±1 pp). With fewer, it warns and says how many.
    """
    from sim.games.tokaido.checks import statcheck as S

    data = load_baseline(baseline)
    if games is not None and games < 2:
        raise UserError(f"--games must be at least 2, got {games}")
    if json_out is not None:
        validate.out_file(json_out, "--json")
    t0 = time.perf_counter()
    tol = tolerance(rate_tolerance, score_tolerance)
    if sequential:
        from sim.games.tokaido.checks import sequential as Q

        seq = Q.run_sequential(data, games, seed, alpha, tol, baseline_overrides(data, sets), threads, str(baseline))
        typer.echo(Q.render_text(seq, show_all) + f"\n[{time.perf_counter() - t0:.1f} s]")
        if not seq.ok:
            raise typer.Exit(1)
        return
    result = S.run_check(data, games, seed, alpha, tol, baseline_overrides(data, sets), threads, str(baseline))
    from sim.games.tokaido.checks.power import note

    few = note(data, result.tolerance, result.games)
    if few is not None:
        result.notes.append(few)
    if sys.stdout.isatty():
        S.render_rich(result, show_all)
    else:
        typer.echo(S.render_text(result, show_all))
    typer.echo(f"[{time.perf_counter() - t0:.1f} s]")
    if json_out is not None:
        rows = [{"figure": r.key, "label": r.label, "baseline": r.base, "now": r.now, "difference": r.diff,
                 "se": r.se, "tolerance": r.tol, "p_adjusted": r.p_adj, "verdict": r.verdict} for r in result.rows]
        json_out.write_text(json.dumps({"ok": result.ok, "games": result.games, "seed": result.seed,
                                        "alpha": alpha, "notes": result.notes, "figures": rows}, indent=1) + "\n")
    if not result.ok:
        raise typer.Exit(1)


@check_app.command("make-baseline")
@user_errors
def make_baseline(
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Baseline JSON to write.")] = None,
    refresh: Annotated[Path | None, typer.Option("--from", help="Remake this baseline (same configuration, games, "
                                                                "seed, tolerances); --out defaults to it.")] = None,
    players: Annotated[int, typer.Option("--players", "-p", help="Players, 2 to 5.")] = 4,
    travelers: Annotated[str, typer.Option(help="draft | random | NAME,NAME,...")] = "draft",
    bots: Bots = "greedy",
    variants: Annotated[str, typer.Option(help="Variants, comma-separated.")] = "",
    expansions: Annotated[str, typer.Option(help="Expansions, comma-separated.")] = "",
    sets: Sets = None,
    games: Annotated[int | None, typer.Option("--games", "-g", help="Games (default 200000).")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed (default 1).")] = None,
    rate_tolerance: RateTol = None, score_tolerance: ScoreTol = None, threads: Threads = None,
) -> None:
    """Play games and write a baseline of every tracked figure."""
    from sim.cli.options import make_config
    from sim.games.tokaido.checks import statcheck as S
    from sim.games.tokaido.checks.golden import with_overrides
    from sim.games.tokaido.rules.inert import refuse_inert
    from sim.run import runner

    tol = tolerance(rate_tolerance, score_tolerance)
    from_file = "--from takes the configuration from the baseline it remakes" if refresh is not None else None
    validate.refuse_unused(players=from_file, travelers=from_file, bots=from_file, variants=from_file,
                           expansions=from_file, sets=from_file)
    if games is not None and games < 2:
        raise UserError(f"--games must be at least 2, got {games}")
    if refresh is not None:
        old = load_baseline(refresh)
        config = GameConfig.parse(old["spec"])
        games, seed = int(old["games"]) if games is None else games, int(old["seed"]) if seed is None else seed
        tol = {**old.get("tolerance", {}), **tol}
        out = out or refresh
    else:
        if out is None:
            raise UserError("give --out FILE (or --from BASELINE to remake one)")
        overrides, patches = parse_sets_and_patches(sets)
        config = refuse_inert(with_overrides(make_config(players, travelers, bots, variants, expansions, None),
                                             overrides), patches)
    games, seed = 200_000 if games is None else games, 1 if seed is None else seed
    runner.validate(games, seed, 1, threads)
    validate.out_file(out)
    t0 = time.perf_counter()
    data = S.make_baseline(config, games, seed, tol, threads)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=1) + "\n")
    typer.echo(f"wrote {out}: {len(data['figures'])} figures of {games:,} games of {config.spec()} "
               f"(seed {seed}), {time.perf_counter() - t0:.1f} s")


@check_app.command()
@user_errors
def calibrate(
    baseline: BaselineFile,
    runs: Annotated[int, typer.Option(help="Checks to run, each with its own seed.")] = 100,
    games: Annotated[int | None, typer.Option("--games", "-g", help="Games per check (default: the "
                                                                    "baseline's).")] = None,
    first_seed: Annotated[int, typer.Option(help="Seed of the first check; then +1, +2, ...")] = 1_000_000,
    fresh: Annotated[bool, typer.Option("--fresh-baselines", help="Also remake the baseline for every check "
                                                                  "(its own seed): the rate over baselines too.")]
    = False,
    alpha: Alpha = 0.05, rate_tolerance: RateTol = None, score_tolerance: ScoreTol = None, sets: Sets = None,
    threads: Threads = None,
) -> None:
    """Run the stats check RUNS times with different seeds; report how often it fails.

    Without --set: the false-alarm rate of an unchanged engine. With --set (a
    rule change): the power, the share of checks that catch the change.
    """
    from sim.games.tokaido.checks import statcheck as S

    data = load_baseline(baseline)
    if runs < 1:
        raise UserError(f"--runs must be at least 1, got {runs}")
    if games is not None and games < 2:
        raise UserError(f"--games must be at least 2, got {games}")
    check_seed(first_seed, "--first-seed")
    tol, overrides = tolerance(rate_tolerance, score_tolerance), baseline_overrides(data, sets)
    t0 = time.perf_counter()
    fails, moved = S.calibrate(data, runs, games, first_seed, alpha, tol, overrides, fresh, threads)
    what = "power (share of checks catching the change)" if overrides else "false-alarm rate"
    typer.echo(f"{fails} of {runs} checks failed: {what} {fails / runs:.1%} "
               f"(95% CI {_wilson(fails, runs)}); {time.perf_counter() - t0:.0f} s")
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


app = typer.Typer()  # top-level commands of this group


@app.command()
@user_errors
def playthroughs(
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Directory (default: the repo's "
                                                                   "tests/playthroughs/).")] = None,
) -> None:
    """Regenerate every game's golden playthrough files (each game's ``playthrough`` module lists them)."""
    from sim.checks.playthrough import DEFAULT_DIR, write_all
    from sim.games import plugins

    if out is not None:
        validate.out_dir(out)
    written = write_all([p.playthroughs() for p in plugins().values()], out)
    typer.echo(f"wrote {len(written)} playthroughs to {out or DEFAULT_DIR}")
