"""Tokaido Duo's independent referee, written from the rulebook (seed 003), not from the kernels:
``game`` (``referee_game``: replay a game's log and re-derive every pick and score; the ``Referee``
composed of the parts below), ``state`` (the table and the players as plain objects), ``automa`` (the
solo Automa's rules), ``moves`` (what a pick may legally do).
"""
