"""``duo run|verify|replay|study|report|plot``: Tokaido Duo on a board kept as data (``tokaido-sim duo ...``).

Every output names the board's provenance and verified flag. User errors: one
line on stderr, exit 2, nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from kernels.duo.enums import BOT_NAMES
from sim.cli import validate
from sim.cli.options import (
    ClusterSpec,
    DatasetDir,
    OutDir,
    Resume,
    analysis_out,
    call_analysis,
    dataset_dir,
    resume_note,
)
from sim.dataset.manifest import MAX_GAME, check_seed
from sim.errors import UserError, user_errors
from sim.games.duo.rules import DuoRules, load_duo_rules
from sim.overrides import expand_sets

app = typer.Typer(name="duo", add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Tokaido Duo (2 players) on a board kept as data; the shipped board is a reconstruction.")

Bots = Annotated[str, typer.Option(help="Two bots, comma-separated: random, greedy, search.")]
Board = Annotated[Path | None, typer.Option(help="Board file (default: sim/games/duo/data/board.toml).")]
RulesFile = Annotated[Path | None, typer.Option("--rules", help="Number tables (default: sim/games/duo/data/rules.toml).")]
Sets = Annotated[list[str] | None, typer.Option("--set", help="Override KEY=VALUE in rules.toml (board.KEY for the "
                                                             "board), repeatable; @patch.toml too.")]
Games = Annotated[int, typer.Option("--games", "-g", help="Games to play.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Random seed (game i depends only on seed and i).")]
Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).", min=1)]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")]


def _bots(text: str) -> tuple[str, str]:
    items = [x.strip() for x in text.split(",") if x.strip()]
    if len(items) == 1:
        items *= 2
    if len(items) != 2 or any(b not in BOT_NAMES for b in items):
        raise UserError(f"--bots {text!r}: give two of {', '.join(BOT_NAMES)} (e.g. --bots greedy,search)")
    return items[0], items[1]


def _rules(board: Path | None, rules: Path | None, sets: list[str] | None) -> DuoRules:
    items = expand_sets(sets)
    loaded = load_duo_rules(board, rules, items)
    for i, item in enumerate(items):  # an override that changes nothing is refused, as Tokaido's are
        rest = load_duo_rules(board, rules, items[:i] + items[i + 1:])
        if rest.fingerprint() == loaded.fingerprint():
            raise UserError(f"--set {item} has no effect: the rule already has that value (or is set again "
                            "later); drop it")
    return loaded


def _games(games: int, seed: int) -> None:
    """--games and --seed of the Duo commands, checked before any work."""
    validate.at_least(games, 1, "--games")
    check_seed(seed)


@app.command()
@user_errors
def run(out: Annotated[Path, typer.Option("--out", "-o", help="Run directory (Parquet parts + manifest).")],
        games: Games = 10_000, seed: Seed = 0, bots: Bots = "greedy,greedy", board: Board = None,
        rules: RulesFile = None, sets: Sets = None, chunk_size: Annotated[int, typer.Option(help="Games per part.")]
        = 100_000, threads: Threads = None, resume: Resume = False, quiet: Quiet = False,
        cluster: ClusterSpec = None) -> None:
    """Play Duo games into Parquet (one row per player per game), with Tokaido's runner."""
    from sim.games.duo.game import DuoGame
    from sim.run import runner
    from sim.run.cluster import connect

    r = _rules(board, rules, sets)
    fresh = resume_note(validate.out_dir(out, resumable=True), resume)
    with connect(cluster) as cl:
        s = runner.run(DuoGame(r, _bots(bots)), games, seed, out, chunk_size, threads, resume=resume,
                       progress=not quiet, cluster=cl)
    if not quiet:
        if fresh:
            typer.echo(fresh)
        if s.played == 0:
            typer.echo(f"{out} is already complete ({games:,} games)\n{r.provenance()}")
        else:
            typer.echo(f"played {s.played:,} games in {s.seconds:.1f}s ({s.played / max(s.seconds, 1e-9):,.0f} "
                       f"games/s); {out} holds {games:,} games\n{r.provenance()}")


@app.command()
@user_errors
def verify(games: Games = 2000, seed: Seed = 0, bots: Bots = "greedy,greedy", board: Board = None,
           rules: RulesFile = None, sets: Sets = None) -> None:
    """Replay games with the independent referee; exit 1 on any disagreement."""
    from sim.checks.verify import verify as referee_check
    from sim.games.duo.game import DuoGame

    _games(games, seed)
    r = _rules(board, rules, sets)
    rep = referee_check(DuoGame(r, _bots(bots)), games, seed, chunk_size=500)
    typer.echo(f"{games - rep.mismatches:,} of {games:,} games agree with the referee ({r.provenance()})")
    for m in rep.first:
        typer.echo(f"game {m.game}: {m.errors[0]}", err=True)
    if not rep.ok:
        typer.echo(f"replay the first with: {rep.first[0].replay}", err=True)
        raise typer.Exit(1)


@app.command()
@user_errors
def replay(game: Annotated[int, typer.Option("--game", help="Game index.")] = 0, seed: Seed = 0,
           bots: Bots = "greedy,greedy", board: Board = None, rules: RulesFile = None, sets: Sets = None,
           setup: Annotated[bool, typer.Option(help="Show the setup events too.")] = False) -> None:
    """Replay one game: its action log, the referee's verdict and the result rows."""
    from sim.games.duo.engine import play_duo_games
    from sim.games.duo.narrate import narrate
    from sim.games.duo.referee.game import referee_game, rows_from_records

    check_seed(seed)
    if not 0 <= game <= MAX_GAME:
        raise UserError(f"--game takes 0 to {MAX_GAME:,} (a 64-bit game index), got {game:,}")
    r = _rules(board, rules, sets)
    batch = play_duo_games(r, seed, game, 1, _bots(bots), log=True)
    typer.echo(f"# Duo game {game}, seed {seed}; {r.provenance()}")
    for line in narrate(batch.game_events(0), r, setup):
        typer.echo(line)
    rows = rows_from_records(batch.game_records(0))
    v = referee_game(r, batch.game_events(0), rows)
    typer.echo("referee: agrees" if v.ok else "referee: " + "; ".join(v.errors[:3]))
    for row in rows:
        typer.echo(json.dumps(row))


@app.command()
@user_errors
def study(out: Annotated[Path, typer.Option("--out", "-o", help="Directory for study.md and per_board.csv.")],
          boards: Annotated[int, typer.Option("--boards", "-k", help="Random boards in the family.")] = 20,
          games: Games = 2000, seed: Seed = 0, rules: RulesFile = None, sets: Sets = None,
          threads: Threads = None) -> None:
    """Run the robustness questions across K random boards; report what holds on >= 95% of them."""
    from sim.games.duo.study import study as run_study
    from sim.games.duo.study import to_markdown

    if boards < 1 or games < 10:
        raise UserError("--boards must be at least 1 and --games at least 10")
    check_seed(seed)
    validate.out_dir(out)
    if out.exists() and any(out.iterdir()):
        raise UserError(f"{out} is not empty; choose another --out")
    res = run_study(_rules(None, rules, sets), boards, games, seed, threads)
    out.mkdir(parents=True, exist_ok=True)
    (out / "study.md").write_text(to_markdown(res, games))
    res.per_board.write_csv(out / "per_board.csv")
    typer.echo(to_markdown(res, games))



@app.command()
@user_errors
def report(dataset: DatasetDir, out: OutDir = None) -> None:
    """Write the Duo report of a `duo run` directory: report.md + CSVs (default --out: DATASET-report)."""
    out = analysis_out(out, dataset_dir(dataset), "report")
    call_analysis("analysis.duo.report", "write_duo_report", dataset, out)
    typer.echo(f"Duo report written to {out}")


@app.command()
@user_errors
def plot(dataset: DatasetDir, out: OutDir = None) -> None:
    """Draw the Duo plots of a `duo run` directory (default --out: DATASET-plots)."""
    out = analysis_out(out, dataset_dir(dataset), "plots")
    call_analysis("analysis.duo.plots", "plot_duo_all", dataset, out)
    typer.echo(f"Duo plots written to {out}")
