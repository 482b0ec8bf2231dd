"""Working on the bots from Python: weight tuning by self-play (``tune``, ``sweep``), the Elo ladder of
the tiers (``ladder``, ``duel``), the draft tables (``draft``), the search's Inn evaluation
(``search_fit``) and whether two tiers rank the Travelers alike (``agreement``, ``seatgain``).
The bots themselves are kernels (``kernels.tokaido.bots``, ``kernels.tokaido.search``).

May import: ``kernels``, ``sim.games.tokaido.rules``, ``sim.run``, ``sim.errors``.
"""
