"""``run``, ``verify``, ``replay``, ``study``: playing games from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Annotated

import typer

from sim.checks.verify import MAX_CHUNK
from sim.cli import validate
from sim.cli.options import ClusterSpec, Games, Quiet, Resume, Seed, Threads, resume_note
from sim.dataset.manifest import MAX_GAME
from sim.errors import UserError, user_errors
from sim.games.tokaido.cli.audit import Record, write_records
from sim.games.tokaido.cli.options import (
    Bots,
    Expansions,
    Players,
    RulesProfile,
    Sets,
    Travelers,
    Variants,
    as_list,
    decode_log,
    kernel_rows,
    make_config,
)
from sim.games.tokaido.game import TokaidoGame
from sim.run import runner
from sim.run.game import Batch

app = typer.Typer()


def _open_record(path: Path) -> IO[str]:
    """The record file, its folder made if missing (after every check passed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("w", encoding="utf-8")


@app.command()
@user_errors
def run(
    games: Games,
    seed: Seed,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")],
    players: Players = 4,
    travelers: Travelers = "draft",
    bots: Bots = "greedy",
    variants: Variants = "",
    expansions: Expansions = "",
    sets: Sets = None,
    rules_profile: RulesProfile = "rulebook",
    chunk_size: Annotated[int, typer.Option(help="Games per part file.")] = runner.DEFAULT_CHUNK_SIZE,
    threads: Threads = None,
    resume: Resume = False,
    quiet: Quiet = False,
    cluster: ClusterSpec = None,
) -> None:
    """Play GAMES games and write them to a Parquet dataset in OUT."""
    from sim.run.cluster import connect

    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    fresh = resume_note(validate.out_dir(out, resumable=True), resume)
    with connect(cluster) as cl:
        s = runner.run(
            TokaidoGame(config),
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
            typer.echo(f"{out} is already complete ({games:,} games)")
        else:
            rate = s.played / s.seconds if s.seconds > 0 else 0.0
            typer.echo(f"played {s.played:,} games ({rate:,.0f} games/s); {out} holds {games:,} games")


@app.command()
@user_errors
def verify(
    games: Games,
    seed: Seed,
    players: Players = 4,
    travelers: Travelers = "draft",
    bots: Bots = "greedy",
    variants: Variants = "",
    expansions: Expansions = "",
    sets: Sets = None,
    rules_profile: RulesProfile = "rulebook",
    chunk_size: Annotated[
        int, typer.Option(help="Games checked at a time (their logs are held in memory).")
    ] = 1000,
    threads: Threads = None,
    quiet: Quiet = False,
    record: Record = None,
) -> None:
    """Play games with the action log and check every one with the referee."""
    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    rules = config.rules()
    runner.validate(games, seed, chunk_size, threads, max_chunk=MAX_CHUNK)
    if record is not None:
        validate.out_file(record, "--record")
    from sim.checks.verify import verify as referee_check

    game = TokaidoGame(config, rules)
    out = _open_record(record) if record else None

    def write(start: int, batch: Batch) -> None:
        if out is not None:
            assert batch.events is not None and batch.n_events is not None
            write_records(out, config, rules, batch.events, batch.n_events, kernel_rows(batch.records))

    try:
        with runner.progress_bar(games, 0, not quiet) as advance:
            rep = referee_check(game, games, seed, chunk_size, threads, advance, write, keep=1)
    finally:
        if out is not None:
            out.close()
    typer.echo(f"verified {games} games, {rep.mismatches} mismatches")
    if rep.first:
        first = rep.first[0]
        typer.echo(f"first mismatch: game {first.game}, seed {seed}, config {config.spec()}")
        typer.echo(f"replay it with: {first.replay}")
        for err in first.errors:
            typer.echo(f"referee: {err}")
        typer.echo(decode_log(first.events))
        raise typer.Exit(1)


@app.command()
@user_errors
def replay(
    seed: Seed,
    game: Annotated[int, typer.Option("--game", help="Index of the game to replay.")],
    players: Players = 4,
    travelers: Travelers = "draft",
    bots: Bots = "greedy",
    variants: Variants = "",
    expansions: Expansions = "",
    sets: Sets = None,
    rules_profile: RulesProfile = "rulebook",
    record: Record = None,
) -> None:
    """Play one game with the action log and print the referee's narration."""
    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    rules = config.rules()
    runner.validate(1, seed, 1, None)
    from sim.games.tokaido import engine
    from sim.games.tokaido.referee.game import referee_game

    if not 0 <= game <= MAX_GAME:
        raise UserError(f"--game takes 0 to {MAX_GAME:,} (a 64-bit game index), got {game:,}")
    if record is not None:
        validate.out_file(record, "--record")

    batch = engine.play_games(config, rules, seed, game, 1, log=True)
    assert batch.events is not None and batch.n_events is not None
    ev = batch.events[0, : min(int(batch.n_events[0]), batch.events.shape[1])]
    res = referee_game(config, rules, ev, kernel_rows(batch.records), narrate=True)
    if record is not None:
        with _open_record(record) as out:
            write_records(out, config, rules, batch.events, batch.n_events, kernel_rows(batch.records))
    typer.echo("\n".join(as_list(res.narration)))
    if not res.ok:
        for err in as_list(res.errors):
            typer.echo(f"referee: {err}")
        raise typer.Exit(1)


@app.command()
@user_errors
def study(
    file: Annotated[Path, typer.Argument(help="Study TOML file (see studies/).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")],
    resume: Resume = False,
    quiet: Quiet = False,
    threads: Threads = None,
    cluster: ClusterSpec = None,
) -> None:
    """Run every cell of a study into one hive-partitioned dataset."""
    from sim.games.tokaido.study import load_study, run_study
    from sim.run.cluster import connect

    load_study(file)  # the study file first: one line naming it if it is not a study
    fresh = resume_note(validate.out_dir(out, resumable=True), resume)
    with connect(cluster) as cl:
        manifest = run_study(file, out, resume=resume, quiet=quiet, threads=threads, cluster=cl)
    if not quiet:
        if fresh:
            typer.echo(fresh)
        cells = manifest.cells or []
        games = sum(c.games or 0 for c in cells)
        typer.echo(f"study complete: {len(cells)} cells, {games:,} games in {out}")
