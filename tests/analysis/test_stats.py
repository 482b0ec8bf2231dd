"""analysis.stats against published and hand-computed values, plus property tests."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis import stats
from analysis.load import WIN_UNITS, exact_sums, win_sum


# ---------------------------------------------------------------- distributions
@pytest.mark.parametrize(
    ("p", "expected"),
    [
        (0.975, 1.959963984540054),
        (0.5, 0.0),
        (0.995, 2.5758293035489),
        (0.025, -1.959963984540054),
        (1e-10, -6.361340902404056),
    ],
)
def test_norm_ppf_known_values(p: float, expected: float) -> None:
    assert float(stats.norm_ppf(p)) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("p", "df", "expected"),  # tables of Student's t
    [
        (0.975, 1, 12.706204736),
        (0.975, 2, 4.302652730),
        (0.975, 3, 3.182446305),
        (0.975, 10, 2.228138852),
        (0.995, 5, 4.032142984),
        (0.975, 30, 2.042272456),
        (0.975, 1000, 1.962339081),
        (0.025, 3, -3.182446305),
        (0.975, 1e8, 1.959963985),
    ],
)
def test_t_ppf_known_values(p: float, df: float, expected: float) -> None:
    assert float(stats.t_ppf(p, df)) == pytest.approx(expected, abs=1e-6)


def test_t_sf2_known_values() -> None:
    assert float(stats.t_sf2(2.0, 3)) == pytest.approx(0.139326, abs=1e-6)
    assert float(stats.t_sf2(12.706204736, 1)) == pytest.approx(0.05, abs=1e-9)
    assert float(stats.norm_sf2(1.959963984540054)) == pytest.approx(0.05, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.51, 0.9999), st.floats(1.0, 5000.0))
def test_t_ppf_inverts_t_sf2(p: float, df: float) -> None:
    t = float(stats.t_ppf(p, df))
    assert t > 0
    assert float(stats.t_sf2(t, df)) == pytest.approx(2 * (1 - p), rel=1e-6, abs=1e-12)


# ---------------------------------------------------------------- proportions
def test_wilson_known_value() -> None:
    lo, hi = stats.wilson_interval(81, 263)
    assert (float(lo), float(hi)) == pytest.approx((0.2553, 0.3662), abs=5e-5)


def test_wilson_is_vectorised_and_handles_the_edges() -> None:
    lo, hi = stats.wilson_interval([0, 10, 81], [10, 10, 263])
    assert lo.shape == (3,)
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert 0 < hi[0] < 0.35 and 0.65 < lo[1] < 1
    lo99, hi99 = stats.wilson_interval(81, 263, level=0.99)
    assert lo99 < lo[2] and hi99 > hi[2]


def test_wilson_rejects_a_bad_level() -> None:
    with pytest.raises(ValueError, match="confidence level"):
        stats.wilson_interval(1, 2, level=95)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10**7), st.floats(0, 1), st.floats(0.5, 0.999))
def test_wilson_bounds_are_in_0_1_and_contain_the_estimate(n: int, share: float, level: float) -> None:
    x = share * n  # fractional successes (shared wins) are allowed
    lo, hi = stats.wilson_interval(x, n, level)
    assert 0.0 <= float(lo) <= x / n + 1e-12
    assert x / n - 1e-12 <= float(hi) <= 1.0


def test_fair_share_test_hand_computed() -> None:
    # 30 wins in 100 games against 1/4: z = 0.05 / sqrt(0.1875 / 100) = 1.1547, p = 0.2482
    r = stats.fair_share_test(30, 100, 0.25)
    assert float(r.statistic) == pytest.approx(1.154701, abs=1e-6)
    assert float(r.p_value) == pytest.approx(0.248213, abs=1e-6)
    assert float(stats.fair_share_test(25, 100, 0.25).p_value) == pytest.approx(1.0)


def test_binom_test_exact_matches_r() -> None:
    assert stats.binom_test_exact(682, 925, 0.75) == pytest.approx(
        0.3825, abs=5e-5
    )  # R: binom.test(682, 925, 3/4)
    assert stats.binom_test_exact(7, 20, 0.5) == pytest.approx(0.2632, abs=5e-5)  # R: binom.test(7, 20)
    assert stats.binom_test_exact(10, 20, 0.5) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        stats.binom_test_exact(5, 4, 0.5)


def test_diff_proportions_newcombe_example() -> None:
    # Newcombe (1998), 56/70 vs 48/80: difference 0.2, hybrid score interval (0.0524, 0.3339)
    d = stats.diff_proportions(56, 70, 48, 80)
    assert float(d.diff) == pytest.approx(0.2)
    assert (float(d.lo), float(d.hi)) == pytest.approx((0.0524, 0.3339), abs=5e-5)
    assert float(d.p_value) == pytest.approx(0.00805, abs=5e-5)  # pooled z = 2.650


# ---------------------------------------------------------------- means and pairs
def test_mean_ci_hand_computed() -> None:
    # 1, 2, 3, 4: mean 2.5, sd 1.29099, t(0.975, 3) = 3.182446 -> half width 2.054260
    m, lo, hi = stats.mean_ci([1, 2, 3, 4])
    assert (m, lo, hi) == pytest.approx((2.5, 0.445740, 4.554260), abs=1e-6)
    lo_n, hi_n = stats.mean_interval(2.5, 1.2909944, 4, dist="normal")
    assert float(hi_n - lo_n) == pytest.approx(2 * 1.959964 * 1.2909944 / 2, abs=1e-6)
    with pytest.raises(ValueError):
        stats.mean_interval(1, 1, 2, dist="cauchy")


def test_paired_diff_hand_computed() -> None:
    # a - b = 1, 0, 1, 2: mean 1, sd sqrt(2/3), se 0.408248, t(0.975, 3) = 3.182446 -> +-1.299228.
    # Unpaired (Welch): both variances 5/3, se 0.912871, df 6, t = 2.446912 -> +-2.233715.
    r = stats.paired_diff([3, 5, 4, 6], [2, 5, 3, 4])
    assert r.n == 4
    assert (r.diff, r.lo, r.hi) == pytest.approx((1.0, -0.299228, 2.299228), abs=1e-6)
    assert (r.unpaired_lo, r.unpaired_hi) == pytest.approx((-1.233715, 3.233715), abs=1e-6)
    assert r.width_ratio == pytest.approx(1.299228 / 2.233715, abs=1e-6)
    assert r.p_value == pytest.approx(0.091721, abs=1e-6)  # t = 2.449490 on 3 df
    assert r.correlation == pytest.approx(0.8)
    un = stats.diff_means(4.5, 5 / 3, 4, 3.5, 5 / 3, 4)
    assert (float(un.lo), float(un.hi)) == pytest.approx((r.unpaired_lo, r.unpaired_hi))


def test_paired_diff_rejects_unequal_lengths() -> None:
    with pytest.raises(ValueError, match="same length"):
        stats.paired_diff([1, 2], [1, 2, 3])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 120), min_size=3, max_size=60), st.integers(-5, 5))
def test_pairing_a_constant_shift_gives_an_exact_interval(base: list[int], shift: int) -> None:
    a = np.array(base, dtype=float)
    if a.std() == 0:
        return
    r = stats.paired_diff(a + shift, a)
    assert r.diff == pytest.approx(shift)
    assert r.lo == pytest.approx(shift) and r.hi == pytest.approx(shift)
    assert r.width_ratio == pytest.approx(0.0, abs=1e-9)
    assert r.unpaired_lo <= shift <= r.unpaired_hi


# ---------------------------------------------------------------- multiplicity
def test_holm_textbook_example() -> None:
    # Wikipedia's example: four tests at alpha 0.05, p = 0.01, 0.04, 0.03, 0.005 -> reject H1 and H4
    adj, reject = stats.holm([0.01, 0.04, 0.03, 0.005])
    assert adj == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert reject.tolist() == [True, False, False, True]


def test_holm_step_down_and_nan() -> None:
    adj, reject = stats.holm([0.01, 0.02, 0.03, 0.04, 0.05])
    assert adj == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])
    assert reject.tolist() == [True, False, False, False, False]
    adj, reject = stats.holm([0.01, math.nan, 0.04])
    assert adj[0] == pytest.approx(0.02) and math.isnan(adj[1]) and adj[2] == pytest.approx(0.04)
    assert reject.tolist() == [True, False, True]
    adj, reject = stats.holm([])
    assert adj.size == 0 and reject.size == 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=1, max_size=40))
def test_holm_properties(ps: list[float]) -> None:
    p = np.array(ps)
    adj, reject = stats.holm(p)
    m = p.size
    assert np.all(adj >= p - 1e-15) and np.all(adj <= 1.0)
    assert np.all(adj <= np.minimum(1.0, m * p) + 1e-12)  # never worse than Bonferroni
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adj[order]) >= -1e-15)  # monotone in the raw p-values
    assert reject.tolist() == (adj <= 0.05).tolist()


def test_a_missing_side_gives_no_test_not_p_zero() -> None:
    # a figure with rows on one side only (NaN summaries on the other) must not look significant
    d = stats.diff_means([1.0, 1.0], [0.5, np.nan], [100, 1], [np.nan, 2.0], [np.nan, 0.5], [0, 100])
    assert np.isnan(d.p_value).all() and np.isnan(d.diff[0])
    p = stats.paired_from_summary([np.nan, 1], [np.nan, 0.5], [np.nan, np.nan])
    assert np.isnan(p.p_value).all()
    assert np.isnan(stats.diff_proportions(1, 0, 1, 2).p_value)
    # no variance on either side: the difference is exact
    assert stats.diff_means(2.0, 0.0, 5, 1.0, 0.0, 5).p_value == 0.0
    assert stats.diff_means(2.0, 0.0, 5, 2.0, 0.0, 5).p_value == 1.0


def test_the_wrappers_agree_with_the_libraries() -> None:
    from scipy import stats as sps

    welch = sps.ttest_ind([1, 2, 3, 4, 9], [2, 2, 5, 7], equal_var=False)
    a, b = np.array([1, 2, 3, 4, 9.0]), np.array([2, 2, 5, 7.0])
    d = stats.diff_means(a.mean(), a.var(ddof=1), 5, b.mean(), b.var(ddof=1), 4)
    assert float(d.p_value) == pytest.approx(welch.pvalue)
    ci = welch.confidence_interval(0.95)
    assert (float(d.lo), float(d.hi)) == pytest.approx((ci.low, ci.high))


# ---------------------------------------------------------------- win totals
@given(
    st.lists(st.sampled_from([0.0, 1.0, 1 / 2, 1 / 3, 1 / 4, 1 / 5]), min_size=1, max_size=300),
    st.randoms(use_true_random=False),
)
@settings(max_examples=60, deadline=None)
def test_win_sum_is_exact_whatever_the_row_order(shares: list[float], rng: random.Random) -> None:
    # a float sum of 1/3s and 1/5s changes in the last bit with the order of the rows (the cluster
    # and the in-process run once disagreed that way); the sum of whole 60ths cannot
    shuffled = shares[:]
    rng.shuffle(shuffled)
    exact = sum(Fraction(round(s * WIN_UNITS), WIN_UNITS) for s in shares)
    for rows in (shares, shuffled):
        got = pl.DataFrame({"win": rows}).select(win_sum()).item()
        assert got == float(exact)


# ---------------------------------------------------------------- moments from exact sums
@given(
    st.lists(st.tuples(st.integers(-200, 200), st.integers(0, 60)), min_size=2, max_size=300),
    st.randoms(use_true_random=False),
)
@settings(max_examples=60, deadline=None)
def test_moments_from_exact_sums_are_exact_whatever_the_row_order(
    pairs: list[tuple[int, int]], rng: random.Random
) -> None:
    # polars' float var and corr change in their last digits with the order of the rows (threads, part
    # files); from integer sums they are the exact value rounded once, for any order
    shuffled = pairs[:]
    rng.shuffle(shuffled)
    n = len(pairs)
    x = [Fraction(a) for a, _ in pairs]
    y = [Fraction(b, WIN_UNITS) for _, b in pairs]
    mx, my = sum(x) / n, sum(y) / n
    var_x = sum((v - mx) ** 2 for v in x) / (n - 1)
    var_y = sum((v - my) ** 2 for v in y) / (n - 1)
    for rows in (pairs, shuffled):
        df = pl.DataFrame({"x": [a for a, _ in rows], "y": [b for _, b in rows]}).select(
            *exact_sums(pl.col("x"), "x"),
            *exact_sums(pl.col("y"), "y"),
            (pl.col("x").cast(pl.Int64) * pl.col("y")).sum().alias("xy"),
        )
        r = df.row(0, named=True)
        assert float(stats.mean_from_sum(n, r["y_s1"], WIN_UNITS)) == float(my)
        assert float(stats.var_from_sums(n, r["x_s1"], r["x_s2"])) == float(var_x)
        assert float(stats.var_from_sums(n, r["y_s1"], r["y_s2"], WIN_UNITS)) == float(var_y)
        corr = stats.corr_from_sums(n, r["x_s1"], r["y_s1"], r["x_s2"], r["y_s2"], r["xy"])
        xs, ys = np.array([a for a, _ in rows], float), np.array([b for _, b in rows], float)
        if var_x and var_y:
            assert float(corr) == pytest.approx(float(np.corrcoef(xs, ys)[0, 1]), rel=1e-9, abs=1e-12)
        else:
            assert math.isnan(float(corr))


def test_moments_from_sums_need_two_values() -> None:
    assert math.isnan(float(stats.var_from_sums(1, 5, 25)))
    assert math.isnan(float(stats.corr_from_sums(1, 1, 1, 1, 1, 1)))
    assert np.isnan(stats.mean_from_sum([None], [None])).all()
