"""Did behaviour move? The checks every game shares: golden games (``golden``: seeded games whose
whole outcome is committed, compared event by event) and playthroughs (``playthrough``: readable
traces of whole games). Each game's plug-in says what to play (``sim.games.<name>.checks``).

May import: ``sim.errors``, ``sim.run``; never a game.
"""
