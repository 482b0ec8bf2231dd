"""The three questions of a balance study, each answered from its own configurations, never pooled.

* **strength**: each Traveler's win rate in the base game's configurations (Travelers dealt at random,
  and drafted), or in every configuration of a dataset that has no base game;
* **variants**: what each variant does against none, on the same expansions, pool and deal, paired game
  by game where the deals agree (``effects.study_effects``);
* **expansions**: what each expansion setting (an expansion, or one with its Traveler pool held to the
  base box by the rule ``draft.pool``) does to the Travelers both play, against the base game.

``Views`` holds the tables each answer and plot reads; every row carries its configuration in words
(``config``, ``describe.config_label``) and the condition columns it was computed within.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis.load import CONDITION_COLUMNS, Dataset
from analysis.tokaido import describe, tables
from analysis.tokaido.effects import study_effects
from sim.dataset.manifest import Manifest

COLUMNS = ("expansions", "pool", "variants", "travelers", "bots")  # a configuration, in the order it is named
NONE, ALL = "none", "all"
SETTING = "setting"  # expansions and pool, as one value: what an expansion effect compares


def _joined(value: Any, empty: str) -> str:
    if value is None:
        return empty
    if isinstance(value, list | tuple):
        return "+".join(map(str, value)) or empty
    return str(value) or empty


def manifest_conditions(manifest: Manifest) -> dict[str, str]:
    """A run's configuration as the study's condition values (variants, expansions, travelers, pool, bots)."""
    config = manifest.config or {}
    pool = next((str(v) for k, v in config.get("overrides") or [] if k == "draft.pool"), ALL)
    return {
        "variants": _joined(config.get("variants"), NONE),
        "expansions": _joined(config.get("expansions"), NONE),
        "travelers": str(config.get("travelers") or "draft").replace(",", "+"),
        "pool": pool.replace(",", "+"),
        "bots": _joined(config.get("bots"), ""),
    }


def with_conditions(ds: Dataset) -> pl.LazyFrame:
    """The dataset's rows with every condition column: a study's partitions, else the run's manifest."""
    names = ds.frame.collect_schema().names()
    known = manifest_conditions(ds.manifest)
    add = []
    for col in CONDITION_COLUMNS:
        if col not in names:
            add.append(pl.lit(known.get(col) or (ALL if col == "pool" else NONE), pl.String).alias(col))
    lf = ds.frame.with_columns(add) if add else ds.frame
    return lf.with_columns(
        pl.col("pool").fill_null(ALL),
        pl.col("variants").fill_null(NONE),
        pl.col("expansions").fill_null(NONE),
    )


def shown(lf: pl.LazyFrame) -> tuple[str, ...]:
    """The condition columns that vary (named in labels), bots only when it varies."""
    counts = lf.select([pl.col(c).n_unique().alias(c) for c in COLUMNS]).collect().row(0, named=True)
    return tuple(c for c in COLUMNS if counts[c] > 1)


def labelled(df: pl.DataFrame, cols: tuple[str, ...], base: str = "base game") -> pl.DataFrame:
    """``df`` with ``config`` (its configuration in words, from the condition columns ``cols`` that vary),
    its rows in the order a designer reads the configurations (``describe.config_order``)."""
    if df.is_empty():
        return df.with_columns(pl.lit(None, pl.String).alias("config"))
    rows = df.select(COLUMNS).unique().iter_rows(named=True)
    order = sorted(rows, key=describe.config_order)
    names = [describe.config_label({k: r[k] for k in cols}) if cols else base for r in order]
    table = pl.DataFrame(
        {**{c: [r[c] for r in order] for c in COLUMNS}, "config": names, "_order": list(range(len(order)))},
        schema_overrides={c: df.schema[c] for c in COLUMNS},
    )
    out = df.join(table, on=list(COLUMNS), how="left", nulls_equal=True)
    sort = ["_order", *(c for c in ("n_players", "seat", "traveler") if c in df.columns)]
    return out.sort(sort).drop("_order")


@dataclass
class Views:
    travelers: pl.DataFrame  # per configuration and player count: the Traveler table, with ``config``
    seats: pl.DataFrame  # the same per seat
    strength: pl.DataFrame  # the rows of ``travelers`` the strength answer reads
    variants: pl.DataFrame  # study_effects of variants against none (``change``: a variant in words)
    expansions: pl.DataFrame  # study_effects of expansion settings against the base game
    shown: tuple[str, ...]  # the condition columns that vary
    keys: list[str]  # the table keys: every condition column, then n_players


def _is_base() -> pl.Expr:
    """The base game's rows (no expansion, every Traveler in the pool)."""
    return (pl.col("expansions") == NONE) & (pl.col("pool") == ALL)


def views(ds: Dataset, level: float = 0.95, alpha: float = 0.05) -> Views:
    """Every table of the three questions (one Holm family per table, as in the report's tables)."""
    lf = with_conditions(ds)
    cols = shown(lf)
    keys = [*COLUMNS, "n_players"]
    base = describe.config_label(manifest_conditions(ds.manifest)) if ds.manifest.config else "base game"
    trav = labelled(tables.traveler_table(lf, keys, level, alpha), cols, base)
    seats = labelled(tables.seat_table(lf, keys, level, alpha), cols, base)
    base_rows = trav.filter(_is_base() & (pl.col("variants") == NONE))
    strength = base_rows if base_rows.height else trav
    var_eff = pl.DataFrame()
    if "variants" in cols:
        within = lf.filter(_is_base())
        var_eff = study_effects(within, "variants", NONE, level, alpha)
        if var_eff.height:
            var_eff = var_eff.with_columns(
                pl.col("change").alias("value"),
                pl.col("change").map_elements(describe.variants_label, return_dtype=pl.String),
            )
    xp_eff = pl.DataFrame()
    if "expansions" in cols or "pool" in cols:
        setting = (
            pl.when(pl.col("pool") == ALL)
            .then(pl.col("expansions"))
            .otherwise(pl.col("expansions") + pl.lit("|") + pl.col("pool"))
            .alias(SETTING)
        )
        within = lf.filter(pl.col("variants") == NONE).with_columns(setting).drop(["expansions", "pool"])
        xp_eff = study_effects(within, SETTING, NONE, level, alpha)
        if xp_eff.height:  # an expansion, then the same with its pool held to fewer Travelers
            values = sorted(
                set(xp_eff.get_column("change").to_list()),
                key=lambda v: describe.config_order(
                    {"expansions": v.partition("|")[0], "pool": v.partition("|")[2] or ALL}
                ),
            )
            rank = pl.col("change").replace_strict(
                {v: i for i, v in enumerate(values)}, return_dtype=pl.Int32
            )
            xp_eff = xp_eff.with_columns(rank.alias("_o")).sort("_o", maintain_order=True).drop("_o")
            xp_eff = xp_eff.with_columns(
                pl.col("change").alias("value"),
                pl.col("change").map_elements(setting_label, return_dtype=pl.String),
            )
    return Views(trav, seats, strength, var_eff, xp_eff, cols, keys)


def setting_label(value: str) -> str:
    """'crossroads|base' -> 'Crossroads, base Travelers only'; 'crossroads' -> 'Crossroads'."""
    xs, _, pool = value.partition("|")
    return ", ".join(x for x in (describe.expansions_label(xs), describe.pool_label(pool or ALL)) if x)
