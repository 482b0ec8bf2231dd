"""Balance plots of a dataset: ``plot_all`` writes every figure of one configuration or of a study.

Plot functions take a dataset as a ``pl.LazyFrame`` (from ``analysis.load``) and the path of the PNG to
write, and return that path (Agg canvas, no pyplot state). Figures are split by player count; a frame
that mixes configurations (variants, expansions, ...) is drawn as given, pooled, and the subtitle says
so: ``plot_all`` never passes one, it sets a study's configurations side by side
(``analysis.tokaido.figures``) or plots each alone. The figures themselves are drawn by
``traveler_plots``, ``seat_plots`` and ``effect_plots``; their names are importable from here as well
(``__all__``).
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from analysis.load import conditions, load_dataset, reading
from analysis.tokaido import describe, figures, questions
from analysis.tokaido.effect_plots import KIND_ORDER, plot_effects
from analysis.tokaido.panels import ORDINAL
from analysis.tokaido.seat_plots import plot_seat_advantage
from analysis.tokaido.traveler_plots import (
    COLORS,
    SOURCE_COLORS,
    plot_fairness_heatmap,
    plot_points_by_source,
    plot_score_distributions,
    plot_win_rates,
)

PLOT_FILES = (
    "win_rates.png",
    "fairness_heatmap.png",
    "score_distributions.png",
    "points_by_source.png",
    "seat_advantage.png",
    "variant_effects.png",
)
EXPANSION_FILE = "expansion_effects.png"


def plot_all(dataset_dir: str | Path, out_dir: str | Path) -> list[Path]:
    """Write every plot of the dataset at ``dataset_dir`` into ``out_dir``; return the PNG paths.

    One configuration: ``PLOT_FILES[:5]`` (win rates, fairness heatmap, score distributions, points by
    source, seat advantage). A study is never pooled: ``win_rates.png``, ``fairness_heatmap.png`` and
    ``seat_advantage.png`` set its configurations side by side; ``variant_effects.png`` and
    ``expansion_effects.png`` (when it has them) draw each variant against none and each expansion against
    the base game; and ``score_distributions-CONFIG.png`` and ``points_by_source-CONFIG.png`` are drawn per
    configuration.
    """
    ds = load_dataset(dataset_dir)
    lf, out = ds.frame, Path(out_dir)
    with reading(ds.files):
        about = describe.about(ds).title()
        if not conditions(lf):
            funcs = (
                plot_win_rates,
                plot_fairness_heatmap,
                plot_score_distributions,
                plot_points_by_source,
                plot_seat_advantage,
            )
            return [f(lf, out / name, about=about) for f, name in zip(funcs, PLOT_FILES, strict=False)]
        v = questions.views(ds)
        colour = figures.colours(v.travelers.get_column("config").to_list())
        paths = [
            figures.plot_side_by_side(
                v.travelers, out / PLOT_FILES[0], "Win rate per Traveler (95% intervals)", about, colour
            ),
            plot_fairness_heatmap(lf, out / PLOT_FILES[1], about, table=v.travelers),
            figures.plot_seats(v.seats, out / PLOT_FILES[4], "Seat advantage (95% intervals)", about, colour),
        ]
        if v.variants.height:
            paths.append(
                figures.plot_change_effects(
                    v.variants,
                    out / PLOT_FILES[5],
                    "What each variant does: change of win rate against no variant",
                    about,
                )
            )
        if v.expansions.height:
            paths.append(
                figures.plot_change_effects(
                    v.expansions,
                    out / EXPANSION_FILE,
                    "What each expansion does to the base Travelers: change of win rate",
                    about,
                )
            )
        full = questions.with_conditions(ds)
        for values in (
            v.travelers.select(*questions.COLUMNS, "config").unique(maintain_order=True).iter_rows(named=True)
        ):
            part = full.filter(*[pl.col(k) == values[k] for k in questions.COLUMNS])
            slug = re.sub(r"[^a-z0-9]+", "-", values["config"].lower()).strip("-")
            title = f"{values['config']} · {about}"
            paths.append(plot_score_distributions(part, out / f"score_distributions-{slug}.png", about=title))
            paths.append(plot_points_by_source(part, out / f"points_by_source-{slug}.png", about=title))
    return paths


__all__ = [
    "COLORS",
    "EXPANSION_FILE",
    "KIND_ORDER",
    "ORDINAL",
    "PLOT_FILES",
    "SOURCE_COLORS",
    "plot_all",
    "plot_effects",
    "plot_fairness_heatmap",
    "plot_points_by_source",
    "plot_score_distributions",
    "plot_seat_advantage",
    "plot_win_rates",
]
