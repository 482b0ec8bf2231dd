"""The action log every game's kernels write: ``log_nb`` appends one event row to ``hid["log"]``.

``hid["lg"]`` holds (rows written, logging on, overflowed): a full log sets the flag and drops the event,
so the caller can raise instead of returning a short log. The log's own length bounds it, so Tokaido and
Duo share this function.
"""

from numba import njit


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
