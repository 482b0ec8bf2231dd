"""Did Tokaido Duo's behaviour move? Its golden games (``golden``) and playthroughs (``playthrough``),
stored, compared and written by ``sim.checks`` as every game's are.
"""
