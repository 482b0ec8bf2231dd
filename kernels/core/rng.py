"""Per-game random streams: splitmix64 over a one-element uint64 state array.

Each game seeds its own stream from (master seed, game index), so a game can
be replayed alone and results do not depend on threads or chunking.
State: ``rng`` uint64[1]. Pure-Python mode (NUMBA_DISABLE_JIT=1) computes the
same numbers; numpy may warn about the intended uint64 wrap-around, which the
wrappers silence.
"""

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S33 = np.uint64(33)


@njit(cache=True)
def mix64_nb(z):
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def seed_game_nb(rng, seed, game):
    """Derive game ``game``'s stream from the master ``seed`` (both >= 0)."""
    rng[0] = mix64_nb(np.uint64(seed) ^ mix64_nb(np.uint64(game) + _GOLDEN))


@njit(cache=True)
def next_u64_nb(rng):
    rng[0] = rng[0] + _GOLDEN
    return mix64_nb(rng[0])


@njit(cache=True)
def randint_nb(rng, n):
    """Uniform integer in [0, n); n < 2**31, so the modulo bias is below 1e-9."""
    return np.int64(next_u64_nb(rng) >> _S33) % n


@njit(cache=True)
def shuffle_nb(a, n, rng):
    """Fisher-Yates shuffle of a[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = randint_nb(rng, i + 1)
        tmp = a[i]
        a[i] = a[j]
        a[j] = tmp
