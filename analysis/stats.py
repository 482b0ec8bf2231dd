"""Interval estimates and tests for balance figures, in NumPy and ``math`` only (no SciPy).

Every function is vectorised: it takes scalars or arrays of per-group summaries (as
aggregated by polars) and returns float64 arrays of the broadcast shape; ``float()``
turns a 0-d result into a number. Win rates may count shared wins fractionally
(1/k for a k-way tie): the Wilson and binomial formulas below accept fractional
successes, and because a shared win varies less than a Bernoulli trial, the
binomial variance they assume is an upper bound (the intervals are a little wide).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_LARGE_DF = 1e6  # above this many degrees of freedom, Student's t is the normal distribution


def _arr(x: npt.ArrayLike) -> FloatArray:
    return np.asarray(x, dtype=np.float64)


# ---------------------------------------------------------------- distributions
def _norm_ppf_scalar(p: float) -> float:
    """Inverse standard normal CDF (Acklam's rational approximation, one Halley step)."""
    if not 0.0 < p < 1.0:
        return -math.inf if p == 0.0 else math.inf if p == 1.0 else math.nan
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
         1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
         6.680131188771972e01, -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
         -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
    lo = 0.02425
    if p < lo or p > 1 - lo:
        q = math.sqrt(-2 * math.log(p if p < lo else 1 - p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        x = x if p < lo else -x
    else:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (
            ((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p  # Halley refinement to full double precision
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


def norm_ppf(p: npt.ArrayLike) -> FloatArray:
    """Quantile of the standard normal distribution."""
    return _arr(np.vectorize(_norm_ppf_scalar, otypes=[float])(_arr(p)))


def norm_sf2(z: npt.ArrayLike) -> FloatArray:
    """Two-sided p-value of a standard normal statistic: P(|Z| >= |z|)."""
    return _arr(np.vectorize(lambda v: math.erfc(abs(v) / math.sqrt(2)), otypes=[float])(_arr(z)))


def _betainc(a: float, b: float, x: float) -> float:
    """Regularised incomplete beta I_x(a, b) by Lentz's continued fraction."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1.0 - _betainc(b, a, 1.0 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)) / a
    tiny = 1e-300
    f, c, d = 1.0, 1.0, 0.0
    for i in range(20000):
        m = i // 2
        if i == 0:
            num = 1.0
        elif i % 2 == 0:
            num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        else:
            num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        f *= c * d
        if abs(1.0 - c * d) < 1e-15:
            break
    return front * (f - 1.0)


def _t_sf2_scalar(t: float, df: float) -> float:
    if math.isnan(t) or math.isnan(df) or df <= 0:
        return math.nan
    if df > _LARGE_DF:
        return math.erfc(abs(t) / math.sqrt(2))
    return _betainc(df / 2, 0.5, df / (df + t * t))


def t_sf2(t: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """Two-sided p-value of a Student t statistic: P(|T_df| >= |t|)."""
    return _arr(np.vectorize(_t_sf2_scalar, otypes=[float])(_arr(t), _arr(df)))


@lru_cache(maxsize=4096)
def _t_ppf_scalar(p: float, df: float) -> float:
    if math.isnan(p) or math.isnan(df) or df <= 0:
        return math.nan
    z = _norm_ppf_scalar(p)
    if df > _LARGE_DF or math.isinf(z):
        return z
    if df >= 1000:  # Cornish-Fisher expansion, error far below 1e-9 here
        z2 = z * z
        g = (z * (z2 + 1) / 4, z * ((5 * z2 + 16) * z2 + 3) / 96,
             z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384,
             z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160)
        return z + sum(gi / df ** (i + 1) for i, gi in enumerate(g))
    upper = p > 0.5
    target = 2 * (1 - p) if upper else 2 * p  # two-sided tail mass at |t|
    lo, hi = 0.0, 1.0
    while _t_sf2_scalar(hi, df) > target:
        hi *= 2
    for _ in range(200):  # bisection: the tail is monotone in |t|
        mid = (lo + hi) / 2
        if _t_sf2_scalar(mid, df) > target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13 * max(1.0, hi):
            break
    t = (lo + hi) / 2
    return t if upper else -t


def t_ppf(p: npt.ArrayLike, df: npt.ArrayLike) -> FloatArray:
    """Quantile of Student's t distribution with ``df`` degrees of freedom (may be fractional)."""
    return _arr(np.vectorize(lambda q, v: _t_ppf_scalar(float(q), float(v)), otypes=[float])(_arr(p), _arr(df)))


def _z(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"confidence level must be between 0 and 1, got {level}")
    return _norm_ppf_scalar(0.5 + level / 2)


# ---------------------------------------------------------------- proportions
def wilson_interval(successes: npt.ArrayLike, n: npt.ArrayLike, level: float = 0.95) -> tuple[FloatArray, FloatArray]:
    """Wilson score interval for a proportion ``successes / n`` (successes may be fractional)."""
    x, m = _arr(successes), _arr(n)
    z = _z(level)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / m
        denom = 1 + z * z / m
        centre = (p + z * z / (2 * m)) / denom
        half = z / denom * np.sqrt(np.clip(p * (1 - p), 0, None) / m + z * z / (4 * m * m))
    lo = np.where(x <= 0, 0.0, np.clip(centre - half, 0, 1))  # exact at the edges, not 1e-17 off
    hi = np.where(x >= m, 1.0, np.clip(centre + half, 0, 1))
    return _arr(np.where(m > 0, lo, np.nan)), _arr(np.where(m > 0, hi, np.nan))


class ZResult(NamedTuple):
    statistic: FloatArray  # z (or t) statistic
    p_value: FloatArray  # two-sided


def fair_share_test(successes: npt.ArrayLike, n: npt.ArrayLike, p0: npt.ArrayLike) -> ZResult:
    """Two-sided score test (normal approximation to the binomial) of a win rate against ``p0``.

    The null variance ``p0 (1 - p0) / n`` is used, so with shared wins the test is conservative.
    """
    x, m, q = _arr(successes), _arr(n), _arr(p0)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (x / m - q) / np.sqrt(q * (1 - q) / m)
    return ZResult(_arr(z), norm_sf2(z))


def binom_test_exact(k: int, n: int, p0: float) -> float:
    """Exact two-sided binomial test (the 'minimum likelihood' rule of R's ``binom.test``)."""
    if not (0 <= k <= n and 0 < p0 < 1):
        raise ValueError(f"need 0 <= k <= n and 0 < p0 < 1, got k={k}, n={n}, p0={p0}")
    x = np.arange(n + 1, dtype=np.float64)
    steps = np.log((n - x[:-1]) / (x[:-1] + 1)) + math.log(p0 / (1 - p0))
    logpmf = np.concatenate([[n * math.log1p(-p0)], n * math.log1p(-p0) + np.cumsum(steps)])
    pmf = np.exp(logpmf - logpmf.max())
    total = pmf.sum()
    return float(min(1.0, pmf[pmf <= pmf[k] * (1 + 1e-7)].sum() / total))


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
    intervals); p-value: the pooled two-proportion z test.
    """
    a, na, b, nb = _arr(x1), _arr(n1), _arr(x2), _arr(n2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p1, p2 = a / na, b / nb
        l1, u1 = wilson_interval(a, na, level)
        l2, u2 = wilson_interval(b, nb, level)
        d = p1 - p2
        lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
        hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
        pool = (a + b) / (na + nb)
        z = d / np.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
    return Diff(_arr(d), _arr(lo), _arr(hi), norm_sf2(np.where(np.isfinite(z), z, np.where(d == 0, 0.0, z))))


# ---------------------------------------------------------------- means
def mean_interval(
    mean: npt.ArrayLike, sd: npt.ArrayLike, n: npt.ArrayLike, level: float = 0.95, dist: str = "t"
) -> tuple[FloatArray, FloatArray]:
    """Interval for a mean from its summary: Student t with n-1 df (``dist='t'``) or normal."""
    m, s, k = _arr(mean), _arr(sd), _arr(n)
    if dist == "t":
        q = t_ppf(0.5 + level / 2, np.where(k > 1, k - 1, np.nan))
    elif dist == "normal":
        q = _arr(_z(level))
    else:
        raise ValueError(f"dist must be 't' or 'normal', got '{dist}'")
    with np.errstate(divide="ignore", invalid="ignore"):
        half = q * s / np.sqrt(k)
    return _arr(m - half), _arr(m + half)


def mean_ci(values: npt.ArrayLike, level: float = 0.95, dist: str = "t") -> tuple[float, float, float]:
    """Mean of a sample with its interval: ``(mean, lo, hi)``."""
    v = _arr(values).ravel()
    sd = float(v.std(ddof=1)) if v.size > 1 else math.nan
    lo, hi = mean_interval(v.mean(), sd, v.size, level, dist)
    return float(v.mean()), float(lo), float(hi)


def diff_means(
    mean1: npt.ArrayLike, var1: npt.ArrayLike, n1: npt.ArrayLike,
    mean2: npt.ArrayLike, var2: npt.ArrayLike, n2: npt.ArrayLike, level: float = 0.95,
) -> Diff:
    """Unpaired difference ``mean1 - mean2`` of independent samples (Welch's t interval and test)."""
    m1, v1, k1, m2, v2, k2 = map(_arr, (mean1, var1, n1, mean2, var2, n2))
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = v1 / k1, v2 / k2
        se = np.sqrt(a + b)
        df = (a + b) ** 2 / (a * a / (k1 - 1) + b * b / (k2 - 1))
        df = np.where(se > 0, df, np.inf)
        d = m1 - m2
        half = t_ppf(0.5 + level / 2, df) * se
        p = np.where(se > 0, t_sf2(d / se, df), np.where(d == 0, 1.0, 0.0))
    return Diff(_arr(d), _arr(d - half), _arr(d + half), _arr(p))


def paired_from_summary(n: npt.ArrayLike, mean_d: npt.ArrayLike, var_d: npt.ArrayLike, level: float = 0.95) -> Diff:
    """Paired difference from the mean and variance of the per-pair differences (one-sample t)."""
    k, m, v = _arr(n), _arr(mean_d), _arr(var_d)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(v / k)
        df = np.where(k > 1, k - 1, np.nan)
        half = t_ppf(0.5 + level / 2, df) * se
        p = np.where(se > 0, t_sf2(m / se, df), np.where(m == 0, 1.0, 0.0))
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
        corr = float(np.corrcoef(x, y)[0, 1]) if x.std() > 0 and y.std() > 0 else math.nan
    return Paired(n, float(pr.diff), float(pr.lo), float(pr.hi), float(pr.p_value),
                  float(un.lo), float(un.hi), ratio, corr)


# ---------------------------------------------------------------- multiplicity
def holm(p_values: npt.ArrayLike, alpha: float = 0.05) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Holm-Bonferroni step-down adjustment: ``(adjusted p-values, reject flags)``.

    A hypothesis is rejected when its adjusted p-value is <= ``alpha``; this controls the
    family-wise error rate at ``alpha``. NaN p-values stay NaN and do not count in the family.
    """
    p = _arr(p_values)
    flat = p.ravel()
    adj = np.full_like(flat, np.nan)
    ok = np.flatnonzero(~np.isnan(flat))
    m = ok.size
    if m:
        order = ok[np.argsort(flat[ok], kind="stable")]
        scaled = (m - np.arange(m)) * flat[order]
        adj[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    shaped = adj.reshape(p.shape)
    return _arr(shaped), np.asarray(np.nan_to_num(shaped, nan=2.0) <= alpha)
