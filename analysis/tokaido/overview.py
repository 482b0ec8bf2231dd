"""The report's side-by-side tables: every configuration in its own column, never pooled.

``strength_md``: each Traveler's win rate per configuration and player count; ``seats_md``: each seat's
win rate per configuration, one table per player count; ``effects_md``: what each change does to each
Traveler and seat (a variant, an expansion setting); ``expansions_md``: every Traveler's win rate in each
expansion setting, one table per player count. Cells are ``59.3 ±0.7``: a win rate (or a change, in
percentage points) and the half-width of its 95% interval; a tier mark follows Traveler figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from analysis import fmt
from analysis.tokaido.questions import ALL, NONE, Views

ORDINAL = ("1st", "2nd", "3rd", "4th", "5th")
Mark = Callable[[Mapping[str, Any], str], str]


def _cell(r: Mapping[str, Any] | None, mark: str = "") -> str:
    if r is None:
        return "·"
    flag = "**" if r["verdict"] else ""
    return f"{flag}{100 * r['win_rate']:.1f}{flag} ±{50 * (r['win_hi'] - r['win_lo']):.1f}" + (
        f" {mark}" if mark else ""
    )


def _short(config: str) -> str:
    return config.replace("Travelers at random", "random").replace("base game, ", "")


def strength_md(v: Views, mark: Mark) -> str:
    """Win rate (%) per Traveler: one column per configuration and player count."""
    df = v.strength
    cols = df.select("config", "n_players").unique(maintain_order=True).sort("n_players", maintain_order=True)
    heads = [(r["config"], r["n_players"]) for r in cols.iter_rows(named=True)]
    order = (
        df.group_by("traveler")
        .agg(pl.col("win_diff").mean())
        .sort(["win_diff", "traveler"], descending=[True, False])
        .get_column("traveler")
        .to_list()
    )
    cell = {(r["traveler"], r["config"], r["n_players"]): r for r in df.iter_rows(named=True)}
    rows = [
        [
            t.capitalize(),
            *(
                _cell(cell.get((t, c, n)), mark(cell[(t, c, n)], t) if (t, c, n) in cell else "")
                for c, n in heads
            ),
        ]
        for t in order
    ]
    fair = "fair share: " + ", ".join(f"{n}p {100 / n:.1f}%" for n in sorted({n for _, n in heads}))
    head = ["Traveler", *(f"{n}p {_short(c)}" for c, n in heads)]
    return (
        f"Win rate (%) ±95% half-width; **bold**: differs from fair beyond chance (Holm 5%); {fair}.\n\n"
        + fmt.table(head, rows)
    )


def seats_md(v: Views) -> str:
    """Win rate (%) per seat: one table per player count, one row per configuration, and its spread."""
    from analysis.tokaido.tables import seat_spread

    out = []
    for (n,), sub in v.seats.sort("n_players").group_by(["n_players"], maintain_order=True):
        rows = []
        for (cfg,), g in sub.group_by(["config"], maintain_order=True):
            g = g.sort("seat")
            d, lo, hi, _, _ = seat_spread(g)
            rows.append(
                [
                    str(cfg),
                    *(_cell(r) for r in g.iter_rows(named=True)),
                    f"{100 * d:.1f} ({100 * lo:.1f} to {100 * hi:.1f})",
                ]
            )
        head = ["configuration", *(f"{ORDINAL[s]} seat" for s in range(int(n))), "spread (pp)"]
        out.append(f"**{n} players** (fair {100 / int(n):.1f}%)\n\n" + fmt.table(head, rows))
    return (
        "Win rate (%) per seat (1st = first to leave Kyoto) ±95% half-width; **bold**: differs from fair "
        "(Holm 5%); spread: best − worst seat, with its 95% interval.\n\n" + "\n\n".join(out)
    )


def effects_md(eff: pl.DataFrame) -> str:
    """Change of win rate (pp) per Traveler and seat: one table per player count, one column per change."""
    if eff.is_empty():
        return ""
    w = eff.filter((pl.col("figure") == "win rate") & (pl.col("kind") != "all") & (pl.col("only") == ""))
    paired = "diff_paired" in w.columns
    est = pl.coalesce("diff_paired", "diff") if paired else pl.col("diff")
    lo = pl.coalesce("lo_paired", "lo") if paired else pl.col("lo")
    hi = pl.coalesce("hi_paired", "hi") if paired else pl.col("hi")
    w = w.with_columns(est.alias("e"), lo.alias("l"), hi.alias("h"))
    changes = w.get_column("change").unique(maintain_order=True).to_list()

    def fmt_cell(r: Mapping[str, Any] | None) -> str:
        if r is None:
            return "·"
        flag = "**" if r["significant"] else ""
        return f"{flag}{100 * r['e']:+.1f}{flag} ±{50 * (r['h'] - r['l']):.1f}"

    out = []
    for (n,), sub in w.sort("n_players").group_by(["n_players"], maintain_order=True):
        here = [c for c in changes if c in set(sub.get_column("change").to_list())]
        cell = {(r["kind"], r["group"], r["change"]): r for r in sub.iter_rows(named=True)}
        trav = (
            sub.filter(pl.col("kind") == "traveler")
            .group_by("group")
            .agg(pl.col("e").mean())
            .sort(["e", "group"], descending=[True, False])
            .get_column("group")
            .to_list()
        )
        seats = sorted(set(sub.filter(pl.col("kind") == "seat").get_column("group").to_list()), key=int)
        rows = [[t.capitalize(), *(fmt_cell(cell.get(("traveler", t, c))) for c in here)] for t in trav]
        rows += [
            [f"{ORDINAL[int(x)]} seat", *(fmt_cell(cell.get(("seat", x, c))) for c in here)] for x in seats
        ]
        out.append(f"**{n} players**\n\n" + fmt.table(["", *here], rows))
    return (
        "Change of win rate (pp) against the base, ±95% half-width (paired where the deals are the same); "
        "**bold**: beyond chance (Holm 5% within each change).\n\n" + "\n\n".join(out)
    )


def expansions_md(v: Views, mark: Mark) -> str:
    """Win rate (%) of every Traveler in each expansion setting (variants none), one table per player
    count."""
    df = v.travelers.filter(pl.col("variants") == NONE)
    settings = df.filter((pl.col("expansions") != NONE) | (pl.col("pool") != ALL))
    if settings.is_empty():
        return ""
    modes = set(settings.get_column("travelers").to_list())
    df = df.filter(pl.col("travelers").is_in(list(modes)))
    out = []
    for (n,), sub in df.sort("n_players").group_by(["n_players"], maintain_order=True):
        configs = sub.get_column("config").unique(maintain_order=True).to_list()
        order = (
            sub.group_by("traveler")
            .agg(pl.col("win_diff").mean())
            .sort(["win_diff", "traveler"], descending=[True, False])
            .get_column("traveler")
            .to_list()
        )
        cell = {(r["traveler"], r["config"]): r for r in sub.iter_rows(named=True)}
        rows = [
            [
                t.capitalize(),
                *(_cell(cell.get((t, c)), mark(cell[(t, c)], t) if (t, c) in cell else "") for c in configs),
            ]
            for t in order
        ]
        out.append(
            f"**{n} players** (fair {100 / int(n):.1f}%)\n\n" + fmt.table(["Traveler", *configs], rows)
        )
    return (
        "Win rate (%) ±95% half-width in each setting; · the Traveler is not in that setting's pool; "
        "**bold**: differs from fair (Holm 5%).\n\n" + "\n\n".join(out)
    )
