"""The part files of a run directory as the resume tests compare them."""

from __future__ import annotations

from pathlib import Path


def part_stats(root: Path) -> dict[str, tuple[int, int]]:
    """Each ``part-*.parquet`` of ``root`` by name: (inode, modification time); a part kept as it was
    has the same pair, a rewritten one another."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in root.glob("part-*.parquet")}
