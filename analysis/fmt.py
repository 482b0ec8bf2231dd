"""Number formatting and Markdown tables for the reports."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import polars as pl


def _bad(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x: Any, digits: int = 1) -> str:
    """0.3125 -> '31.2%'."""
    return "–" if _bad(x) else f"{100 * x:.{digits}f}%"


def pct_ci(x: Any, lo: Any, hi: Any, digits: int = 1) -> str:
    """A proportion with its interval: '31.2% (25.5–36.6)'."""
    if _bad(x):
        return "–"
    return f"{100 * x:.{digits}f}% ({100 * lo:.{digits}f}–{100 * hi:.{digits}f})"


def num(x: Any, digits: int = 1, sign: bool = False) -> str:
    if _bad(x):
        return "–"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def num_ci(x: Any, lo: Any, hi: Any, digits: int = 1, sign: bool = False) -> str:
    """A value with its interval: '81.2 (80.1 to 82.3)' (signed: '+1.2 (−0.3 to +2.7)')."""
    if _bad(x):
        return "–"
    f = f"{{:{'+' if sign else ''}.{digits}f}}"
    return f"{f.format(x)} ({f.format(lo)} to {f.format(hi)})"


def pp_ci(x: Any, lo: Any, hi: Any, digits: int = 1) -> str:
    """A difference of proportions in percentage points: '+3.1 pp (+0.4 to +5.8)'."""
    if _bad(x):
        return "–"
    return f"{100 * x:+.{digits}f} pp ({100 * lo:+.{digits}f} to {100 * hi:+.{digits}f})"


def pval(p: Any) -> str:
    if _bad(p):
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool] | None = None) -> str:
    """A Markdown table; ``right[i]`` right-aligns column i (default: all but the first)."""
    align = right if right is not None else [i > 0 for i in range(len(headers))]
    esc = [[str(c).replace("|", "\\|") for c in r] for r in rows]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---:" if a else "---" for a in align) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in esc]
    return "\n".join(lines)


def group_label(values: Mapping[str, Any]) -> str:
    """'4 players · variants=gastronomy' from a group's key values."""
    parts = [f"{values['n_players']} players"] if "n_players" in values else []
    parts += [f"{k}={v}" for k, v in values.items() if k != "n_players"]
    return " · ".join(parts) or "all games"


def groups(df: pl.DataFrame, keys: Sequence[str]) -> Iterator[tuple[dict[str, Any], pl.DataFrame]]:
    """The frame split by ``keys`` (in sorted key order), with each group's key values."""
    if not keys:
        yield {}, df
        return
    for vals, sub in df.sort(list(keys), maintain_order=True).group_by(list(keys), maintain_order=True):
        yield dict(zip(keys, vals, strict=True)), sub
