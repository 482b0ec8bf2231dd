"""How many games a stats check needs for the baseline's tolerances to mean something.

A figure's difference (new games minus baseline) has the 95% interval
``d ± 1.96·sd·sqrt(1/n_base + 1/n_new)``. With too few new games that interval is
wider than the moves the tolerance is about, so the check can neither catch a
move of that size nor rule one out, and its normal approximation is poor for
rare Travelers (a ``MOVED`` at 2,000 games is as much the seed as the engine).
``games_needed`` is the smallest number of games for which every figure's
interval half-width is at most ``RESOLVE`` times its tolerance; ``check stats``
prints it and warns below it.
"""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054
RESOLVE = 2.0  # a move of twice the tolerance lies outside the difference's 95% interval


def figure_games(fig: dict[str, Any], per_game: float, tol: float, n_base: int) -> float:
    """Games for one figure (``per_game`` sample units a game); ``inf`` if the baseline alone is too wide."""
    if fig["sd"] <= 0 or per_game <= 0:
        return 0.0
    if tol <= 0:
        return math.inf
    room = (RESOLVE * tol / (Z95 * fig["sd"])) ** 2 - 1.0 / n_base
    return math.inf if room <= 0 else 1.0 / room / per_game


def games_needed(baseline: dict[str, Any], tolerance: dict[str, float]) -> tuple[float, str]:
    """(games, label of the figure that needs the most) for ``baseline`` with ``tolerance`` by kind."""
    games, label = 0.0, ""
    for key, fig in baseline["figures"].items():
        if fig["n"] < 2:
            continue
        g = figure_games(fig, fig["n"] / baseline["games"], float(tolerance[fig["kind"]]), int(fig["n"]))
        if g > games:
            games, label = g, fig.get("label", key)
    return games, label


def note(baseline: dict[str, Any], tolerance: dict[str, float], games: int) -> str | None:
    """The warning line when ``games`` are fewer than the tolerances need (None when enough)."""
    need, label = games_needed(baseline, tolerance)
    tols = f"±{100 * tolerance['rate']:.1f} pp on rates, ±{tolerance['score']:.2f} points on scores"
    if math.isinf(need):
        return (
            f"warning: the baseline itself is too small for its tolerances ({tols}; {label}); remake it with "
            "more games or loosen --rate-tolerance / --score-tolerance"
        )
    if games >= need:
        return None
    need = int(math.ceil(need / 1000.0) * 1000)
    return (
        f"warning: {games:,} games are fewer than the {need:,} this baseline's tolerances need ({tols}; most "
        f"for {label}): below that a move of twice the tolerance can go unseen and a MOVED can be chance; "
        f"give -g {need} or more"
    )
