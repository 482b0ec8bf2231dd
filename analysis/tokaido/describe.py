"""What a dataset holds, in words: configuration, bot tiers, games played against games intended.

Every report header and plot title is built from ``describe`` so that a figure never leaves
its context: which rules, which bots, how many games, and whether the run finished. The
manifest says what was intended (a run's ``games``, a study's cells); the data say what was
played (one row of player 0 per game).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import polars as pl

from analysis.load import CONDITION_COLUMNS, Dataset
from sim.dataset.manifest import Manifest


@dataclass
class About:
    configuration: str  # a run's config string, a study's grid, or what the data show
    bots: list[str]  # the bot tiers that played
    games: int  # games in the data
    intended: int | None = None  # games the manifest asked for
    status: str | None = None  # the manifest's status: complete, running, interrupted

    @property
    def incomplete(self) -> bool:
        return (self.intended is not None and self.games < self.intended) or self.status not in (
            None,
            "complete",
        )

    def played(self) -> str:
        """'1,200' or, when the manifest intended another number, '1,200 of 10,000 intended'."""
        if self.intended is None or self.intended == self.games:
            return f"{self.games:,}"
        return f"{self.games:,} of {self.intended:,} intended"

    def games_text(self) -> str:
        return f"{self.played()} games"

    def title(self) -> str:
        """One line for a plot title: configuration · bots · games (and the status if unfinished)."""
        parts = [self.configuration, "bots " + ", ".join(self.bots) if self.bots else "", self.games_text()]
        if self.incomplete:
            parts.append(f"run {self.status or 'incomplete'}")
        return " · ".join(p for p in parts if p)

    def warning(self) -> str:
        """A sentence for an unfinished run's report (empty when the run is complete)."""
        if not self.incomplete:
            return ""
        return (
            f"**Incomplete run** (status: {self.status or 'not recorded'}): {self.games_text()} were played; "
            "every figure covers only those. Finish it by rerunning the same command with `--resume`."
        )


def _grid(study: dict[str, Any], cells: int = 0) -> str:
    keys = (
        ("players", "players"),
        ("variants", "variants"),
        ("expansions", "expansions"),
        ("travelers", "travelers"),
        ("pool", "pool"),
    )
    name = study.get("name")
    head = f"study '{name}'" if name else "study"
    if isinstance(study.get("grid"), list):  # several grids: name what each asks, not every value
        about = [str(g.get("about")) for g in study["grid"] if isinstance(g, dict) and g.get("about")]
        return f"{head}: {cells} cells" + (f" ({'; '.join(about)})" if about else "")
    parts = [
        f"{label} {', '.join(map(str, study[k]))}" for k, label in keys if isinstance(study.get(k), list)
    ]
    return f"{head}: " + "; ".join(parts)


def _from_data(lf: pl.LazyFrame) -> str:
    names = lf.collect_schema().names()
    players = sorted(lf.select(pl.col("n_players").unique()).collect().get_column("n_players").to_list())
    parts = [f"{'/'.join(map(str, players))} players"]
    for c in CONDITION_COLUMNS:
        if c in names and c != "bots":
            vals = sorted(
                lf.select(pl.col(c).drop_nulls().unique()).collect().get_column(c).cast(pl.String).to_list()
            )
            parts.append(f"{c} {', '.join(vals)}")
    return ", ".join(parts)


def about_frame(lf: pl.LazyFrame, manifest: Manifest | None = None) -> About:
    """Describe the rows of ``lf`` (with the run's or study's ``manifest``, if there is one)."""
    m = manifest or Manifest()
    # a small group-by streams; unique().implode() over every row would not (0.9 GB at 40M rows)
    per_bot = lf.group_by("bot").agg((pl.col("player") == 0).sum().alias("games")).collect(engine="streaming")
    games = int(per_bot["games"].sum())
    bots = sorted(b for b in per_bot["bot"].to_list() if b is not None)
    if m.kind == "study" and m.study is not None:
        cells = m.cells or []
        intended = sum(c.games or 0 for c in cells) if cells else None
        return About(_grid(m.study, len(cells)), bots, games, intended, m.status)
    spec = (m.config or {}).get("spec") or m.spec
    return About(str(spec) if spec else _from_data(lf), bots, games, m.games, m.status)


def about(ds: Dataset) -> About:
    """Describe a loaded dataset."""
    return about_frame(ds.frame, ds.manifest)


EXPANSION_NAMES = {
    "none": "base game",
    "crossroads": "Crossroads",
    "matsuri": "Matsuri",
    "promos": "promo Travelers",
    "new-encounters": "New Encounters",
}
VARIANT_NAMES = {
    "gastronomy": "Gastronomy",
    "preparations": "Preparations",
    "return-trip": "Return Trip",
    "initiation": "Journey of Initiation",
}
DEAL_NAMES = {"random": "dealt at random", "draft": "drafted"}


def expansions_label(value: Any) -> str:
    """'crossroads+matsuri' -> 'Crossroads + Matsuri'; 'none' -> 'base game'."""
    text = str(value or "none")
    return " + ".join(EXPANSION_NAMES.get(x, x) for x in text.split("+"))


def variants_label(value: Any) -> str:
    """'gastronomy+preparations' -> 'Gastronomy + Preparations'; 'none' -> ''."""
    text = str(value or "none")
    return "" if text == "none" else " + ".join(VARIANT_NAMES.get(x, x) for x in text.split("+"))


def pool_label(value: Any) -> str:
    """A ``draft.pool`` value in words: 'base' -> 'base Travelers only'; 'all' -> ''."""
    text = str(value or "all")
    return "" if text == "all" else f"{text.replace('+', ' + ')} Travelers only"


def config_label(
    values: dict[str, Any], show: tuple[str, ...] = ("expansions", "pool", "variants", "travelers", "bots")
) -> str:
    """A configuration in a designer's words, from a group's condition values (the keys present in ``show``):
    ``{"expansions": "crossroads", "pool": "base", "travelers": "random"}`` ->
    'Crossroads, base Travelers only, dealt at random'."""
    parts = []
    for key in show:
        if key not in values or values[key] is None:
            continue
        v = values[key]
        if key == "travelers":
            text = DEAL_NAMES.get(str(v), str(v).replace("+", ", "))
        elif key == "bots":
            text = f"{v} bots"
        else:
            text = {"expansions": expansions_label, "variants": variants_label, "pool": pool_label}[key](v)
        if text:
            parts.append(text)
    return ", ".join(parts) or "base game"


def config_order(values: dict[str, Any]) -> tuple[Any, ...]:
    """Configurations in the order a designer reads them: the base game first (dealt at random, then
    drafted), then each variant, then each expansion (its pool held to fewer Travelers right after it)."""
    xs, pool = str(values.get("expansions") or "none"), str(values.get("pool") or "all")
    vs, deal = str(values.get("variants") or "none"), str(values.get("travelers") or "")
    boxes = list(EXPANSION_NAMES)  # none, crossroads, matsuri, promos, new-encounters: the boxes' order
    xkey = tuple(boxes.index(x) if x in boxes else len(boxes) for x in xs.split("+"))
    return (
        xs != "none",
        xkey,
        xs,
        pool != "all",
        pool,
        vs != "none",
        vs.count("+"),
        vs,
        {"random": 0, "draft": 1}.get(deal, 2),
        deal,
        str(values.get("bots") or ""),
    )
