"""Playing games: the engine wrapper over the kernels (``engine``), runs into Parquet datasets with
resume (``runner``, ``dataset``), study grids (``study``) and Dask clusters (``cluster``). The
runner plays any ``game.Game`` (Tokaido's ``TokaidoGame``; Duo's is ``sim.games.duo.game.DuoGame``).

The dataset format itself (schema, manifest, parts and their checks) is ``sim.dataset``'s.

May import: ``kernels``, ``sim.games.tokaido.rules``, ``sim.dataset``, ``sim.files``, ``sim.errors``.
"""
