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
        return (self.intended is not None and self.games < self.intended) or self.status not in (None, "complete")

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
        return (f"**Incomplete run** (status: {self.status or 'not recorded'}): {self.games_text()} were played; "
                "every figure covers only those. Finish it by rerunning the same command with `--resume`.")


def _grid(study: dict[str, Any]) -> str:
    keys = (("players", "players"), ("variants", "variants"), ("expansions", "expansions"),
            ("travelers", "travelers"))
    parts = [f"{label} {', '.join(map(str, study[k]))}" for k, label in keys if isinstance(study.get(k), list)]
    name = study.get("name")
    return (f"study '{name}': " if name else "study: ") + "; ".join(parts)


def _from_data(lf: pl.LazyFrame) -> str:
    names = lf.collect_schema().names()
    players = sorted(lf.select(pl.col("n_players").unique()).collect().get_column("n_players").to_list())
    parts = [f"{'/'.join(map(str, players))} players"]
    for c in CONDITION_COLUMNS:
        if c in names and c != "bots":
            vals = sorted(lf.select(pl.col(c).drop_nulls().unique()).collect().get_column(c).cast(pl.String).to_list())
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
        return About(_grid(m.study), bots, games, intended, m.status)
    spec = (m.config or {}).get("spec") or m.spec
    return About(str(spec) if spec else _from_data(lf), bots, games, m.games, m.status)


def about(ds: Dataset) -> About:
    """Describe a loaded dataset."""
    return about_frame(ds.frame, ds.manifest)

