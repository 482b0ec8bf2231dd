"""``tokaido-sim check golden`` and ``tokaido-sim playthroughs``: every game's golden games and playthroughs
(docs/ci.md). Each game adds its own checks to the ``check`` group (Tokaido: ``check stats``).

Exit codes: 0 nothing moved, 1 something moved (or the golden file is stale),
2 a user error (one line ``error: ...`` on stderr).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.checks.golden import GoldenSuite
from sim.cli import validate
from sim.errors import UserError, user_errors
from sim.files import read_json
from sim.overrides import parse_sets

check_app = typer.Typer(no_args_is_help=True, help="CI checks: golden games and statistical baselines.")

Sets = Annotated[
    list[str] | None, typer.Option("--set", help="Rule override KEY=VALUE or @patch.toml, repeatable.")
]


# ------------------------------------------------------------------ golden
@check_app.command()
@user_errors
def golden(
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            help="One golden file, Tokaido or Duo (default: both "
            "tests/golden/golden.json and duo_golden.json of "
            "this checkout).",
        ),
    ] = None,
    update: Annotated[
        bool, typer.Option("--update", help="Refresh after a deliberate change; print what moved.")
    ] = False,
    force: Annotated[
        bool, typer.Option("--force", help="With --update: write even if the rules version was not bumped.")
    ] = False,
    sets: Sets = None,
) -> None:
    """Replay every game's golden games; exit 1 with the first differing game and turn if any moved."""
    from sim.checks import golden as golden_games
    from sim.games import plugins

    validate.refuse_unused(
        force=None
        if update
        else "it lets --update write without a rules version bump; without --update nothing is written"
    )
    if file is not None:
        read_json(
            file,
            "a golden file (JSON, like tests/golden/golden.json)",
            "make one with tokaido-sim check golden --update --file FILE",
        )
    overrides = parse_sets(sets)
    suites = {name: p.golden() for name, p in plugins().items()}
    if file is not None:
        game = (
            golden_games.peek_game(file) or "tokaido"
        )  # a missing or unreadable file: load() names the problem
        if game not in suites:
            raise UserError(f"{file} holds golden games of '{game}', a game this tokaido-sim does not have")
        ok = _golden(suites[game], file, update, force, overrides)
    elif overrides:  # --set is a Tokaido rule: the other games' files are checked as they are
        ok = _golden(suites["tokaido"], suites["tokaido"].path, update, force, overrides)
    else:
        ok = all([_golden(suite, suite.path, update, force, ()) for suite in suites.values()])
    if not ok:
        raise typer.Exit(1)


def _golden(
    suite: GoldenSuite, path: Path, update: bool, force: bool, overrides: tuple[tuple[str, Any], ...]
) -> bool:
    from sim.checks import golden as golden_games

    t0 = time.perf_counter()
    if update:
        if overrides:
            raise UserError(
                "--update writes the goldens of the rules as they are; drop --set "
                "(change the rules data instead)"
            )
        rep, new, written = golden_games.update(suite, path, force)
        games = sum(len(c["games"]) for c in new["configs"])
        if rep is not None and (rep.diffs or rep.notes):
            typer.echo("\n".join(rep.lines()))
        if not written:
            return False
        made = {k: new[k] for k in ("rules_version", "provenance", "rules_fingerprint") if k in new}
        typer.echo(
            f"wrote {path}: {games} {suite.game} games of {len(new['configs'])} configurations "
            f"({', '.join(map(str, made.values()))}), {time.perf_counter() - t0:.1f} s"
        )
        return True
    rep = golden_games.check(suite, golden_games.load(path), overrides)
    typer.echo("\n".join(rep.lines()) + f"  [{time.perf_counter() - t0:.1f} s]")
    return rep.ok


app = typer.Typer()  # top-level commands of this group


@app.command()
@user_errors
def playthroughs(
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Directory (default: the repo's tests/playthroughs/).")
    ] = None,
) -> None:
    """Regenerate every game's golden playthrough files (each game's ``playthrough`` module lists them)."""
    from sim.checks.playthrough import DEFAULT_DIR, write_all
    from sim.games import plugins

    if out is not None:
        validate.out_dir(out)
    written = write_all([p.playthroughs() for p in plugins().values()], out)
    typer.echo(f"wrote {len(written)} playthroughs to {out or DEFAULT_DIR}")
