"""The ``tokaido-sim`` command line: the Typer app, assembled from every game's commands, and ``main``.

Each game's plug-in (``sim.games.plugins``) mounts its commands: Tokaido's at the top level,
Tokaido Duo's under ``duo``. The commands every game shares are here: ``check golden`` and
``playthroughs``.

User errors (bad options, unusable output directory) end with one line
``error: ...`` on stderr and exit code 2, before anything is written.
"""

from __future__ import annotations

import os
import sys

import typer

from sim.cli import checks
from sim.games import plugins

app = typer.Typer(
    name="tokaido-sim",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Monte Carlo balance simulator for the board game Tokaido.",
)
for _plugin in plugins().values():
    _plugin.mount(app, checks.check_app)
app.add_typer(checks.check_app, name="check")  # check golden, and each game's checks
app.add_typer(checks.app)  # playthroughs

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
