"""Card piles as ring buffers, and the action log (records: ``kernels.core.state``).

Drawing takes ``deck[d, dtop[d]]``; "under the pile" writes at
``(dtop[d] + dcnt[d]) % DECK_CAP``. Only the engine holds ``hid``.
"""

from numba import njit

from kernels.core.enums import DECK_CAP


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


@njit(cache=True)
def log_nb(hid, kind, t, a, b, c, d):
    """Append the event (kind, t, a, b, c, d) when logging is on."""
    lg = hid["lg"]
    if lg[1] == 0:
        return
    i = lg[0]
    if i >= hid["log"].shape[0]:  # the log's own length, so the Duo kernels share this function
        lg[2] = 1
        return
    row = hid["log"][i]
    row[0] = kind
    row[1] = t
    row[2] = a
    row[3] = b
    row[4] = c
    row[5] = d
    lg[0] = i + 1
