"""Interval estimates and tests for balance figures: thin wrappers over SciPy and statsmodels.

Every function is vectorised: it takes scalars or arrays of per-group summaries (as
aggregated by polars) and returns float64 arrays of the broadcast shape; ``float()``
turns a 0-d result into a number. Win rates may count shared wins fractionally
(1/k for a k-way tie): the Wilson and binomial formulas accept fractional successes,
and because a shared win varies less than a Bernoulli trial, the binomial variance
they assume is an upper bound (the intervals are a little wide).

The wrappers add what the tables need on top of the libraries: NaN (not an error) for
an empty group, exact 0 and 1 at the edges of a Wilson interval, and NaN p-values left
out of a Holm family.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

FloatArray = npt.NDArray[np.float64]


def _arr(x: npt.ArrayLike) -> FloatArray:
    return np.asarray(x, dtype=np.float64)


# ---------------------------------------------------------------- distributions
def norm_ppf(p: npt.ArrayLike) -> FloatArray:
    """Quantile of the standard normal distribution."""
    return _arr(sps.norm.ppf(_arr(p)))


def norm_sf2(z: npt.ArrayLike) -> FloatArray:
    """Two-sided p-value of a standard normal statistic: P(|Z| >= |z|)."""
    return _arr(2 * sps.norm.sf(np.abs(_arr(z))))


def _df(df: npt.ArrayLike) -> FloatArray:
    d = _arr(df)
    return np.where(d > 0, d, np.nan)  # SciPy would return NaN with a warning; say it plainly


def t_sf2(t: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """Two-sided p-value of a Student t statistic: P(|T_df| >= |t|) (df may be fractional or inf)."""
    return _arr(2 * sps.t.sf(np.abs(_arr(t)), _df(df)))


def t_ppf(p: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """Quantile of Student's t distribution with ``df`` degrees of freedom (may be fractional or inf)."""
    return _arr(sps.t.ppf(_arr(p), _df(df)))


def _z(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be between 0 and 1, got {level}")
    return float(sps.norm.ppf(0.5 + level / 2))


# ---------------------------------------------------------------- proportions
def wilson_interval(
    successes: npt.ArrayLike, n: npt.ArrayLike, level: float = 0.95
) -> tuple[FloatArray, FloatArray]:
    """Wilson score interval for a proportion ``successes / n`` (successes may be fractional)."""
    _z(level)
    x, m = np.broadcast_arrays(_arr(successes), _arr(n))
    ok = m > 0
    safe = np.where(ok, m, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        lo, hi = proportion_confint(np.where(ok, x, 0.0), safe, alpha=1 - level, method="wilson")
    lo = np.where(x <= 0, 0.0, np.clip(lo, 0, 1))  # exact at the edges, not 1e-17 off
    hi = np.where(x >= m, 1.0, np.clip(hi, 0, 1))
    return _arr(np.where(ok, lo, np.nan)), _arr(np.where(ok, hi, np.nan))


class ZResult(NamedTuple):
    statistic: FloatArray  # z (or t) statistic
    p_value: FloatArray  # two-sided


def fair_share_test(successes: npt.ArrayLike, n: npt.ArrayLike, p0: npt.ArrayLike) -> ZResult:
    """Two-sided score test (normal approximation to the binomial) of a win rate against ``p0``.

    The null variance ``p0 (1 - p0) / n`` is used (statsmodels' ``proportions_ztest`` with
    ``prop_var=p0``, vectorised here over groups), so with shared wins the test is conservative.
    """
    x, m, q = _arr(successes), _arr(n), _arr(p0)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (x / m - q) / np.sqrt(q * (1 - q) / m)
    return ZResult(_arr(z), norm_sf2(z))


def binom_test_exact(k: int, n: int, p0: float) -> float:
    """Exact two-sided binomial test (SciPy's ``binomtest``; the rule of R's ``binom.test``)."""
    if not (0 <= k <= n and 0 < p0 < 1):
        raise ValueError(f"need 0 <= k <= n and 0 < p0 < 1, got k={k}, n={n}, p0={p0}")
    return float(sps.binomtest(int(k), int(n), p0).pvalue)


class Diff(NamedTuple):
    diff: FloatArray
    lo: FloatArray
    hi: FloatArray
    p_value: FloatArray


def diff_proportions(
    x1: npt.ArrayLike, n1: npt.ArrayLike, x2: npt.ArrayLike, n2: npt.ArrayLike, level: float = 0.95
) -> Diff:
    """Difference of two independent proportions ``x1/n1 - x2/n2``.

    Interval: Newcombe's hybrid score interval (his method 10, from the two Wilson
    intervals; statsmodels' ``confint_proportions_2indep(method="newcomb")``); p-value: the
    pooled two-proportion z test. An empty side gives NaN.
    """
    _z(level)
    a, na, b, nb = np.broadcast_arrays(_arr(x1), _arr(n1), _arr(x2), _arr(n2))
    ok = (na > 0) & (nb > 0)
    sa, sb = np.where(ok, na, 1.0), np.where(ok, nb, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        lo, hi = confint_proportions_2indep(
            np.where(ok, a, 0.0),
            sa,
            np.where(ok, b, 0.0),
            sb,
            method="newcomb",
            compare="diff",
            alpha=1 - level,
        )
        d = a / na - b / nb
        pool = (a + b) / (na + nb)
        z = d / np.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
    p = norm_sf2(np.where(np.isfinite(z), z, np.where(d == 0, 0.0, z)))
    return Diff(
        _arr(np.where(ok, d, np.nan)),
        _arr(np.where(ok, lo, np.nan)),
        _arr(np.where(ok, hi, np.nan)),
        _arr(np.where(ok, p, np.nan)),
    )


# ---------------------------------------------------------------- means
def mean_interval(
    mean: npt.ArrayLike, sd: npt.ArrayLike, n: npt.ArrayLike, level: float = 0.95, dist: str = "t"
) -> tuple[FloatArray, FloatArray]:
    """Interval for a mean from its summary: Student t with n-1 df (``dist='t'``) or normal."""
    m, s, k = _arr(mean), _arr(sd), _arr(n)
    if dist == "t":
        q = t_ppf(0.5 + level / 2, k - 1)
    elif dist == "normal":
        q = _arr(_z(level))
    else:
        raise ValueError(f"dist must be 't' or 'normal', got '{dist}'")
    with np.errstate(divide="ignore", invalid="ignore"):
        half = q * s / np.sqrt(k)
    return _arr(m - half), _arr(m + half)


# whole numbers per group: an array, or a list of Python ints with None for a missing group (a polars column's
# ``to_list()``, exact where its numpy view turns a column with nulls into floats)
Wholes = npt.ArrayLike | Sequence[int | None]


def _ints(*xs: Wholes) -> tuple[list[list[int | None]], tuple[int, ...]]:
    """Arrays of whole numbers broadcast together, as lists of Python ints (exact at any size; None for a
    missing or NaN entry), and their shape."""
    arrs = np.broadcast_arrays(*(np.asarray(x, dtype=object) for x in xs))

    def whole(v: object) -> int | None:
        return None if v is None or (isinstance(v, float) and math.isnan(v)) else int(v)  # type: ignore[call-overload]

    return [[whole(v) for v in a.ravel().tolist()] for a in arrs], arrs[0].shape


def mean_from_sum(n: Wholes, s1: Wholes, unit: int = 1) -> FloatArray:
    """Mean of whole numbers from their count and exact sum, divided by ``unit`` and rounded once; NaN
    for none."""
    (ns, s1s), shape = _ints(n, s1)
    out = [
        math.nan if k is None or a is None or k < 1 else a / (k * unit) for k, a in zip(ns, s1s, strict=True)
    ]
    return _arr(out).reshape(shape)


def var_from_sums(n: Wholes, s1: Wholes, s2: Wholes, unit: int = 1) -> FloatArray:
    """Sample variance (ddof 1) of whole numbers given their count ``n``, sum ``s1`` and sum of squares
    ``s2`` (per group), divided by ``unit``² (values counted in ``unit``-ths, as win shares in 60ths).

    Computed in exact integer arithmetic and rounded once, so the result is the same to the last bit
    whatever order the rows were summed in; NaN for fewer than two values.
    """
    cols, shape = _ints(n, s1, s2)
    out = []
    for k, a, b in zip(*cols, strict=True):
        if k is None or a is None or b is None or k < 2:
            out.append(math.nan)
        else:
            out.append((k * b - a * a) / (k * (k - 1) * unit * unit))
    return _arr(out).reshape(shape)


def corr_from_sums(
    n: Wholes,
    sx: Wholes,
    sy: Wholes,
    sxx: Wholes,
    syy: Wholes,
    sxy: Wholes,
) -> FloatArray:
    """Pearson correlation of pairs of whole numbers from their count and sums (of x, y, x², y², xy), exact
    up to the last rounding like ``var_from_sums``; NaN for fewer than two pairs or a constant side."""
    cols, shape = _ints(n, sx, sy, sxx, syy, sxy)
    out = []
    for k, a, b, aa, bb, ab in zip(*cols, strict=True):
        if k is None or a is None or b is None or aa is None or bb is None or ab is None or k < 2:
            out.append(math.nan)
            continue
        vx, vy = k * aa - a * a, k * bb - b * b
        out.append((k * ab - a * b) / math.sqrt(vx * vy) if vx > 0 and vy > 0 else math.nan)
    return _arr(out).reshape(shape)


def mean_ci(values: npt.ArrayLike, level: float = 0.95, dist: str = "t") -> tuple[float, float, float]:
    """Mean of a sample with its interval: ``(mean, lo, hi)``."""
    v = _arr(values).ravel()
    sd = float(v.std(ddof=1)) if v.size > 1 else math.nan
    lo, hi = mean_interval(v.mean(), sd, v.size, level, dist)
    return float(v.mean()), float(lo), float(hi)


def diff_means(
    mean1: npt.ArrayLike,
    var1: npt.ArrayLike,
    n1: npt.ArrayLike,
    mean2: npt.ArrayLike,
    var2: npt.ArrayLike,
    n2: npt.ArrayLike,
    level: float = 0.95,
) -> Diff:
    """Unpaired difference ``mean1 - mean2`` of independent samples (Welch's t interval and test).

    The p-value is SciPy's ``ttest_ind_from_stats(equal_var=False)``; with no variance on
    either side the difference is exact (p = 1 if it is 0, else 0); with a side missing
    (NaN summaries) there is no test (NaN).
    """
    m1, v1, k1, m2, v2, k2 = map(_arr, (mean1, var1, n1, mean2, var2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = v1 / k1, v2 / k2
        se = np.sqrt(a + b)
        df = (a + b) ** 2 / (a * a / (k1 - 1) + b * b / (k2 - 1))
        df = np.where(se > 0, df, np.inf)
        d = m1 - m2
        half = t_ppf(0.5 + level / 2, df) * se
        welch = sps.ttest_ind_from_stats(m1, np.sqrt(v1), k1, m2, np.sqrt(v2), k2, equal_var=False).pvalue
    p = np.where(se > 0, welch, np.where(d == 0, 1.0, 0.0))
    p = np.where(np.isnan(se) | np.isnan(d), np.nan, p)  # an empty side or a single row: no test, not p = 0
    return Diff(_arr(d), _arr(d - half), _arr(d + half), _arr(p))


def paired_from_summary(
    n: npt.ArrayLike, mean_d: npt.ArrayLike, var_d: npt.ArrayLike, level: float = 0.95
) -> Diff:
    """Paired difference from the mean and variance of the per-pair differences (one-sample t)."""
    k, m, v = _arr(n), _arr(mean_d), _arr(var_d)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(v / k)
        half = t_ppf(0.5 + level / 2, k - 1) * se
        p = np.where(se > 0, t_sf2(m / se, k - 1), np.where(m == 0, 1.0, 0.0))
    p = np.where(np.isnan(se) | np.isnan(m), np.nan, p)
    return Diff(_arr(m), _arr(m - half), _arr(m + half), _arr(p))


class Paired(NamedTuple):
    n: int
    diff: float  # mean of a - b
    lo: float
    hi: float
    p_value: float
    unpaired_lo: float  # the same rows analysed as two independent samples (Welch)
    unpaired_hi: float
    width_ratio: float  # paired width / unpaired width (< 1: pairing helped)
    correlation: float  # between a and b


def paired_diff(a: npt.ArrayLike, b: npt.ArrayLike, level: float = 0.95) -> Paired:
    """Paired comparison of matched values (common random numbers): ``mean(a - b)``.

    Also analyses the same rows as if unpaired, and reports the ratio of the interval
    widths, which measures how much the pairing narrowed the interval.
    """
    x, y = _arr(a).ravel(), _arr(b).ravel()
    if x.shape != y.shape:
        raise ValueError(f"paired samples need the same length, got {x.size} and {y.size}")
    n = x.size
    d = x - y
    pr = paired_from_summary(n, d.mean(), d.var(ddof=1), level)
    un = diff_means(x.mean(), x.var(ddof=1), n, y.mean(), y.var(ddof=1), n, level)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = float((pr.hi - pr.lo) / (un.hi - un.lo))
        corr = float(sps.pearsonr(x, y).statistic) if x.std() > 0 and y.std() > 0 else math.nan
    return Paired(
        n,
        float(pr.diff),
        float(pr.lo),
        float(pr.hi),
        float(pr.p_value),
        float(un.lo),
        float(un.hi),
        ratio,
        corr,
    )


# ---------------------------------------------------------------- multiplicity
def holm(p_values: npt.ArrayLike, alpha: float = 0.05) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Holm-Bonferroni step-down adjustment (statsmodels' ``multipletests(method="holm")``):
    ``(adjusted p-values, reject flags)``.

    A hypothesis is rejected when its adjusted p-value is <= ``alpha``; this controls the
    family-wise error rate at ``alpha``. NaN p-values stay NaN and do not count in the family.
    """
    p = _arr(p_values)
    flat = p.ravel()
    adj = np.full_like(flat, np.nan)
    ok = ~np.isnan(flat)
    if ok.any():
        adj[ok] = multipletests(flat[ok], alpha=alpha, method="holm")[1]
    shaped = adj.reshape(p.shape)
    return _arr(shaped), np.asarray(np.nan_to_num(shaped, nan=2.0) <= alpha)
