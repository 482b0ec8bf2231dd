"""Tokaido Duo's independent referee, written from the rulebook (seed 003), not from the kernels:
``game`` (``referee_game``: replay a game's log and re-derive every pick and score), ``state`` (the
table and the players as plain objects), ``moves`` (what a pick may legally do).
"""
