"""``report``, ``compare``, ``plot``: the analysis of datasets from the command line."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Annotated

import typer

from sim.errors import UserError, user_errors
from sim.run import outdir

app = typer.Typer()

DatasetDir = Annotated[Path, typer.Argument(help="A run or study directory.")]
OutDir = Annotated[Path | None, typer.Option("--out", "-o", help="Output directory.")]


def _dataset_dir(path: Path) -> Path:
    if not path.is_dir():
        raise UserError(f"{path} is not a directory; give a run or study directory")
    return path


def _analysis_out(out: Path | None, dataset: Path, suffix: str) -> Path:
    out = out or dataset.with_name(f"{dataset.resolve().name}-{suffix}")
    outdir.check_writable(out)
    return out


@app.command()
@user_errors
def report(dataset: DatasetDir, out: OutDir = None) -> None:
    """Write the balance report of a dataset (default --out: DATASET-report)."""
    out = _analysis_out(out, _dataset_dir(dataset), "report")
    _analysis("analysis.report", "write_report", dataset, out)
    typer.echo(f"report written to {out}")


@app.command()
@user_errors
def compare(
    base: DatasetDir, other: DatasetDir,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")],
) -> None:
    """Compare two datasets (e.g. a rule change against the base rules)."""
    _dataset_dir(base)
    _dataset_dir(other)
    outdir.check_writable(out)
    _analysis("analysis.compare", "compare", base, other, out)
    typer.echo(f"comparison written to {out}")


@app.command()
@user_errors
def plot(dataset: DatasetDir, out: OutDir = None) -> None:
    """Draw the standard plots of a dataset (default --out: DATASET-plots)."""
    out = _analysis_out(out, _dataset_dir(dataset), "plots")
    _analysis("analysis.plots", "plot_all", dataset, out)
    typer.echo(f"plots written to {out}")


def _analysis(module: str, name: str, *args: Path) -> None:
    func = getattr(importlib.import_module(module), name)  # polars/matplotlib only when needed
    try:
        func(*args)
    except ValueError as exc:  # the analysis modules' one-line "what is wrong" errors
        raise UserError(" ".join(str(exc).split())) from None
