"""Playing games: the engine wrapper over the kernels (``engine``), runs into Parquet datasets with
resume (``runner``, ``dataset``), study grids (``study``) and Dask clusters (``cluster``).

May import: ``kernels``, ``sim.rules``, ``sim.errors``.
"""
