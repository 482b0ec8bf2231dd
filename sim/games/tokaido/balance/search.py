"""The balance search: screen, model, propose, race, repeat; then confirm on fresh seeds.

1. **Screening** on the search seed: the starting rules and two antithetic designs (each coin
   knob moved by +2 or -2 at random, then the opposite), and one step of every other knob.
2. **Rounds**: fit the response (``model.fit``) to everything measured, anchored at the best
   candidate so far; propose the cheapest changes predicted to meet the target with margins
   0, 1/4 and 1/2 of it (``model.propose``); race them (``race.race``). A winner ends the search;
   a rejected round adds its measurements to the model, and its candidates are never proposed
   again (``exclude``). When no change within the bounds is
   predicted to meet the target, the best achievable one (least predicted excess beyond the band)
   is measured in full and the model refitted, until it proposes a change already measured; the
   Travelers it leaves out of the band are named: the knobs cannot fix them.
3. **Confirmation** on a seed the search never used: the starting rules and the proposal.

The search is deterministic given its games, and every game lives in a run directory, so a
resumed search replays its decisions from the games on disk and plays only what is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from sim.dataset.manifest import MAX_SEED
from sim.errors import UserError
from sim.games.tokaido.balance import model
from sim.games.tokaido.balance.evaluate import Evaluator, Tally
from sim.games.tokaido.balance.knobs import Change, Knob, cost, describe
from sim.games.tokaido.balance.race import excess, max_dev, order, race
from sim.games.tokaido.rules.config import GameConfig

MARGINS = (0.0, 0.25, 0.5)  # proposals aim inside the band by these fractions of the target
SCREEN_STEP = 2  # coins moved by the screening designs


@dataclass(frozen=True)
class Settings:
    target: float = 1.5  # percentage points
    max_change: int = 4
    games: int = 40_000  # most games per candidate and player count
    min_games: int = 2_500  # first racing level
    budget: int = 3_000_000  # games the search may spend in all
    seed: int = 1
    confirm_seed: int | None = None  # default seed + 1
    confirm_games: int = 100_000  # per player count, before and after each
    chunk_size: int = 20_000
    rounds: int = 6

    @property
    def confirm(self) -> int:
        return self.seed + 1 if self.confirm_seed is None else self.confirm_seed

    @property
    def screen_games(self) -> int:
        return max(self.min_games, self.games // 2)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "confirm_seed": self.confirm}


def validate(s: Settings, players: Sequence[int], knobs: Sequence[Knob]) -> None:
    """Refuse settings that cannot work, before anything is written (one line each)."""
    if not 0 < s.target < 50:
        raise UserError(f"--target must be between 0 and 50 percentage points, got {s.target}")
    if s.min_games < 1 or s.games < s.min_games:
        raise UserError(
            f"--games ({s.games}) must be at least --min-games ({s.min_games}), and that at least 1"
        )
    for name, v in (("--seed", s.seed), ("--confirm-seed", s.confirm)):
        if not 0 <= v <= MAX_SEED:
            raise UserError(f"{name} must be between 0 and {MAX_SEED}, got {v}")
    if s.confirm == s.seed:
        raise UserError(
            "--confirm-seed must differ from --seed: the confirmation plays games the search never saw"
        )
    if s.confirm_games < 1 or s.chunk_size < 1 or s.rounds < 1:
        raise UserError("--confirm-games, --chunk-size and --rounds must be at least 1")
    if all(k.lo == 0 == k.hi for k in knobs):
        raise UserError("no knob can move within the rules' limits; name other --knobs or raise --max-change")
    need = (len(screening(knobs, s.seed)) * s.screen_games + s.games) * len(players)
    if s.budget < need:
        raise UserError(
            f"--budget {s.budget:,} cannot pay for the screening and one candidate ({need:,} games); "
            f"raise --budget or lower --games"
        )


def screening(knobs: Sequence[Knob], seed: int) -> list[Change]:
    """The starting rules, an antithetic pair of random coin designs, one step of each other knob."""
    zero = tuple(0 for _ in knobs)
    signs = np.random.default_rng(seed).choice([-1, 1], size=len(knobs))

    def clip(change: Sequence[int]) -> Change:
        return tuple(int(min(max(d, k.lo), k.hi)) for d, k in zip(change, knobs, strict=True))

    coin = [k.traveler is not None for k in knobs]
    design = [int(SCREEN_STEP * sg) if c else 0 for sg, c in zip(signs, coin, strict=True)]
    out = [zero]
    if any(coin):
        out += [clip(design), clip([-d for d in design])]
    for i, k in enumerate(knobs):
        if not coin[i] and (k.lo or k.hi):
            out.append(clip([(1 if k.hi else -1) if j == i else 0 for j in range(len(knobs))]))
    return list(dict.fromkeys(c for c in out))


@dataclass
class Outcome:
    change: Change
    how: str  # proven | point | best
    reason: str  # why the search stopped
    rounds: int
    spent: int
    log: list[dict[str, Any]] = field(default_factory=list)
    responses: dict[int, model.Response] = field(default_factory=dict)
    unfixable: list[str] = field(
        default_factory=list
    )  # Travelers the model says their own knob cannot bring in


def _measured(ev: Evaluator) -> dict[Change, dict[int, Tally]]:
    """Every candidate measured so far, at its most games (a dropped one at the level it was dropped)."""
    changes = list(dict.fromkeys(c for c, _ in ev.level))
    return {c: {n: ev.tally(c, n, ev.level[(c, n)]) for n in ev.configs} for c in changes}


def _rank(
    tallies: dict[int, Tally], change: Change, target: float
) -> tuple[float, float, tuple[int, int], Change]:
    """Closest to fair first: least measured excess beyond the band, least largest distance, cheapest."""
    return excess(tallies, target), max_dev(tallies), *order(change)


def search(
    ev: Evaluator, knobs: Sequence[Knob], travelers: Sequence[str], s: Settings, status: Callable[[str], None]
) -> Outcome:
    """Find the cheapest change that meets the target (see the module docstring)."""
    target = s.target / 100
    ev.evaluate(screening(knobs, s.seed), s.screen_games)
    log: list[dict[str, Any]] = []
    rejected: set[Change] = set()
    responses: dict[int, model.Response] = {}
    unfixable: list[str] = []

    def label(c: Change) -> str:
        return describe(knobs, c)

    def show(c: Change, dev: float, rnd: int) -> None:
        status(f"round {rnd}: best {label(c)} ({100 * dev:.1f} pp off)")

    def stop(rnd: int, reason: str) -> Outcome:
        measured = _measured(ev)
        best = min(measured, key=lambda c: _rank(measured[c], c, target))
        return Outcome(best, "best", reason, rnd, ev.spent, log, responses, unfixable)

    for rnd in range(1, s.rounds + 1):
        measured = _measured(ev)
        anchor = min(measured, key=lambda c: _rank(measured[c], c, target))
        show(anchor, max_dev(measured[anchor]), rnd)
        responses = {
            n: model.fit(
                knobs, travelers, [(c, t[n]) for c, t in measured.items()], (anchor, measured[anchor][n])
            )
            for n in ev.configs
        }
        models = list(responses.values())
        first = model.propose(knobs, models, anchor, target, travelers, exclude=sorted(rejected))
        if first is None or not first.feasible:
            # the band cannot be met (by the changes not yet rejected): measure the best achievable in
            # full, refit, repeat until the model proposes a change already measured in full
            best = model.propose(knobs, models, anchor, target, travelers)
            assert best is not None  # nothing excluded: always solvable
            unfixable = model.diagnose(knobs, models, anchor, target, travelers)
            c = best.change
            if min(ev.level.get((c, n), 0) for n in ev.configs) >= s.games:
                left = " not yet rejected" if rejected else ""
                return stop(
                    rnd,
                    f"no change{left} within --max-change {s.max_change} is predicted to meet the "
                    "target, and the best achievable one is measured",
                )
            if ev.spent + ev.extra([c], s.games) > s.budget:
                return stop(rnd, f"the budget of {s.budget:,} games ran out")
            res = ev.evaluate([c], s.games)[c]
            log.append(
                {
                    "round": rnd,
                    "change": list(c),
                    "label": label(c),
                    "cost": list(cost(c)),
                    "games": s.games,
                    "max_dev_pp": round(100 * max_dev(res), 3),
                    "verdict": "best achievable",
                }
            )
            continue
        cands = [first.change]
        for m in MARGINS[1:]:
            p = model.propose(knobs, models, anchor, target * (1 - m), travelers, exclude=sorted(rejected))
            if p is not None and p.feasible:
                cands.append(p.change)
        cands = list(dict.fromkeys(cands))
        r = race(ev, cands, target, s.min_games, s.games, s.budget, label, partial(show, rnd=rnd))
        log += [{"round": rnd, **row} for row in r.log]
        if r.winner is not None:
            why = (
                "every Traveler's 95% interval inside the target band"
                if r.how == "proven"
                else f"every Traveler's point estimate within the target at {s.games:,} games"
            )
            return Outcome(r.winner, r.how, f"target met: {why}", rnd, ev.spent, log, responses)
        if r.how == "budget":
            return stop(rnd, f"the budget of {s.budget:,} games ran out")
        rejected |= set(cands)
    return stop(s.rounds, f"no candidate met the target in {s.rounds} rounds")


def confirm(
    configs: dict[int, GameConfig],
    knobs: Sequence[Knob],
    change: Change,
    s: Settings,
    root: Path,
    threads: int | None,
    cluster: Any,
    on_progress: Callable[[int], None],
    focus: np.ndarray | None = None,
) -> dict[str, dict[int, Tally]]:
    """The starting rules and ``change`` on the confirmation seed: ``{"before": ..., "after": ...}``."""
    ev = Evaluator(configs, knobs, root, s.confirm, s.chunk_size, threads, cluster, on_progress, focus)
    zero = tuple(0 for _ in knobs)
    res = ev.evaluate(list(dict.fromkeys([zero, change])), s.confirm_games)
    return {"before": res[zero], "after": res[change]}


__all__ = ["Outcome", "Settings", "confirm", "cost", "search", "screening", "validate"]
