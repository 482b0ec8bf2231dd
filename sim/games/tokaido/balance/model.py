"""The response of win rates to the knobs, and the integer programme that proposes candidates.

Model, per player count, fitted by weighted least squares (``scipy.optimize.lsq_linear``) to every
candidate evaluated so far: Traveler t's win rate is ``a_t + sum_k J[t, k] x_k``. A Traveler's own
coins move its win rate by ``s_u >= 0`` per coin; what it gains, the others lose, spread evenly
(under random assignment, ``-s_u / (T - 1)`` each, so the win rates keep summing to T/N). Any
other knob gets a free column of effects. Predictions are anchored at the best measured candidate
``x0``: ``w(x) = w_measured(x0) + J (x - x0)``, so the model only has to be right locally and each
measured candidate corrects it (a trust-region flavoured Newton step).

Proposal: an integer programme (HiGHS through ``scipy.optimize.milp``) in two stages. First the
least total *excess*: how far predicted win rates lie beyond ``1/N +- band``, summed over Travelers
and player counts (zero when the band can be met). Then, within that excess, the cheapest change:
``(K + 1) * sum |x_k| + #(x_k != 0)``, total moved first, then knobs touched. When the band cannot
be met, the first stage brings in every Traveler that can be brought in, and those left outside
are the ones the knobs cannot fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, lsq_linear, milp

from sim.games.tokaido.balance.evaluate import Tally
from sim.games.tokaido.balance.knobs import Change, Knob


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


def fit(
    knobs: Sequence[Knob],
    travelers: Sequence[str],
    data: Sequence[tuple[Change, Tally]],
    anchor: tuple[Change, Tally],
) -> Response:
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
    lo[T : T + K] = [0.0 if c >= 0 else -np.inf for c in coin]  # more coins never hurt their owner
    sol = lsq_linear(A * w[:, None], y * w, bounds=(lo, np.full(n_par, np.inf)), method="bvls").x
    jac = np.zeros((T, K))
    for k in range(K):
        if coin[k] >= 0:
            jac[:, k] = -sol[T + k] / max(T - 1, 1)
            jac[coin[k], k] = sol[T + k]
    for j, k in enumerate(extra):
        jac[:, k] = sol[T + K + j * T : T + K + (j + 1) * T]
    a_tally = anchor[1]
    seen = a_tally.judged  # the target binds the Travelers judged (--only) that were played
    return Response(a_tally.n_players, jac, np.where(a_tally.seats > 0, a_tally.rate, 0.0), seen)


@dataclass(frozen=True)
class Proposal:
    """A proposed change and what the model predicts of it."""

    change: Change
    excess: float  # total predicted distance beyond the band, summed over Travelers and player counts
    short: list[tuple[str, int, float]]  # (Traveler, players, predicted distance from 1/N) beyond the band

    @property
    def feasible(self) -> bool:
        return self.excess <= TOL


TOL = 1e-6  # excess below this (a fraction) counts as none


def _programme(
    knobs: Sequence[Knob], models: Sequence[Response], anchor: Change, band: float, exclude: Sequence[Change]
) -> tuple[np.ndarray, list[LinearConstraint], np.ndarray, np.ndarray, int]:
    """The integer programme; its columns, in order:

    ``x`` (K, integer), ``a = |x|`` (K), ``z = [x != 0]`` (K, binary), ``e >= 0`` (one per Traveler and
    player count: its predicted distance beyond the band), and for every excluded change ``r`` two
    binaries per knob that, when set, force ``x_k <= r_k - 1`` or ``x_k >= r_k + 1``; at least one is set.
    """
    K, P = len(knobs), len(exclude)
    R = sum(int(m.seen.sum()) for m in models)
    X, A, Z, E, B = 0, K, 2 * K, 3 * K, 3 * K + R
    nv = B + 2 * K * P
    lo = np.array([k.lo for k in knobs], float)
    hi = np.array([k.hi for k in knobs], float)
    big = np.maximum(np.maximum(-lo, hi), 1)
    cons = []

    def rows(n: int) -> np.ndarray:
        return np.zeros((n, nv))

    eye = np.eye(K)
    for sign in (1.0, -1.0):  # a >= x and a >= -x
        m_ = rows(K)
        m_[:, X : X + K], m_[:, A : A + K] = sign * eye, -eye
        cons.append(LinearConstraint(m_, -np.inf, 0))
    m_ = rows(K)
    m_[:, A : A + K], m_[:, Z : Z + K] = eye, -np.diag(big)  # a > 0 only if z = 1
    cons.append(LinearConstraint(m_, -np.inf, 0))
    row = 0
    for m in models:
        J = m.jac[m.seen]
        c = (m.anchor - m.jac @ np.asarray(anchor, float))[m.seen]  # prediction = c + J x
        r = J.shape[0]
        for sign in (1.0, -1.0):  # sign * (c + J x - fair) <= band + e
            m_ = rows(r)
            m_[:, X : X + K], m_[:, E + row : E + row + r] = sign * J, -np.eye(r)
            cons.append(LinearConstraint(m_, -np.inf, band - sign * (c - m.fair)))
        row += r
    for p, point in enumerate(exclude):
        q = np.asarray(point, float)
        down, up = B + 2 * K * p, B + 2 * K * p + K
        m_ = rows(K)  # x_k + (hi_k - q_k + 1) b_down <= hi_k
        m_[:, X : X + K], m_[:, down : down + K] = eye, np.diag(hi - q + 1)
        cons.append(LinearConstraint(m_, -np.inf, hi))
        m_ = rows(K)  # x_k - (q_k + 1 - lo_k) b_up >= lo_k
        m_[:, X : X + K], m_[:, up : up + K] = eye, -np.diag(q + 1 - lo)
        cons.append(LinearConstraint(m_, lo, np.inf))
        m_ = rows(1)
        m_[0, down : down + 2 * K] = 1.0
        cons.append(LinearConstraint(m_, 1, np.inf))
    lb = np.concatenate([lo, np.zeros(nv - K)])
    ub = np.concatenate([hi, big, np.ones(K), np.full(R, np.inf), np.ones(2 * K * P)])
    integrality = np.concatenate([np.ones(K), np.zeros(K), np.ones(K), np.zeros(R), np.ones(2 * K * P)])
    return integrality, cons, lb, ub, R


def _solve(
    c: np.ndarray, integrality: np.ndarray, cons: list[LinearConstraint], lb: np.ndarray, ub: np.ndarray
) -> np.ndarray | None:
    res = milp(
        c, integrality=integrality, bounds=Bounds(lb, ub), constraints=cons, options={"time_limit": 30}
    )
    return None if res.x is None else np.asarray(res.x)


def propose(
    knobs: Sequence[Knob],
    models: Sequence[Response],
    anchor: Change,
    band: float,
    travelers: Sequence[str] = (),
    exclude: Sequence[Change] = (),
) -> Proposal | None:
    """The integer change predicted closest to the band (least total excess), and of those the cheapest.

    With no excess every Traveler is predicted within ``band`` of 1/N; the cheapest such change is
    the one of fewest units moved in total, then fewest knobs touched (weights K + 1 and 1).
    Changes in ``exclude`` are never proposed (None if nothing else is left).
    """
    K = len(knobs)
    integrality, cons, lb, ub, R = _programme(knobs, models, anchor, band, exclude)
    nv = len(lb)
    excess_of = np.zeros(nv)
    excess_of[3 * K : 3 * K + R] = 1.0
    first = _solve(excess_of, integrality, cons, lb, ub)
    if first is None:
        return None
    excess = float(first[3 * K : 3 * K + R].sum())
    # then the cheapest change within (almost) that excess
    cap = LinearConstraint(excess_of[None, :], -np.inf, excess + TOL)
    cost = np.zeros(nv)
    cost[K : 2 * K], cost[2 * K : 3 * K] = K + 1.0, 1.0
    x = _solve(cost, integrality, [*cons, cap], lb, ub)
    x = first if x is None else x
    change = tuple(int(round(v)) for v in x[:K])
    short = []
    for m in models:
        pred = m.predict(change, anchor)
        for t in np.flatnonzero(m.seen & (np.abs(pred - m.fair) > band + TOL)):
            short.append((travelers[int(t)] if travelers else str(t), m.n_players, float(pred[t] - m.fair)))
    return Proposal(change, float(x[3 * K : 3 * K + R].sum()), short)


def diagnose(
    knobs: Sequence[Knob], models: Sequence[Response], anchor: Change, band: float, travelers: Sequence[str]
) -> list[str]:
    """Why the band cannot be met: each Traveler whose own coins, alone, cannot bring it in, and why.

    Three reasons: its win rate hardly moves with coins; the limit (``--max-change``, or 0 coins)
    comes first; one coin moves it by more than the band is wide, so whole coins step over the band
    (or no one coin count suits every player count). A Traveler not named could be fixed alone.
    """
    out = []
    for j, k in enumerate(knobs):
        if k.traveler is None:
            continue
        t = travelers.index(k.traveler)
        xs = range(k.lo, k.hi + 1)
        fits = set(xs)
        why = ""
        for m in (m for m in models if m.seen[t]):
            slope = float(m.jac[t, j])
            dev = {x: float(m.anchor[t] + slope * (x - anchor[j]) - m.fair) for x in xs}
            fits &= {x for x, d in dev.items() if abs(d) <= band + TOL}
            x = min(xs, key=lambda x: (abs(dev[x]), abs(x)))
            d = dev[x]
            if abs(d) <= band + TOL or why:
                continue
            if abs(slope) * (k.hi - k.lo) < band:
                why = f"its win rate hardly moves with coins: {100 * d:+.1f} pp from fair at {m.n_players} players"
            elif x in (k.lo, k.hi) and (d > 0) == (x == k.lo):
                why = f"even at {x:+d} coins (the limit) it is {100 * d:+.1f} pp from fair at {m.n_players} players"
            else:
                why = (
                    f"one coin moves it {100 * slope:.1f} pp, more than the band is wide: at {x:+d} coins it "
                    f"is "
                    f"{100 * d:+.1f} pp from fair at {m.n_players} players"
                )
        if not why and not fits:
            why = "no one coin count suits every player count"
        if why:
            slopes = ", ".join(f"{100 * m.jac[t, j]:.1f}" for m in models)
            out.append(f"{k.traveler}: {why} (fitted {slopes} pp per coin)")
    return out
