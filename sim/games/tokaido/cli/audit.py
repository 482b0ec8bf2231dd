"""``audit``: check games recorded elsewhere (``docs/game-record.md``); ``--record`` for simulated ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Annotated, Any

import typer

from sim.errors import UserError, user_errors
from sim.files import json_lines, read_text
from sim.games.tokaido.cli.options import Sets
from sim.games.tokaido.rules.config import GameConfig
from sim.games.tokaido.rules.profiles import profile_path
from sim.games.tokaido.rules.tables import Rules

app = typer.Typer()
RECORDS = "game records, one JSON object a line"
Record = Annotated[
    Path | None,
    typer.Option(
        "--record", help="Also write the games as JSON-lines game records (docs/game-record.md) to FILE."
    ),
]


def write_records(
    out: IO[str], config: GameConfig, rules: Rules, events: Any, n_events: Any, rows: list
) -> None:
    """Write one record per game of a logged batch (``rows``: the kernel's result rows, n per game)."""
    from sim.games.tokaido.referee.record import game_record

    n = config.n_players
    for i in range(events.shape[0]):
        ev = events[i, : min(int(n_events[i]), events.shape[1])].tolist()
        out.write(
            json.dumps(game_record(config, rules, ev, rows[i * n : (i + 1) * n]), separators=(",", ":"))
        )
        out.write("\n")


@app.command()
@user_errors
def audit(
    file: Annotated[Path, typer.Argument(help="Game records, one JSON object a line (docs/game-record.md).")],
    rules_profile: Annotated[
        str | None,
        typer.Option(
            "--rules",
            help="Rules profile to audit against: rulebook | "
            "online | online-2020 (default: each "
            "record's own).",
        ),
    ] = None,
    sets: Sets = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the summary.")] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="Also the referee's last turns before each "
            "rejected game's problem, and every score "
            "component that differs.",
        ),
    ] = False,
) -> None:
    """Replay every recorded game with the referee: one line per game (accepted, or rejected with its first
    problem), then a summary by problem class. Exit 0: all accepted; 1: some rejected; 2: unreadable file."""
    from sim.games.tokaido.referee.audit import audit_records, summary
    from sim.games.tokaido.referee.record import RecordError

    text = read_text(file, RECORDS, "write one game a line (docs/game-record.md)")
    records = list(
        json_lines(text, file, RECORDS, "each line must be one whole game record (docs/game-record.md)")
    )
    if rules_profile is not None:
        profile_path(rules_profile)  # an unknown profile: one line naming the known ones
        if all(obj.get("rules", "rulebook") == rules_profile for _, obj in records):
            raise UserError(
                f"--rules {rules_profile} has no effect: every record of {file} is already "
                f"played by it; drop it"
            )
    _refuse_unused_sets(file, records, rules_profile, sets)
    try:
        results = audit_records(records, rules_profile, sets)
    except RecordError as exc:
        raise UserError(f"{file}: {exc}") from None
    for r in results:
        if quiet:
            break
        typer.echo(r.verdict())
        if verbose and not r.accepted:
            for p in r.problems[1:]:
                typer.echo(f"  {p}")
            if r.context:
                typer.echo("  state before it:")
                typer.echo("\n".join(f"    {c}" for c in r.context))
    typer.echo("\n".join(summary(results)))
    if not all(r.accepted for r in results):
        raise typer.Exit(1)


def _refuse_unused_sets(
    file: Path, records: list[tuple[int, dict[str, Any]]], profile: str | None, sets: list[str] | None
) -> None:
    """Refuse a ``--set`` that changes no game of the file (a rule none of its games uses, or one they
    already play by); records whose configuration cannot be read are left to the audit to report."""
    from sim.games.tokaido.referee.record import RecordError, read_config
    from sim.games.tokaido.rules.inert import override_reasons
    from sim.overrides import expand_sets

    mine = expand_sets(sets)
    if not mine:
        return
    first: list[str | None] = [None] * len(mine)
    used = [False] * len(mine)
    for _, obj in records:
        try:
            reasons = override_reasons(read_config(obj, profile, sets))[-len(mine) :]
        except (RecordError, UserError):
            return
        for i, reason in enumerate(reasons):
            used[i] = used[i] or reason is None
            first[i] = first[i] or reason
    for item, was_used, reason in zip(mine, used, first, strict=True):
        if not was_used:
            raise UserError(f"--set {item} has no effect on any game of {file}: {reason}; drop it")
