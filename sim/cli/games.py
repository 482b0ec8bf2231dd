"""``run``, ``verify``, ``replay``, ``study``: playing games from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Annotated

import typer

from sim.cli import validate
from sim.cli.audit import Record, write_records
from sim.cli.options import (
    Bots,
    ClusterSpec,
    Expansions,
    Games,
    Players,
    Quiet,
    Resume,
    RulesProfile,
    Seed,
    Sets,
    Threads,
    Travelers,
    Variants,
    as_list,
    cli_options,
    decode_log,
    kernel_rows,
    make_config,
)
from sim.errors import UserError, user_errors
from sim.run import outdir, runner

app = typer.Typer()
VERIFY_MAX_CHUNK = 10_000  # games whose action logs are held at once (7.7 KB each)


def resume_note(out: Path, resume: bool) -> str:
    """The note printed when ``--resume`` finds nothing to resume ('' otherwise): a deliberate no-op, so that
    one command line both starts a run and continues it (``make run``)."""
    if resume and not outdir.is_dataset(out):
        return f"note: --resume found nothing to resume in {out}, so it started it"
    return ""


def _open_record(path: Path) -> IO[str]:
    """The record file, its folder made if missing (after every check passed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.open("w", encoding="utf-8")


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
    from sim.run.cluster import connect

    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    fresh = resume_note(validate.out_dir(out, resumable=True), resume)
    with connect(cluster) as cl:
        s = runner.run(config, games, seed, out, chunk_size, threads, resume=resume, progress=not quiet,
                       cluster=cl)
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
    games: Games, seed: Seed, players: Players = 4, travelers: Travelers = "draft", bots: Bots = "greedy",
    variants: Variants = "", expansions: Expansions = "", sets: Sets = None, rules_profile: RulesProfile = "rulebook",
    chunk_size: Annotated[int, typer.Option(help="Games checked at a time (their logs are held in memory).")] = 1000,
    threads: Threads = None, quiet: Quiet = False, record: Record = None,
) -> None:
    """Play games with the action log and check every one with the referee."""
    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    rules = config.rules()
    runner.validate(games, seed, chunk_size, threads, max_chunk=VERIFY_MAX_CHUNK)
    if record is not None:
        validate.out_file(record, "--record")
    from sim.referee.game import referee_game
    from sim.run import pace

    mismatches, first = 0, None
    out = _open_record(record) if record else None
    with runner.progress_bar(games, 0, not quiet) as advance:
        for start in range(0, games, chunk_size):
            count = min(chunk_size, games - start)
            batch = pace.play_games(config, rules, seed, start, count, threads, advance, log=True)
            assert batch.events is not None and batch.n_events is not None
            rows = kernel_rows(batch.records)
            n = config.n_players
            if out is not None:
                write_records(out, config, rules, batch.events, batch.n_events, rows)
            for i in range(count):
                ev = batch.events[i, : min(int(batch.n_events[i]), batch.events.shape[1])]
                res = referee_game(config, rules, ev, rows[i * n : (i + 1) * n])
                if not res.ok:
                    mismatches += 1
                    if first is None:
                        first = (start + i, res, ev.copy())
    if out is not None:
        out.close()
    typer.echo(f"verified {games} games, {mismatches} mismatches")
    if first is not None:
        game, res, ev = first
        typer.echo(f"first mismatch: game {game}, seed {seed}, config {config.spec()}")
        typer.echo(f"replay it with: tokaido-sim replay --seed {seed} --game {game} {cli_options(config)}")
        for err in as_list(res.errors):
            typer.echo(f"referee: {err}")
        typer.echo(decode_log(ev))
        raise typer.Exit(1)


@app.command()
@user_errors
def replay(
    seed: Seed, game: Annotated[int, typer.Option("--game", help="Index of the game to replay.")],
    players: Players = 4, travelers: Travelers = "draft", bots: Bots = "greedy", variants: Variants = "",
    expansions: Expansions = "", sets: Sets = None, rules_profile: RulesProfile = "rulebook", record: Record = None,
) -> None:
    """Play one game with the action log and print the referee's narration."""
    config = make_config(players, travelers, bots, variants, expansions, sets, rules_profile)
    rules = config.rules()
    runner.validate(1, seed, 1, None)
    from sim.referee.game import referee_game
    from sim.run import engine

    if not 0 <= game <= engine.MAX_GAME:
        raise UserError(f"--game takes 0 to {engine.MAX_GAME:,} (a 64-bit game index), got {game:,}")
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
    resume: Resume = False, quiet: Quiet = False, threads: Threads = None, cluster: ClusterSpec = None,
) -> None:
    """Run every cell of a study into one hive-partitioned dataset."""
    from sim.run.cluster import connect
    from sim.run.study import load_study, run_study

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
