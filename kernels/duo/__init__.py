"""Numba kernels of Tokaido Duo (seed 003): a separate 2-player game on a board kept as data.

Modules, each importing only those before it: ``enums`` (codes and sizes),
``state`` (record dtypes), ``moves`` (the rules of a pick: legal plays),
``effects`` (carrying a play out), ``bots`` (random, greedy), ``automa`` (the solo
opponent: her die choice, moves and Rank tracks), ``game`` (setup, the draft step,
end of round, scoring, result records), ``search`` (determinized rollouts over
the die draft, played with ``game``), ``play`` (the driver: ``decide_die_nb``,
``play_game_nb``, ``play_batch_nb``; the only module that knows the search).
It shares only ``kernels.core`` (rng, the action log) with the Tokaido kernels.

State layout of one game (details beside each field in ``state.py``):

``pub`` (public; bots read only this and ``ru``)
    ps     int32[2, PF_N]   per player: pilgrim ring index, merchant town, artist zone,
                            temple/garden slots, coins, slabs, wares held, paintings
                            revealed/gifted, Hot Spring token, counters, bot, points,
                            the solo Automa's three Rank track slots
    gs     int64[G_N]       round, pick in round, global pick, first picker, the 3 dice,
                            dice used, trigger bits, over, token on board, repeat flag
    wares  int8[2, 6]       wares by type;  bag int8[6] wares left in the bag
    shown  int8[2, 10]      icon of each revealed painting slot (-1 face down)
    btq    int8[8, 2]       boutique token (ware, coins) on each coastal town
    wside, wown int8[3]     each wave tile's side and holder (-1 board)
    cand   int32[160, 4]    candidate plays (target, extra, action, wave flag)
    rng    uint64[1]        the game's stream, seeded from (seed, game) by ``kernels.core.rng``
``hid`` (hidden)  tiles int8[2, 10] face-down painting icons; the action log
``ru`` (rules)    integer tables from ``sim.games.duo.rules.DuoRules.tables`` (ring, towns,
                  route adjacency, zones and their borders, dice, value tracks, boutiques,
                  bag, paintings, wave sides, start spaces, ``params``, the Automa's
                  ``auto``/``arank``/``rvals``), config and bot weights

Board-specific numbers never appear in code: the shipped board is the INVENTED
reconstruction ``reconstruction-v0`` (research expansions.md C.6), verified = false.
"""
