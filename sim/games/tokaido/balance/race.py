"""Racing candidates on common random numbers: few games to drop the clearly bad, many for the good.

All candidates of a race play the same games ``[0, g)`` at levels ``g = min_games, 2 min_games,
..., games``. After each level a candidate

- **fails** when some Traveler's 99% Wilson interval lies wholly outside ``1/N +- target``
  (a strict test, so a good candidate is rarely dropped by bad luck), and is dropped;
- **passes** when every Traveler's 95% Wilson interval lies inside the band.

The race ends at the first level where the cheapest candidate still running passes ("proven");
at the last level the cheapest candidate whose point estimates are all within the target wins
("met at the point estimates"); otherwise every candidate is rejected.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.games.tokaido.balance.evaluate import Evaluator, Tally
from sim.games.tokaido.balance.knobs import Change, cost

DROP_LEVEL = 0.99
PASS_LEVEL = 0.95


def judge(tallies: Mapping[int, Tally], target: float) -> str:
    """``fail``, ``pass`` or ``open`` (``target`` as a fraction)."""
    verdict = "pass"
    for t in tallies.values():
        seen = t.judged
        lo, hi = t.interval(DROP_LEVEL)
        if ((lo > t.fair + target) | (hi < t.fair - target))[seen].any():
            return "fail"
        lo, hi = t.interval(PASS_LEVEL)
        if not ((lo >= t.fair - target) & (hi <= t.fair + target))[seen].all():
            verdict = "open"
    return verdict


def within(tallies: Mapping[int, Tally], target: float) -> bool:
    """Every judged Traveler's point estimate within ``target`` of the fair share, at every player count."""
    return all(bool((np.abs(t.rate - t.fair)[t.judged] <= target).all()) for t in tallies.values())


def outside(tallies: Mapping[int, Tally], travelers: Sequence[str], target: float) -> list[str]:
    """``TRAVELER at N players`` for every point estimate farther than ``target`` from the fair share."""
    return [
        f"{travelers[int(i)]} at {n} players"
        for n, t in tallies.items()
        for i in np.flatnonzero((np.abs(t.rate - t.fair) > target) & t.judged)
    ]


def excess(tallies: Mapping[int, Tally], target: float) -> float:
    """Total distance of the win rates beyond the band ``1/N +- target``, over Travelers and player counts."""
    return float(
        sum(np.clip(np.abs(t.rate - t.fair) - target, 0, None)[t.judged].sum() for t in tallies.values())
    )


def max_dev(tallies: Mapping[int, Tally]) -> float:
    return max(t.max_dev() for t in tallies.values())


def levels(min_games: int, games: int) -> list[int]:
    out, g = [], min_games
    while g < games:
        out.append(g)
        g *= 2
    return [*out, games]


def order(change: Change) -> tuple[tuple[int, int], Change]:
    return cost(change), change


@dataclass
class Race:
    """One race: its winner (or None), how it ended, and a line per candidate and level."""

    winner: Change | None = None
    how: str = "rejected"  # proven | point | rejected | budget
    log: list[dict[str, Any]] = field(default_factory=list)


def race(
    ev: Evaluator,
    candidates: Sequence[Change],
    target: float,
    min_games: int,
    games: int,
    budget: int,
    label: Callable[[Change], str],
    on_level: Callable[[Change, float], None],
) -> Race:
    """Race ``candidates`` (fraction ``target``) within ``budget`` games spent in all."""
    out = Race()
    alive = sorted(set(candidates), key=order)
    res: dict[Change, dict[int, Tally]] = {}
    for g in levels(min_games, games):
        if ev.spent + ev.extra(alive, g) > budget:
            out.how = "budget"
            return out
        res = ev.evaluate(alive, g)
        verdicts = {c: judge(res[c], target) for c in alive}
        for c in alive:
            out.log.append(
                {
                    "change": list(c),
                    "label": label(c),
                    "cost": list(cost(c)),
                    "games": g,
                    "max_dev_pp": round(100 * max_dev(res[c]), 3),
                    "verdict": verdicts[c],
                }
            )
        alive = [c for c in alive if verdicts[c] != "fail"]
        if alive:
            best = min(alive, key=lambda c: max_dev(res[c]))
            on_level(best, max_dev(res[best]))
        passed = [c for c in alive if verdicts[c] == "pass"]
        if passed:
            p = min(passed, key=order)
            if not [c for c in alive if order(c) < order(p)]:
                out.winner, out.how = p, "proven"
                return out
            alive = [c for c in alive if order(c) <= order(p)]
        if not alive:
            return out
    ok = [c for c in alive if within(res[c], target)]
    if ok:
        out.winner, out.how = min(ok, key=order), "point"
    return out
