"""The response of win rates to the knobs, and the integer programme that proposes candidates.

Model, per player count, fitted by weighted least squares (``scipy.optimize.lsq_linear``) to every
candidate evaluated so far: Traveler t's win rate is ``a_t + sum_k J[t, k] x_k``. A Traveler's own
coins move its win rate by ``s_u >= 0`` per coin; what it gains, the others lose, spread evenly
(under random assignment, ``-s_u / (T - 1)`` each, so the win rates keep summing to T/N). Any
other knob gets a free column of effects. Predictions are anchored at the best measured candidate
``x0``: ``w(x) = w_measured(x0) + J (x - x0)``, so the model only has to be right locally and each
measured candidate corrects it (a trust-region flavoured Newton step).

Proposal: the integer programme (HiGHS through ``scipy.optimize.milp``) minimising
``(K + 1) * sum |x_k| + #(x_k != 0)`` (total moved first, then knobs touched) subject to every
predicted win rate within ``target - margin`` of 1/N at every player count, ``x`` within its
bounds. When no change can do it, ``minimax`` finds the change that minimises the largest
predicted distance from the fair share, then the cheapest such change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, lsq_linear, milp

from sim.balance.evaluate import Tally
from sim.balance.knobs import Change, Knob


@dataclass(frozen=True)
class Response:
    """The fitted response at one player count: ``J`` (T x K) and the anchor's measured rates."""

    n_players: int
    jac: np.ndarray  # win-rate change per unit of each knob (fractions)
    anchor: np.ndarray  # measured win rates at the anchor change
    seen: np.ndarray  # Travelers that were played at the anchor

    @property
    def fair(self) -> float:
        return 1.0 / self.n_players

    def predict(self, change: Change, anchor: Change) -> np.ndarray:
        return self.anchor + self.jac @ (np.asarray(change, float) - np.asarray(anchor, float))


def fit(knobs: Sequence[Knob], travelers: Sequence[str], data: Sequence[tuple[Change, Tally]],
        anchor: tuple[Change, Tally]) -> Response:
    """Fit the response at one player count to ``data`` (change, tally) pairs."""
    T, K = len(travelers), len(knobs)
    coin = [travelers.index(k.traveler) if k.traveler is not None else -1 for k in knobs]
    extra = [k for k in range(K) if coin[k] < 0]
    n_par = T + K + len(extra) * T  # intercepts, one slope per knob, free columns of the other knobs
    rows, ys, ws = [], [], []
    fair = 1.0 / data[0][1].n_players
    for change, tally in data:
        x = np.asarray(change, float)
        for t in range(T):
            if tally.seats[t] <= 0:
                continue
            r = np.zeros(n_par)
            r[t] = 1.0
            for k in range(K):
                if coin[k] >= 0:
                    r[T + k] = x[k] * (1.0 if coin[k] == t else -1.0 / max(T - 1, 1))
            for j, k in enumerate(extra):
                r[T + K + j * T + t] = x[k]
            rows.append(r)
            ys.append(tally.rate[t])
            ws.append(np.sqrt(tally.seats[t] / (fair * (1 - fair))))  # inverse binomial standard error
    A, y, w = np.array(rows), np.array(ys), np.array(ws)
    lo = np.full(n_par, -np.inf)
    lo[T:T + K] = [0.0 if c >= 0 else -np.inf for c in coin]  # more coins never hurt their owner
    sol = lsq_linear(A * w[:, None], y * w, bounds=(lo, np.full(n_par, np.inf)), method="bvls").x
    jac = np.zeros((T, K))
    for k in range(K):
        if coin[k] >= 0:
            jac[:, k] = -sol[T + k] / max(T - 1, 1)
            jac[coin[k], k] = sol[T + k]
    for j, k in enumerate(extra):
        jac[:, k] = sol[T + K + j * T: T + K + (j + 1) * T]
    a_tally = anchor[1]
    seen = a_tally.seats > 0
    return Response(a_tally.n_players, jac, np.where(seen, a_tally.rate, 0.0), seen)


def _programme(knobs: Sequence[Knob], models: Sequence[Response], anchor: Change,
               band: float | None) -> tuple[np.ndarray, list[LinearConstraint], np.ndarray, np.ndarray]:
    """Variables ``[x (K, integer), a = |x| (K), z = x != 0 (K, binary), u]``; ``band`` None: minimise u."""
    K = len(knobs)
    nv = 3 * K + 1
    eye = np.eye(K)
    big = np.array([max(-k.lo, k.hi, 1) for k in knobs], float)
    absval = [LinearConstraint(np.hstack([eye, -eye, 0 * eye, np.zeros((K, 1))]), -np.inf, 0),
              LinearConstraint(np.hstack([-eye, -eye, 0 * eye, np.zeros((K, 1))]), -np.inf, 0),
              LinearConstraint(np.hstack([0 * eye, eye, -np.diag(big), np.zeros((K, 1))]), -np.inf, 0)]
    cons = list(absval)
    for m in models:
        J = m.jac[m.seen]
        c = (m.anchor - m.jac @ np.asarray(anchor, float))[m.seen]  # prediction = c + J x
        pad = np.zeros((J.shape[0], 2 * K))
        if band is None:  # |c + J x - fair| <= u
            cons.append(LinearConstraint(np.hstack([J, pad, -np.ones((J.shape[0], 1))]), -np.inf, m.fair - c))
            cons.append(LinearConstraint(np.hstack([J, pad, np.ones((J.shape[0], 1))]), m.fair - c, np.inf))
        else:
            cons.append(LinearConstraint(np.hstack([J, pad, np.zeros((J.shape[0], 1))]), m.fair - c - band,
                                         m.fair - c + band))
    lb = np.concatenate([[k.lo for k in knobs], np.zeros(2 * K), [0.0]])
    ub = np.concatenate([[k.hi for k in knobs], big, np.ones(K), [np.inf if band is None else 0.0]])
    integrality = np.concatenate([np.ones(K), np.zeros(K), np.ones(K), [0]])
    assert len(lb) == nv
    return integrality, cons, lb, ub


def _solve(c: np.ndarray, integrality: np.ndarray, cons: list[LinearConstraint], lb: np.ndarray,
           ub: np.ndarray) -> np.ndarray | None:
    res = milp(c, integrality=integrality, bounds=Bounds(lb, ub), constraints=cons, options={"time_limit": 30})
    return res.x if res.status == 0 and res.x is not None else None


def _cost_vector(K: int) -> np.ndarray:
    return np.concatenate([np.zeros(K), np.full(K, K + 1.0), np.ones(K), [0.0]])


def propose(knobs: Sequence[Knob], models: Sequence[Response], anchor: Change, band: float) -> Change | None:
    """The cheapest integer change predicted to bring every Traveler within ``band`` of 1/N, or None."""
    K = len(knobs)
    integrality, cons, lb, ub = _programme(knobs, models, anchor, band)
    x = _solve(_cost_vector(K), integrality, cons, lb, ub)
    return None if x is None else tuple(int(round(v)) for v in x[:K])


def minimax(knobs: Sequence[Knob], models: Sequence[Response], anchor: Change) -> tuple[Change, float]:
    """The change minimising the largest predicted distance from 1/N (then the cheapest); that distance."""
    K = len(knobs)
    integrality, cons, lb, ub = _programme(knobs, models, anchor, None)
    c = np.zeros(3 * K + 1)
    c[-1] = 1.0
    x = _solve(c, integrality, cons, lb, ub)
    if x is None:  # cannot happen with finite bounds; keep the anchor
        return anchor, float("inf")
    best = float(x[-1])
    ub2 = ub.copy()
    ub2[-1] = best + 1e-4  # within 0.01 percentage points of the best
    x2 = _solve(_cost_vector(K), integrality, cons, lb, ub2)
    x = x if x2 is None else x2
    return tuple(int(round(v)) for v in x[:K]), best
