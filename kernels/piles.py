"""Card piles as ring buffers, and the action log.

``deck`` int16[N_DECKS, DECK_CAP]: card ids; ``dk`` int32[2, N_DECKS]: row 0 the
index of each pile's top card, row 1 the number of cards left.
``log`` int16[MAX_EVENTS, 6]: rows (kind, t, a, b, c, d); ``gs[G.LOG_N]`` rows used.
"""

from numba import njit

from kernels.enums import DECK_CAP, EV_FIELDS, MAX_EVENTS, G


@njit(cache=True)
def draw_nb(deck, dk, d):
    """Take the top card of pile ``d`` (the caller checks the pile is not empty)."""
    top = dk[0, d]
    c = deck[d, top]
    dk[0, d] = (top + 1) % DECK_CAP
    dk[1, d] -= 1
    return c


@njit(cache=True)
def under_nb(deck, dk, d, c):
    """Put card ``c`` under pile ``d``."""
    deck[d, (dk[0, d] + dk[1, d]) % DECK_CAP] = c
    dk[1, d] += 1


@njit(cache=True)
def log_nb(log, gs, kind, t, a, b, c, d):
    if gs[G.LOG_ON] == 0:
        return
    i = gs[G.LOG_N]
    if i >= MAX_EVENTS:
        gs[G.OVERFLOW] = 1
        return
    log[i, 0] = kind
    log[i, 1] = t
    log[i, 2] = a
    log[i, 3] = b
    log[i, 4] = c
    if EV_FIELDS > 5:
        log[i, 5] = d
    gs[G.LOG_N] = i + 1
