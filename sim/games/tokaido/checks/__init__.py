"""Did Tokaido's behaviour or balance move? Its golden games (``golden``), playthroughs
(``playthrough``), and statistical baselines (``statcheck``, with the sequential test ``sequential``
and the games a tolerance needs, ``power``). ``sim.checks`` stores and compares the golden games and
writes the playthroughs of every game alike.
"""
