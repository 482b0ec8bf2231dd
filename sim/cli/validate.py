"""The command line's checks, shared by every command, made before anything is written.

What matters depends on the configuration, so the checks are layered:

- a game's configuration (``GameConfig``): which variants, expansions, Travelers and overrides
  it uses, ``sim.games.tokaido.rules.inert`` (``make_config`` refuses an option that would change nothing);
- a command's own options: ``refuse_unused`` refuses an option given on the command line that
  the other options make pointless (``ladder --search-games`` without the search tier,
  ``check golden --force`` without ``--update``);
- the files it reads (``sim.files``: one line naming the file and what was expected) and the
  files and folders it writes (``out_dir``, ``out_file``: writable, not a folder where a file is
  wanted, and never inside a dataset), checked before the first one is created.

Every refusal is a ``UserError``: one line, exit 2, nothing written.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import typer

from sim.errors import UserError
from sim.run import outdir


def _context() -> Any:
    """The running command's click context (typer may vendor click: found through its ``Context``)."""
    core = sys.modules[typer.Context.__mro__[1].__module__]
    return importlib.import_module(core.__name__.rpartition(".")[0] + ".globals").get_current_context(
        silent=True
    )


def given(name: str) -> bool:
    """Was the option ``name`` (its parameter name) given on the command line, rather than left at its
    default?"""
    ctx = _context()
    if ctx is None:
        return False
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT", "PROMPT")


def flag(name: str) -> str:
    """The option's first spelling on the command line (``all_pairs`` -> ``--all-pairs``)."""
    ctx = _context()
    for p in getattr(getattr(ctx, "command", None), "params", []):
        if p.name == name and getattr(p, "opts", None):
            return str(max(p.opts, key=len))
    return "--" + name.replace("_", "-")


def refuse_unused(**reasons: str | None) -> None:
    """``UserError`` for the first option given on the command line whose ``reason`` (why it has no effect
    here) is not None; options left at their default are never refused."""
    for name, reason in reasons.items():
        if reason is not None and given(name):
            raise UserError(f"{flag(name)} has no effect: {reason}; drop it")


def out_dir(path: Path, option: str = "--out", *, resumable: bool = False) -> Path:
    """``path`` as an output folder: writable, and outside every dataset (``resumable``: it may be one)."""
    outdir.check_out_dir(path, option, dataset_ok=resumable)
    return path


def out_file(path: Path, option: str = "--out") -> Path:
    """``path`` as an output file: not a folder, in a folder that exists or can be made."""
    outdir.check_out_file(path, option)
    return path


def at_least(value: int, low: int, option: str, what: str = "") -> None:
    if value < low:
        raise UserError(f"{option} must be at least {low}{what}, got {value}")
