"""``report``, ``compare``, ``plot``: the analysis of datasets from the command line."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from sim.cli import validate
from sim.cli.options import DatasetDir, OutDir, analysis_out, call_analysis, dataset_dir
from sim.errors import UserError, user_errors

app = typer.Typer()


@app.command()
@user_errors
def report(dataset: DatasetDir, out: OutDir = None) -> None:
    """Write the balance report of a dataset (default --out: DATASET-report)."""
    out = analysis_out(out, dataset_dir(dataset), "report")
    call_analysis("analysis.tokaido.report", "write_report", dataset, out, checks=tier_checks())
    typer.echo(f"report written to {out}")


@app.command()
@user_errors
def compare(
    base: DatasetDir,
    other: DatasetDir,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")],
) -> None:
    """Compare two datasets (e.g. a rule change against the base rules)."""
    dataset_dir(base)
    dataset_dir(other)
    validate.out_dir(out)
    call_analysis("analysis.tokaido.compare", "compare", base, other, out)
    summary = (out / "compare.md").read_text().split("## Summary\n\n", 1)[-1].splitlines()
    for line in summary:  # the pairing (and its rate) and the seats: the headline
        if line.startswith(("- Pairing:", "- Seats,")):
            typer.echo(line[2:])
    typer.echo(f"comparison written to {out}")


@app.command()
@user_errors
def plot(dataset: DatasetDir, out: OutDir = None) -> None:
    """Draw the standard plots of a dataset (default --out: DATASET-plots)."""
    out = analysis_out(out, dataset_dir(dataset), "plots")
    call_analysis("analysis.tokaido.plots", "plot_all", dataset, out)
    typer.echo(f"plots written to {out}")


def tier_checks(tier: str = "expert") -> dict[str, Any]:
    """The measured agreement of ``tier`` with the stronger tier
    (``sim/games/tokaido/data/bots/agreement-TIER.toml``,
    made by ``calibrate-agreement``) as the report's ``analysis.tokaido.caveats.TierCheck`` rows; {} if
    none."""
    from analysis.tokaido.caveats import Disputed, TierCheck
    from sim.games.tokaido.tuning import agreement as tier_agreement

    path = tier_agreement.table_path(tier)
    if not path.is_file():
        return {}
    try:
        prov, rows = tier_agreement.load_table(path)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    source = f"`sim/games/tokaido/data/bots/{path.name}` ({str(prov.get('date', ''))[:10]}: `{prov.get('command', '')}`)"
    out: dict[str, Any] = {}
    for key, r in rows.items():
        disputed = []
        for t in r.beyond:
            d, h = r.b.shares[t] - r.a.shares[t], math.hypot(r.a.halfwidth[t], r.b.halfwidth[t])
            disputed.append(Disputed(t, r.a.shares[t], r.b.shares[t], d - h, d + h))
        disputed.sort(key=lambda x: -abs(x.reference - x.share))
        out[key] = TierCheck(
            key,
            r.tier_a,
            r.tier_b,
            r.a.games,
            r.b.games,
            r.rho,
            r.rho_lo,
            r.rho_hi,
            tuple(disputed),
            tuple(r.differ),
            source,
        )
    return out
