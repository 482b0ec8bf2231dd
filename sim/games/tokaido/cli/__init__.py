"""Tokaido's commands (the top level of ``tokaido-sim``): ``games`` (run, verify, replay, study),
``analysis`` (report, compare, plot), ``audit``, ``balance``, ``bots`` (tune, ladder, calibrate-*, bot-report,
fit-search-eval) and ``checks`` (check stats, make-baseline, calibrate), with their options (``options``).

``mount`` adds them to the app that ``sim.cli.app`` assembles from every game's plug-in.
"""

from __future__ import annotations

from typing import Any


def mount(app: Any, check: Any) -> None:
    """Add Tokaido's commands to ``app`` (top level) and to the shared ``check`` group."""
    from sim.games.tokaido.cli import analysis, audit, balance, bots, checks, games

    app.add_typer(games.app)  # run, verify, replay, study
    app.add_typer(analysis.app)  # report, compare, plot
    app.add_typer(
        bots.bots_app
    )  # tune, ladder, calibrate-draft, calibrate-agreement, bot-report, fit-search-eval
    app.add_typer(balance.app)  # balance
    app.add_typer(audit.app)  # audit
    check.add_typer(checks.check_app)  # check stats | make-baseline | calibrate
