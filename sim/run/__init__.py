"""Playing games: the engine wrapper over the kernels (``engine``), runs into Parquet datasets with
resume (``runner``, ``dataset``), study grids (``study``) and Dask clusters (``cluster``). The
runner plays any ``game.Game`` (Tokaido's ``TokaidoGame``; Duo's is ``sim.games.duo.game.DuoGame``).

May import: ``kernels``, ``sim.games.tokaido.rules``, ``sim.errors``.
"""
