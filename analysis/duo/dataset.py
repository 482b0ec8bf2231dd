"""A ``duo run`` dataset as the Duo report and plots read it: its rows, manifest and board provenance.

Read by column name (docs/duo.md lists them), so this module needs nothing of
``kernels.duo``: the bit order of ``end_triggers`` and ``waves_held`` is
restated here and a test holds it to ``kernels.duo.enums``. The board
provenance and the ``verified`` flag come from the manifest (falling back to
the rows' ``duo_board_version`` / ``verified``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analysis.load import parquet_files, read_manifest, reading
from sim.dataset.manifest import Manifest
from sim.dataset.parts import checked_files

TRIGGERS = ("temple", "garden", "gold", "gift", "rounds", "rank")
AUTOMA = "automa"  # the bot name of the solo opponent
CHARACTERS = ("pilgrim", "merchant", "artist")  # bits of waves_held, suffixes of pts_* and wave_use_*
POINTS = tuple(f"pts_{c}" for c in CHARACTERS)
REQUIRED = (
    "game",
    "player",
    "bot",
    "win",
    "first",
    "score",
    *POINTS,
    "coins",
    "end_triggers",
    "rounds",
    "hs_taken",
    "hs_used",
    "waves_held",
    *(f"wave_use_{c}" for c in CHARACTERS),
    "duo_board_version",
    "verified",
)


@dataclass
class DuoDataset:
    path: Path
    frame: pl.DataFrame  # one row per player per game, ``bot`` as text, plus ``matchup`` ("greedy vs search")
    manifest: Manifest = field(default_factory=Manifest)
    provenance: str = ""
    verified: bool = False
    notes: list[str] = field(default_factory=list)  # files skipped, and why (one line each)

    @property
    def caption(self) -> str:
        """The line under every Duo figure: which board, and whether it is the published one."""
        return f"Tokaido Duo · {self.provenance} · verified={str(self.verified).lower()}"

    @property
    def solo(self) -> bool:
        """A solo dataset: one bot against the Automa."""
        return AUTOMA in self.frame["bot"].unique().to_list()

    @property
    def games(self) -> pl.DataFrame:
        """One row per game (player 0's row: the game-level columns are the same for both)."""
        return self.frame.filter(pl.col("player") == 0)


def load_duo(path: str | Path) -> DuoDataset:
    """A ``duo run`` directory's rows and manifest; a one-line ``ValueError`` if it is not one.

    The parts are checked against the manifest as a Tokaido dataset's are (``sim.dataset.parts``):
    a missing, truncated, edited or foreign part is refused, a stray copy skipped (its note kept).
    """
    p = Path(path)
    files, notes = checked_files(
        p if p.is_dir() else p.parent, parquet_files(p)
    )  # rows a game: the manifest's
    if not files:
        raise ValueError(f"no Parquet file of '{p}' is listed in its manifest: nothing to read")
    lf = pl.scan_parquet([str(f) for f in files])
    names = lf.collect_schema().names()
    if "duo_board_version" not in names:
        raise ValueError(
            f"'{p}' is not a Tokaido Duo dataset (no duo_board_version column); "
            "for a Tokaido dataset use `tokaido-sim report`"
        )
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        raise ValueError(
            f"Duo dataset '{p}' lacks the column(s) {', '.join(missing)}; rewrite it with "
            "`tokaido-sim duo run`"
        )
    with reading(files):
        df = lf.with_columns(
            pl.col("bot").cast(pl.String), pl.col("duo_board_version").cast(pl.String)
        ).collect()
    seats = df.select("game", "player", "bot").pivot(on="player", index="game", values="bot")
    seats = seats.select("game", pl.concat_str([pl.col("0"), pl.col("1")], separator=" vs ").alias("matchup"))
    df = df.join(seats, on="game", how="left")
    manifest = read_manifest(p)
    board = manifest.extra.get("duo_board")
    board = board if isinstance(board, dict) else {}
    prov = board.get("provenance") or "; ".join(sorted(set(df["duo_board_version"].to_list())))
    verified = board.get("verified")
    if verified is None:
        verified = bool(df["verified"].all())
    return DuoDataset(p, df, manifest, str(prov), bool(verified), notes)
