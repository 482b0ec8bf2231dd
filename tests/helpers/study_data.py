"""A synthetic study dataset with every condition column as a hive partition, as ``tokaido-sim study`` writes
one (``n_players=N/variants=V/expansions=X/bots=B/travelers=T/pool=P``), for the analysis tests."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.helpers.synthetic_datasets import make_dataset

KEYS = ("variants", "expansions", "bots", "travelers", "pool")


def make_study(root: Path, cells: Sequence[dict[str, Any]], games: int = 300, seed: int = 4) -> Path:
    """``cells``: dicts of n_players and condition values (defaults: none, none, expert, random, all) and
    optionally ``effect`` (``make_dataset``'s) and ``deal_seed`` (other deals, as another Traveler pool
    makes); the other cells share the study's seed, so their deals are the same and pair game by game."""
    entries = []
    for i, cell in enumerate(cells):
        c = {
            "variants": "none",
            "expansions": "none",
            "bots": "expert",
            "travelers": "random",
            "pool": "all",
            **cell,
        }
        path = f"n_players={c['n_players']}/" + "/".join(f"{k}={c[k]}" for k in KEYS)
        tmp = make_dataset(
            root / f".cell{i}",
            games,
            c["n_players"],
            seed=c.get("deal_seed", seed),
            variants=c["variants"],
            travelers=c["travelers"],
            bot=c["bots"],
            expansions=c["expansions"],
            effect=c.get("effect"),
        )
        (root / path).mkdir(parents=True, exist_ok=True)
        shutil.move(tmp / "part-00000.parquet", root / path / "part-00000.parquet")
        shutil.rmtree(tmp)
        entries.append({"path": path, "games": games, "status": "complete"})
    grid = {k: sorted({str(c.get(k, "none")) for c in cells}) for k in ("variants", "expansions")}
    (root / "manifest.json").write_text(
        json.dumps(
            {
                "kind": "study",
                "seed": seed,
                "status": "complete",
                "cells": entries,
                "study": {
                    "name": "synthetic",
                    "grid": [{"about": "strength"}, {"about": "variants"}],
                    **grid,
                },
            }
        )
    )
    return root
