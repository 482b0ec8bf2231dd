"""The shared runner (``sim/run``): datasets, chunks and threads, resume, Ctrl-C, the Dask cluster."""
