"""The ``tokaido-sim`` command line: run, verify, replay, study, report, compare, plot.

User errors (bad options, unusable output directory) end with one line
``error: ...`` on stderr and exit code 2, before anything is written.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from kernels import enums as E
from sim import runner
from sim.config import GameConfig
from sim.errors import UserError, fail, user_errors
from sim.overrides import expand_sets
from sim.profiles import profile_sets

app = typer.Typer(
    name="tokaido-sim", add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
    help="Monte Carlo balance simulator for the board game Tokaido.",
)

F = TypeVar("F", bound=Callable[..., Any])
# typer >= 0.20 vendors click; take its exception classes from wherever BadParameter lives
_exc = sys.modules[typer.BadParameter.__module__]
UsageError: type[Exception] = _exc.UsageError
ClickException: type[Exception] = _exc.ClickException
NoArgsIsHelpError: type[Exception] = getattr(_exc, "NoArgsIsHelpError", UsageError)
Abort: tuple[type[BaseException], ...] = (typer.Abort, getattr(_exc, "Abort", typer.Abort))

# ------------------------------------------------------------------ options
Players = Annotated[int, typer.Option("--players", "-p", help="Players, 2 to 5.")]
Travelers = Annotated[str, typer.Option(help="draft | random | NAME,NAME,... (one per player).")]
Bots = Annotated[str, typer.Option(help="greedy | random | B1,B2,... (one per player).")]
Variants = Annotated[str, typer.Option(help="Variants, comma-separated: initiation, return-trip, gastronomy, "
                                            "preparations (or none).")]
Expansions = Annotated[str, typer.Option(help="Expansions, comma-separated: new-encounters, crossroads (or none).")]
Sets = Annotated[list[str] | None, typer.Option("--set", help="Rule override KEY=VALUE, repeatable, "
                                                               "e.g. --set travelers.kinko.coins=6.")]
RulesProfile = Annotated[str, typer.Option("--rules", help="Rules profile: rulebook | online (sim/data/profiles/).")]
Games = Annotated[int, typer.Option("--games", "-g", help="Games to play.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Random seed (game i depends only on seed and i).")]
Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")]
Resume = Annotated[bool, typer.Option("--resume", help="Continue an interrupted run or study in --out.")]
ClusterSpec = Annotated[str | None, typer.Option(
    "--cluster", help="Play on a Dask cluster: a scheduler ADDRESS (tcp://HOST:8786) or local:N for N local "
                      "worker processes (default: in this process). See docs/cluster.md.")]


def _split(text: str) -> tuple[str, ...]:
    items = tuple(x.strip() for x in text.replace("+", ",").split(",") if x.strip())
    return () if items == ("none",) else items


def make_config(
    players: int, travelers: str, bots: str, variants: str, expansions: str, sets: list[str] | None,
    profile: str = "rulebook",
) -> GameConfig:
    """Build and validate a ``GameConfig`` from the command-line options (``profile``: ``--rules``)."""
    overrides = []
    for item in expand_sets(profile_sets(profile) + list(sets or [])):  # KEY=VALUE, or @patch.toml
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UserError(f"malformed --set '{item}'; use --set KEY=VALUE, e.g. --set travelers.kinko.coins=6")
        overrides.append((key.strip(), value.strip()))
    trav = travelers.strip().lower()
    if trav not in ("draft", "random"):
        trav = ",".join(_split(trav))
    return GameConfig(
        n_players=players, variants=_split(variants), expansions=_split(expansions), travelers=trav,
        bots=_split(bots.lower()) or ("greedy",), overrides=tuple(overrides), profile=profile,
    )


# ----------------------------------------------------------------- commands
@app.command()
@user_errors
def run(
    games: Games, seed: Seed, out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")],
    players: Players = 4, travelers: Travelers = "draft", bots: Bots = "greedy", variants: Variants = "",
    expansions: Expansions = "", sets: Sets = None, rules_profile: RulesProfile = "rulebook",
    chunk_size: Annotated[int, typer.Option(help="Games per part file.")] = runner.DEFAULT_CHUNK_SIZE,
    threads: Threads = None, resume: Resume = False, quiet: Quiet = False, cluster: ClusterSpec = None,
) -> None:
    """Play GAMES games and write them to a Parquet dataset in OUT."""
    from sim.cluster import connect

    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    with connect(cluster) as cl:
        s = runner.run(config, games, seed, out, chunk_size, threads, resume=resume, progress=not quiet,
                       cluster=cl)
    if not quiet:
        if s.played == 0:
            typer.echo(f"{out} is already complete ({games:,} games)")
        else:
            rate = s.played / s.seconds if s.seconds > 0 else 0.0
            typer.echo(f"played {s.played:,} games ({rate:,.0f} games/s); {out} holds {games:,} games")


@app.command()
@user_errors
def verify(
    games: Games, seed: Seed, players: Players = 4, travelers: Travelers = "draft", bots: Bots = "greedy",
    variants: Variants = "", expansions: Expansions = "", sets: Sets = None, rules_profile: RulesProfile = "rulebook",
    chunk_size: Annotated[int, typer.Option(help="Games per engine call.")] = 1000,
    threads: Threads = None, quiet: Quiet = False,
) -> None:
    """Play games with the action log and check every one with the referee."""
    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    rules = config.rules()
    runner.validate(games, seed, chunk_size, threads)
    referee_game = _import("sim.referee", "referee_game")
    from sim import engine

    mismatches, first = 0, None
    with runner.progress_bar(games, 0, not quiet) as advance:
        for start in range(0, games, chunk_size):
            count = min(chunk_size, games - start)
            batch = engine.play_games(config, rules, seed, start, count, log=True, threads=threads)
            assert batch.events is not None and batch.n_events is not None
            rows = kernel_rows(batch.records)
            n = config.n_players
            for i in range(count):
                ev = batch.events[i, : min(int(batch.n_events[i]), batch.events.shape[1])]
                res = referee_game(config, rules, ev, rows[i * n : (i + 1) * n])
                if not res.ok:
                    mismatches += 1
                    if first is None:
                        first = (start + i, res, ev.copy())
            advance(count)
    typer.echo(f"verified {games} games, {mismatches} mismatches")
    if first is not None:
        game, res, ev = first
        typer.echo(f"first mismatch: game {game}, seed {seed}, config {config.spec()}")
        typer.echo(f"replay it with: tokaido-sim replay --seed {seed} --game {game} {cli_options(config)}")
        for err in _as_list(res.errors):
            typer.echo(f"referee: {err}")
        typer.echo(decode_log(ev))
        raise typer.Exit(1)


@app.command()
@user_errors
def replay(
    seed: Seed, game: Annotated[int, typer.Option("--game", help="Index of the game to replay.")],
    players: Players = 4, travelers: Travelers = "draft", bots: Bots = "greedy", variants: Variants = "",
    expansions: Expansions = "", sets: Sets = None, rules_profile: RulesProfile = "rulebook",
) -> None:
    """Play one game with the action log and print the referee's narration."""
    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    rules = config.rules()
    runner.validate(1, seed, 1, None)
    if game < 0:
        raise UserError(f"--game must be 0 or more, got {game}")
    referee_game = _import("sim.referee", "referee_game")
    from sim import engine

    batch = engine.play_games(config, rules, seed, game, 1, log=True)
    assert batch.events is not None and batch.n_events is not None
    ev = batch.events[0, : min(int(batch.n_events[0]), batch.events.shape[1])]
    res = referee_game(config, rules, ev, kernel_rows(batch.records), narrate=True)
    typer.echo("\n".join(_as_list(res.narration)))
    if not res.ok:
        for err in _as_list(res.errors):
            typer.echo(f"referee: {err}")
        raise typer.Exit(1)


@app.command()
@user_errors
def study(
    file: Annotated[Path, typer.Argument(help="Study TOML file (see studies/).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")],
    resume: Resume = False, quiet: Quiet = False, threads: Threads = None, cluster: ClusterSpec = None,
) -> None:
    """Run every cell of a study into one hive-partitioned dataset."""
    from sim.cluster import connect
    from sim.study import run_study

    with connect(cluster) as cl:
        manifest = run_study(file, out, resume=resume, quiet=quiet, threads=threads, cluster=cl)
    if not quiet:
        games = sum(c["games"] for c in manifest["cells"])
        typer.echo(f"study complete: {len(manifest['cells'])} cells, {games:,} games in {out}")


DatasetDir = Annotated[Path, typer.Argument(help="A run or study directory.")]
OutDir = Annotated[Path | None, typer.Option("--out", "-o", help="Output directory.")]


def _dataset_dir(path: Path) -> Path:
    if not path.is_dir():
        raise UserError(f"{path} is not a directory; give a run or study directory")
    return path


def _analysis_out(out: Path | None, dataset: Path, suffix: str) -> Path:
    out = out or dataset.with_name(f"{dataset.resolve().name}-{suffix}")
    runner.check_writable(out)
    return out


@app.command()
@user_errors
def report(dataset: DatasetDir, out: OutDir = None) -> None:
    """Write the balance report of a dataset (default --out: DATASET-report)."""
    out = _analysis_out(out, _dataset_dir(dataset), "report")
    _analysis("analysis.report", "write_report", dataset, out)
    typer.echo(f"report written to {out}")


@app.command()
@user_errors
def compare(
    base: DatasetDir, other: DatasetDir,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")],
) -> None:
    """Compare two datasets (e.g. a rule change against the base rules)."""
    _dataset_dir(base)
    _dataset_dir(other)
    runner.check_writable(out)
    _analysis("analysis.compare", "compare", base, other, out)
    typer.echo(f"comparison written to {out}")


@app.command()
@user_errors
def plot(dataset: DatasetDir, out: OutDir = None) -> None:
    """Draw the standard plots of a dataset (default --out: DATASET-plots)."""
    out = _analysis_out(out, _dataset_dir(dataset), "plots")
    _analysis("analysis.plots", "plot_all", dataset, out)
    typer.echo(f"plots written to {out}")


# ------------------------------------------------------------------ helpers
def _import(module: str, name: str) -> Any:
    import importlib

    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise fail(f"{module} is not available in this installation", 1) from None


def _analysis(module: str, name: str, *args: Path) -> None:
    func = _import(module, name)
    try:
        func(*args)
    except ValueError as exc:  # the analysis modules' one-line "what is wrong" errors
        raise UserError(" ".join(str(exc).split())) from None


def _as_list(x: Any) -> list[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else [str(e) for e in x]


def kernel_rows(records: Any) -> list[dict[str, int]]:
    """The kernel's result records as one dict per player row (what the referee compares)."""
    names = records.dtype.names
    return [dict(zip(names, map(int, row), strict=True)) for row in records.tolist()]


EV_NAMES = {v: k for k, v in E.Ev._asdict().items()}


def decode_log(events: Any) -> str:
    """The action log as text, one event a line: ``index KIND field=value ...``."""
    lines = []
    for i, row in enumerate(events.tolist()):
        kind = EV_NAMES.get(row[0], f"?{row[0]}")
        fields = " ".join(f"{k}={v}" for k, v in zip("tabcd", row[1:], strict=True) if v != -1)
        lines.append(f"{i:4d} {kind:<8} {fields}".rstrip())
    return "\n".join(lines)


def cli_options(config: GameConfig) -> str:
    opts = [f"--players {config.n_players}", f"--travelers {config.travelers}", f"--bots {','.join(config.bots)}"]
    if config.variants:
        opts.append(f"--variants {','.join(config.variants)}")
    if config.expansions:
        opts.append(f"--expansions {','.join(config.expansions)}")
    opts += [f"--set {k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in config.overrides]
    return " ".join(opts)


from sim.checks_cli import check_app  # noqa: E402

app.add_typer(check_app, name="check")


def main(argv: list[str] | None = None) -> None:
    """Console entry point: usage errors are one line too (exit 2)."""
    command = typer.main.get_command(app)
    try:
        code = command.main(args=argv, prog_name="tokaido-sim", standalone_mode=False)
    except NoArgsIsHelpError as exc:
        ctx = getattr(exc, "ctx", None)
        typer.echo(ctx.get_help() if ctx else "run 'tokaido-sim --help'")
        code = 0
    except UsageError as exc:
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx else "tokaido-sim"
        message = " ".join(exc.format_message().split())  # type: ignore[attr-defined]
        typer.echo(f"error: {message} (see '{where} --help')", err=True)
        code = 2
    except ClickException as exc:
        typer.echo(f"error: {exc.format_message()}", err=True)  # type: ignore[attr-defined]
        code = getattr(exc, "exit_code", 1)
    except Abort:
        code = 130
    sys.exit(code if isinstance(code, int) else 0)


@app.command()
@user_errors
def playthroughs(
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Directory (default: the repo's "
                                                                   "tests/playthroughs/).")] = None,
) -> None:
    """Regenerate the golden playthrough files (sim/playthrough.py) after an intended change."""
    from sim import playthrough

    written = playthrough.regenerate(out)
    typer.echo(f"wrote {len(written)} playthroughs to {out or playthrough.default_dir()}")


app.add_typer(_import("sim.bots_cli", "bots_app"))  # tune, ladder (sim/bots_cli.py)


if __name__ == "__main__":
    main()
