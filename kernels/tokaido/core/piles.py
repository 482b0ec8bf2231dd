"""Card piles as ring buffers (records: ``kernels.tokaido.core.state``; the action log: ``kernels.core.log``).

Drawing takes ``deck[d, dtop[d]]``; "under the pile" writes at
``(dtop[d] + dcnt[d]) % DECK_CAP``. Only the engine holds ``hid``.
"""

from numba import njit

from kernels.tokaido.core.enums import DECK_CAP


@njit(cache=True)
def draw_nb(pub, hid, d):
    """Take the top card of pile ``d`` (the caller checks the pile is not empty)."""
    dtop = hid["dtop"]
    top = dtop[d]
    c = hid["deck"][d, top]
    dtop[d] = (top + 1) % DECK_CAP
    pub["dcnt"][d] -= 1
    return c


@njit(cache=True)
def under_nb(pub, hid, d, c):
    """Put card ``c`` under pile ``d``."""
    dcnt = pub["dcnt"]
    hid["deck"][d, (hid["dtop"][d] + dcnt[d]) % DECK_CAP] = c
    dcnt[d] += 1
