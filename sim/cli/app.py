"""The ``tokaido-sim`` command line: the Typer app, assembled from the command groups, and ``main``.

User errors (bad options, unusable output directory) end with one line
``error: ...`` on stderr and exit code 2, before anything is written.
"""

from __future__ import annotations

import os
import sys

import typer

from sim.cli import analysis, audit, balance, bots, checks, games
from sim.games.duo import cli as duo

app = typer.Typer(
    name="tokaido-sim", add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
    help="Monte Carlo balance simulator for the board game Tokaido.",
)
app.add_typer(games.app)  # run, verify, replay, study
app.add_typer(analysis.app)  # report, compare, plot
app.add_typer(checks.check_app, name="check")  # check golden | stats | make-baseline
app.add_typer(checks.app)  # playthroughs
app.add_typer(bots.bots_app)  # tune, ladder
app.add_typer(duo.app, name="duo")  # duo run | verify | replay | study (Tokaido Duo)
app.add_typer(balance.app)  # balance
app.add_typer(audit.app)  # audit

# typer >= 0.20 vendors click; take its exception classes from wherever BadParameter lives
_exc = sys.modules[typer.BadParameter.__module__]
UsageError: type[Exception] = _exc.UsageError
ClickException: type[Exception] = _exc.ClickException
NoArgsIsHelpError: type[Exception] = getattr(_exc, "NoArgsIsHelpError", UsageError)
Abort: tuple[type[BaseException], ...] = (typer.Abort, getattr(_exc, "Abort", typer.Abort))


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
    if code == 130 and argv is None:
        # Ctrl-C: the finished parts and the manifest are on disk (fsync'ed); skip the interpreter's
        # teardown of the compiled kernels (about a second) so the command ends at once
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
