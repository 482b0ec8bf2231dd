"""``report``, ``compare``, ``plot``: the analysis of datasets from the command line."""

from __future__ import annotations

import importlib
import math
from pathlib import Path
from typing import Annotated, Any

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
    _analysis("analysis.report", "write_report", dataset, out, checks=tier_checks())
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


def tier_checks(tier: str = "expert") -> dict[str, Any]:
    """The measured agreement of ``tier`` with the stronger tier (``sim/data/bots/agreement-TIER.toml``,
    made by ``calibrate-agreement``) as the report's ``analysis.caveats.TierCheck`` rows; {} if none."""
    from analysis.caveats import Disputed, TierCheck
    from sim.tuning import agreement as A

    path = A.table_path(tier)
    if not path.is_file():
        return {}
    try:
        prov, rows = A.load_table(path)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    source = f"`sim/data/bots/{path.name}` ({str(prov.get('date', ''))[:10]}: `{prov.get('command', '')}`)"
    out: dict[str, Any] = {}
    for key, r in rows.items():
        disputed = []
        for t in r.beyond:
            d, h = r.b.shares[t] - r.a.shares[t], math.hypot(r.a.halfwidth[t], r.b.halfwidth[t])
            disputed.append(Disputed(t, r.a.shares[t], r.b.shares[t], d - h, d + h))
        disputed.sort(key=lambda x: -abs(x.reference - x.share))
        out[key] = TierCheck(key, r.tier_a, r.tier_b, r.a.games, r.b.games, r.rho, r.rho_lo, r.rho_hi,
                             tuple(disputed), tuple(r.differ), source)
    return out


def _analysis(module: str, name: str, *args: Path, **kwargs: Any) -> None:
    func = getattr(importlib.import_module(module), name)  # polars/matplotlib only when needed
    try:
        func(*args, **kwargs)
    except ValueError as exc:  # the analysis modules' one-line "what is wrong" errors
        raise UserError(" ".join(str(exc).split())) from None
