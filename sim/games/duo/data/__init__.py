"""Tokaido Duo as data (TOML): ``board.toml`` (the map: ring, routes, zones, start spaces, its
``provenance`` and ``verified`` flag), ``rules.toml`` (number tables and the D-choices D1-D10) and
``bots.toml`` (greedy / search weights); read by ``sim.games.duo.rules`` through ``importlib.resources``.
The shipped board is the INVENTED reconstruction of research expansions.md C.6, ``verified = false``.
No code lives here and nothing is imported.
"""
