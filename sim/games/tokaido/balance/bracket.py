"""Where fair lies between two whole coin values, measured on fresh seeds (``balance --only``).

Coins are whole numbers, so a Traveler is rarely exactly fair at any of them. For each Traveler
named by ``--only`` and each player count, the starting coins of the search's proposal are played on
the confirmation seed, then one coin more or less, then further the same way, until the Traveler's
win rate lies on both sides of the fair share 1/N at two neighbouring values ``a < b`` (or a limit
is reached: ``--max-change``, or 0 coins). Fair then lies where the straight line through the two
measured win rates crosses 1/N; its interval is where the lines through their 95% interval bounds
cross it (upper bounds: the low end; lower bounds: the high end). Every value is played on the
same games (common random numbers), so their difference is mostly the coin's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sim.games.tokaido.balance.evaluate import Evaluator, Tally
from sim.games.tokaido.balance.knobs import Change, Knob
from sim.games.tokaido.balance.race import PASS_LEVEL


@dataclass(frozen=True)
class Point:
    coins: int
    rate: float
    lo: float
    hi: float
    games: int  # games the Traveler played


@dataclass(frozen=True)
class Fair:
    """Where one Traveler is fair at one player count: the measured neighbours and the crossing."""

    traveler: str
    n_players: int
    points: tuple[Point, ...]  # every coin value measured, ascending
    fair: float | None  # coins at which the line crosses 1/N (None: not bracketed)
    lo: float | None
    hi: float | None
    note: str  # one line: the bracket, or why there is none

    @property
    def share(self) -> float:
        return 1.0 / self.n_players


def crossing(a: Point, b: Point, share: float) -> tuple[float | None, float | None, float | None]:
    """Where the lines through (a, b)'s rates, upper bounds and lower bounds cross ``share`` (coins)."""

    def cross(ya: float, yb: float) -> float | None:
        if yb == ya:
            return None
        return a.coins + (share - ya) * (b.coins - a.coins) / (yb - ya)

    est = cross(a.rate, b.rate)
    lo = cross(a.hi, b.hi)  # the upper bounds reach the share first
    hi = cross(a.lo, b.lo)
    if est is None or b.rate <= a.rate:
        return None, None, None
    return est, lo, hi


def _point(t: Tally, i: int, coins: int) -> Point:
    lo, hi = t.interval(PASS_LEVEL)
    return Point(coins, float(t.rate[i]), float(lo[i]), float(hi[i]), int(t.seats[i]))


def bracket(
    ev: Evaluator,
    knobs: Sequence[Knob],
    change: Change,
    travelers: Sequence[str],
    only: Sequence[str],
    games: int,
    on_status: Callable[[str], None] = lambda text: None,
) -> list[Fair]:
    """For each Traveler of ``only`` (its coin knob) and player count, measure whole coin values around
    ``change`` on ``ev``'s seed until its win rate lies on both sides of 1/N; the crossing of each."""
    out = []
    for j, k in enumerate(knobs):
        if k.traveler is not None and k.traveler in only:
            out += _knob(ev, j, k, change, travelers.index(k.traveler), games, on_status)
    return out


def _knob(
    ev: Evaluator, j: int, k: Knob, change: Change, i: int, games: int, on_status: Callable[[str], None]
) -> list[Fair]:
    """The brackets of one Traveler (index ``i``, coin knob ``j``) at every player count."""
    measured: dict[int, dict[int, Tally]] = {}

    def at(d: int) -> dict[int, Tally]:
        if d not in measured:
            c = tuple(d if jj == j else x for jj, x in enumerate(change))
            on_status(f"fair coins of {k.traveler}: {k.base + d} coins on fresh seeds")
            measured[d] = ev.evaluate([c], games)[c]
        return measured[d]

    out = []
    for n in sorted(ev.configs):
        t0 = at(change[j])[n]
        share = t0.fair
        step = -1 if t0.rate[i] > share else 1
        prev = change[j]
        while k.lo <= prev + step <= k.hi:
            t = at(prev + step)[n]
            if (t.rate[i] > share) != (t0.rate[i] > share):
                break
            prev, t0 = prev + step, t
        points = tuple(_point(measured[x][n], i, k.base + x) for x in sorted(measured))
        out.append(_fair(str(k.traveler), n, points, share))
    return out


def _fair(traveler: str, n: int, points: tuple[Point, ...], share: float) -> Fair:
    above = [p for p in points if p.rate > share]
    below = [p for p in points if p.rate <= share]
    pairs = [(a, b) for a, b in zip(points, points[1:], strict=False) if (a.rate > share) != (b.rate > share)]
    if pairs:
        a, b = pairs[0]
        est, lo, hi = crossing(a, b, share)
        if est is None:
            return Fair(
                traveler,
                n,
                points,
                None,
                None,
                None,
                f"{traveler} does not win more with {b.coins} coins than with {a.coins} on these games; "
                "fair cannot be placed between them",
            )
        return Fair(traveler, n, points, est, lo, hi, f"fair lies between {a.coins} and {b.coins} coins")
    if above and not below:
        why = (
            f"{traveler} is still stronger than fair at {points[0].coins} coins, the fewest allowed "
            "(0 coins or --max-change)"
        )
    else:
        why = (
            f"{traveler} is still weaker than fair at {points[-1].coins} coins, the most --max-change allows"
        )
    return Fair(traveler, n, points, None, None, None, why + ": fair lies beyond the values measured")


def fair_md(fairs: Sequence[Fair], slope_of: Callable[[str, int], float | None] | None = None) -> list[str]:
    """One line per Traveler and player count, for ``balance.md`` and the console."""
    lines = []
    for f in fairs:
        pts = ", ".join(
            f"{p.coins} coins {100 * p.rate:.1f}% ({100 * p.lo:.1f}–{100 * p.hi:.1f})" for p in f.points
        )
        if f.fair is not None and f.lo is not None and f.hi is not None:
            lo, hi = sorted((f.lo, f.hi))
            lines.append(
                f"**{f.traveler} at {f.n_players} players: fair ({100 * f.share:.1f}%) at {f.fair:.1f} coins "
                f"(95%: {lo:.1f} to {hi:.1f})**; measured on fresh seeds: {pts}."
            )
        else:
            lines.append(
                f"**{f.traveler} at {f.n_players} players**: {f.note}; measured on fresh seeds: {pts}."
            )
    return lines


def slope(f: Fair) -> float | None:
    """Win rate per coin (a fraction) between the bracketing values, or None."""
    pts = f.points
    if len(pts) < 2:
        return None
    a, b = pts[0], pts[-1]
    return (b.rate - a.rate) / (b.coins - a.coins) if b.coins != a.coins else None


__all__ = ["Fair", "Point", "bracket", "crossing", "fair_md", "slope"]
