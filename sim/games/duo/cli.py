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

app = typer.Typer(
    name="duo",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Tokaido Duo (2 players) on a board kept as data; the shipped board is a reconstruction.",
)

Bots = Annotated[
    str, typer.Option(help="Two bots, comma-separated: random, greedy, search (one with --solo).")
]
Board = Annotated[Path | None, typer.Option(help="Board file (default: sim/games/duo/data/board.toml).")]
RulesFile = Annotated[
    Path | None, typer.Option("--rules", help="Number tables (default: sim/games/duo/data/rules.toml).")
]
Sets = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Override KEY=VALUE in rules.toml (board.KEY for the board), repeatable; @patch.toml too.",
    ),
]
Games = Annotated[int, typer.Option("--games", "-g", help="Games to play.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Random seed (game i depends only on seed and i).")]
Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).", min=1)]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")]
Solo = Annotated[
    bool,
    typer.Option(
        "--solo",
        help="Solo: one bot (--bots BOT) against the Automa, a labelled "
        "reconstruction (sim/games/duo/data/automa.toml).",
    ),
]
AutomaFile = Annotated[
    Path | None,
    typer.Option(
        "--automa", help="The Automa's rules with --solo (default: sim/games/duo/data/automa.toml)."
    ),
]
PLAYERS = tuple(b for b in BOT_NAMES if b != "automa")


def _bots(text: str, solo: bool = False) -> tuple[str, str]:
    items = [x.strip() for x in text.split(",") if x.strip()]
    if solo:
        if len(items) == 2 and items[0] == items[1]:
            items = items[:1]  # the default greedy,greedy means "greedy"
        if len(items) != 1 or items[0] not in PLAYERS:
            raise UserError(
                f"--bots {text!r}: with --solo give the one bot that plays the Automa: "
                f"{', '.join(PLAYERS)} (e.g. --solo --bots search)"
            )
        return items[0], "automa"
    if "automa" in items:
        raise UserError(
            f"--bots {text!r}: the Automa is the solo opponent; play against her with --solo --bots BOT"
        )
    if len(items) == 1:
        items *= 2
    if len(items) != 2 or any(b not in PLAYERS for b in items):
        raise UserError(f"--bots {text!r}: give two of {', '.join(PLAYERS)} (e.g. --bots greedy,search)")
    return items[0], items[1]


def _rules(
    board: Path | None,
    rules: Path | None,
    sets: list[str] | None,
    solo: bool = False,
    automa: Path | None = None,
) -> DuoRules:
    items = expand_sets(sets)
    loaded = load_duo_rules(board, rules, items, solo, automa)
    for i, item in enumerate(items):  # an override that changes nothing is refused, as Tokaido's are
        rest = load_duo_rules(board, rules, items[:i] + items[i + 1 :], solo, automa)
        if rest.fingerprint() == loaded.fingerprint():
            raise UserError(
                f"--set {item} has no effect: the rule already has that value (or is set again "
                "later); drop it"
            )
    return loaded


def _games(games: int, seed: int) -> None:
    """--games and --seed of the Duo commands, checked before any work."""
    validate.at_least(games, 1, "--games")
    check_seed(seed)


@app.command()
@user_errors
def run(
    out: Annotated[Path, typer.Option("--out", "-o", help="Run directory (Parquet parts + manifest).")],
    games: Games = 10_000,
    seed: Seed = 0,
    bots: Bots = "greedy,greedy",
    board: Board = None,
    rules: RulesFile = None,
    sets: Sets = None,
    chunk_size: Annotated[int, typer.Option(help="Games per part.")] = 100_000,
    threads: Threads = None,
    resume: Resume = False,
    quiet: Quiet = False,
    cluster: ClusterSpec = None,
    solo: Solo = False,
    automa: AutomaFile = None,
) -> None:
    """Play Duo games into Parquet (one row per player per game), with Tokaido's runner."""
    from sim.games.duo.game import DuoGame
    from sim.run import runner
    from sim.run.cluster import connect

    b = _bots(bots, solo)
    r = _rules(board, rules, sets, solo, automa)
    fresh = resume_note(validate.out_dir(out, resumable=True), resume)
    with connect(cluster) as cl:
        s = runner.run(
            DuoGame(r, b),
            games,
            seed,
            out,
            chunk_size,
            threads,
            resume=resume,
            progress=not quiet,
            cluster=cl,
        )
    if not quiet:
        if fresh:
            typer.echo(fresh)
        if s.played == 0:
            typer.echo(f"{out} is already complete ({games:,} games)\n{r.provenance()}")
        else:
            typer.echo(
                f"played {s.played:,} games in {s.seconds:.1f}s ({s.played / max(s.seconds, 1e-9):,.0f} "
                f"games/s); {out} holds {games:,} games\n{r.provenance()}"
            )


@app.command()
@user_errors
def verify(
    games: Games = 2000,
    seed: Seed = 0,
    bots: Bots = "greedy,greedy",
    board: Board = None,
    rules: RulesFile = None,
    sets: Sets = None,
    solo: Solo = False,
    automa: AutomaFile = None,
) -> None:
    """Replay games with the independent referee; exit 1 on any disagreement."""
    from sim.checks.verify import verify as referee_check
    from sim.games.duo.game import DuoGame

    _games(games, seed)
    b = _bots(bots, solo)
    r = _rules(board, rules, sets, solo, automa)
    rep = referee_check(DuoGame(r, b), games, seed, chunk_size=500)
    typer.echo(f"{games - rep.mismatches:,} of {games:,} games agree with the referee ({r.provenance()})")
    for m in rep.first:
        typer.echo(f"game {m.game}: {m.errors[0]}", err=True)
    if not rep.ok:
        typer.echo(f"replay the first with: {rep.first[0].replay}", err=True)
        raise typer.Exit(1)


@app.command()
@user_errors
def replay(
    game: Annotated[int, typer.Option("--game", help="Game index.")] = 0,
    seed: Seed = 0,
    bots: Bots = "greedy,greedy",
    board: Board = None,
    rules: RulesFile = None,
    sets: Sets = None,
    setup: Annotated[bool, typer.Option(help="Show the setup events too.")] = False,
    solo: Solo = False,
    automa: AutomaFile = None,
) -> None:
    """Replay one game: its action log, the referee's verdict and the result rows."""
    from sim.games.duo.engine import play_duo_games
    from sim.games.duo.narrate import narrate
    from sim.games.duo.referee.game import referee_game, rows_from_records

    check_seed(seed)
    if not 0 <= game <= MAX_GAME:
        raise UserError(f"--game takes 0 to {MAX_GAME:,} (a 64-bit game index), got {game:,}")
    b = _bots(bots, solo)
    r = _rules(board, rules, sets, solo, automa)
    batch = play_duo_games(r, seed, game, 1, b, log=True)
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
def study(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for study.md and its CSVs.")],
    worlds: Annotated[
        int, typer.Option("--worlds", "-k", help="Sampled worlds (maps and number tables).")
    ] = 200,
    games: Annotated[int, typer.Option("--games", "-g", help="Greedy games per world and reading.")] = 2000,
    seed: Seed = 0,
    vary: Annotated[
        str, typer.Option(help="What the worlds vary: both, numbers (the map fixed: --board) or maps.")
    ] = "both",
    board: Board = None,
    rules: RulesFile = None,
    sets: Sets = None,
    unknowns: Annotated[
        Path | None,
        typer.Option(help="Unknowns and their ranges (default: sim/games/duo/data/unknowns.toml)."),
    ] = None,
    threads: Threads = None,
    quiet: Quiet = False,
) -> None:
    """Which conclusions survive what is not known: K sampled worlds; robust, depends on, or unsupported."""
    from sim.games.duo.study import study as run_study
    from sim.games.duo.study_report import write_study
    from sim.games.duo.unknowns import VARY, load_unknowns, sampled_key
    from sim.run.progress import progress_bar

    if worlds < 10 or games < 10:
        raise UserError("--worlds and --games must be at least 10 (a share of 95% needs worlds to count)")
    if vary not in VARY:
        raise UserError(f"--vary {vary!r}: use one of {', '.join(VARY)}")
    if board is not None and vary != "numbers":
        raise UserError(
            "--board is the fixed map of --vary numbers; with other --vary every world has its own map"
        )
    check_seed(seed)
    validate.out_dir(out)
    if out.exists() and any(out.iterdir()):
        raise UserError(f"{out} is not an empty directory; choose another --out")
    u = load_unknowns(unknowns)
    items = expand_sets(sets)
    for item in items:
        key = sampled_key(u, item.split("=", 1)[0].strip(), vary)
        if key:
            raise UserError(
                f"--set {item}: every world samples {key}, so this would change nothing; drop it or "
                "choose a --vary that keeps it fixed"
            )
    base = load_duo_rules(board, rules, items)
    with progress_bar(worlds, 0, not quiet, "worlds") as advance:
        res = run_study(base, worlds, games, seed, vary, threads, u, on_world=lambda _: advance(1))
    verdicts, _ = write_study(res, out)
    if not quiet:
        robust = verdicts.filter(verdicts["verdict"] == "robust").height
        typer.echo(
            f"{robust} of {verdicts.height} conclusions robust in {worlds} worlds "
            f"({res.settings['games_played']:,} games, {res.settings['seconds']:.0f}s); {out / 'study.md'}"
        )


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
