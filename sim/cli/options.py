"""What every game's commands share: option types and the dataset arguments of the analysis commands.

A game's own options (Tokaido's ``--players``, ``--bots``...) are in its ``cli`` module; these are the
ones that mean the same in every game.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.cli import validate
from sim.errors import UserError
from sim.run import outdir

Games = Annotated[int, typer.Option("--games", "-g", help="Games to play.")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="Random seed (game i depends only on seed and i).")]
Threads = Annotated[int | None, typer.Option(help="Engine threads (default: all cores).", min=1)]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar or summary.")]
Resume = Annotated[bool, typer.Option("--resume", help="Continue an interrupted run or study in --out.")]
ClusterSpec = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help="Play on a Dask cluster: a scheduler ADDRESS (tcp://HOST:8786) or local:N for N local "
        "worker processes (default: in this process). See docs/cluster.md.",
    ),
]
DatasetDir = Annotated[Path, typer.Argument(help="A run or study directory.")]
OutDir = Annotated[Path | None, typer.Option("--out", "-o", help="Output directory.")]


def dataset_dir(path: Path) -> Path:
    """``path`` if it is a directory, else one line saying what to give."""
    if not path.is_dir():
        raise UserError(f"{path} is not a directory; give a run or study directory")
    return path


def analysis_out(out: Path | None, dataset: Path, suffix: str) -> Path:
    """Where an analysis of ``dataset`` goes (default: beside it, ``DATASET-SUFFIX``), checked before
    writing."""
    out = out or dataset.with_name(f"{dataset.resolve().name}-{suffix}")
    return validate.out_dir(out)  # never into the dataset: its files would be read with the parts


def call_analysis(module: str, name: str, *args: Path, **kwargs: Any) -> None:
    """``module.name(*args, **kwargs)``, imported only now (polars, matplotlib); its ``ValueError`` as one
    line."""
    func = getattr(importlib.import_module(module), name)
    try:
        func(*args, **kwargs)
    except ValueError as exc:  # the analysis modules' one-line "what is wrong" errors
        raise UserError(" ".join(str(exc).split())) from None


def resume_note(out: Path, resume: bool) -> str:
    """The note printed when ``--resume`` finds nothing to resume ('' otherwise): a deliberate no-op, so that
    one command line both starts a run and continues it (``make run``)."""
    if resume and not outdir.is_dataset(out):
        return f"note: --resume found nothing to resume in {out}, so it started it"
    return ""
