"""``audit``: check games recorded elsewhere (``docs/game-record.md``); ``--record`` for simulated ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Annotated, Any

import typer

from sim.cli.options import Sets
from sim.errors import UserError, user_errors
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.tables import Rules

app = typer.Typer()
Record = Annotated[Path | None, typer.Option("--record", help="Also write the games as JSON-lines game records "
                                                              "(docs/game-record.md) to FILE.")]


def write_records(out: IO[str], config: GameConfig, rules: Rules, events: Any, n_events: Any, rows: list) -> None:
    """Write one record per game of a logged batch (``rows``: the kernel's result rows, n per game)."""
    from sim.games.tokaido.referee.record import game_record

    n = config.n_players
    for i in range(events.shape[0]):
        ev = events[i, : min(int(n_events[i]), events.shape[1])].tolist()
        out.write(json.dumps(game_record(config, rules, ev, rows[i * n : (i + 1) * n]), separators=(",", ":")))
        out.write("\n")


@app.command()
@user_errors
def audit(
    file: Annotated[Path, typer.Argument(help="Game records, one JSON object a line (docs/game-record.md).")],
    rules_profile: Annotated[str | None, typer.Option("--rules", help="Rules profile to audit against "
                                                                      "(default: each record's own).")] = None,
    sets: Sets = None, quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary.")] = False,
) -> None:
    """Replay every recorded game with the referee: legal, and the score components equal?"""
    from sim.games.tokaido.referee.audit import audit_lines
    from sim.games.tokaido.referee.record import RecordError

    if not file.is_file():
        raise UserError(f"no such file: {file}")
    try:
        with file.open(encoding="utf-8") as f:
            results = audit_lines(f, rules_profile, sets)
    except RecordError as exc:
        raise UserError(f"{file}: {exc}") from None
    legal = sum(r.legal for r in results)
    equal = sum(r.scores_equal for r in results)
    for r in results:
        if quiet or (r.legal and r.scores_equal):
            continue
        verdict = "illegal" if not r.legal else "scores differ"
        typer.echo(f"line {r.line}: {verdict}")
        for p in r.problems:
            typer.echo(f"  {p}")
        if r.context:
            typer.echo("  state before it:")
            typer.echo("\n".join(f"    {c}" for c in r.context))
    typer.echo(f"audited {len(results)} games: {legal} legal, {equal} scores equal")
    if legal != len(results) or equal != len(results):
        raise typer.Exit(1)
