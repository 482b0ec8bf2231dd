"""The game engine: what a stop does (``stations``: villages, farms, temples, Inns; ``encounters``:
the Encounter, panorama and free cards drawn there),
Crossroads' additions (``crossroads``: markets, alternatives, Amulets, the Fortune die) and the turn
structure (``turn``: set-up, one move, the end scoring, result records).

Every choice is asked of a policy in ``kernels.tokaido.bots.policy``; the move itself is chosen by the driver
(``kernels.tokaido.play``), so the engine never knows the search bot.
May import: ``kernels.core``, ``kernels.tokaido.bots``.
"""
