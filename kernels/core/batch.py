"""What every game's batch kernel promises its caller (``sim.run.game.play_batch``).

A batch kernel plays games ``start .. start+count-1`` of a seed, game ``i`` from ``(seed, i)``
only, into preallocated arrays. ``nlog[i]`` holds ``UNFINISHED`` until game ``i`` ends, then its
action-log length (the caller counts finished games from it while the call runs: progress).
A kernel with a stop flag ends the games in flight when another thread sets ``stop[0] = 1``;
those keep ``UNFINISHED``.
"""

UNFINISHED = -2  # ``nlog`` of a game not finished (stopped, or not played yet)
