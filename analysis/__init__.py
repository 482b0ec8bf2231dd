"""Balance analysis of tokaido-sim results datasets (polars, lazily): what every game's datasets share
here, each game's own analysis in ``analysis.<game>``.

- ``analysis.load``: ``load(dir)`` -> ``pl.LazyFrame``; ``load_dataset(dir)`` adds the manifest.
- ``analysis.stats``: Wilson and t intervals, Holm, two-proportion, paired and binomial tests (SciPy,
statsmodels).
- ``analysis.tokaido.tables``: per Traveler / seat / draft / head-to-head tables.
- ``analysis.tokaido.report``: ``write_report(dataset_dir, out_dir)`` -> ``report.md`` and CSVs.
- ``analysis.tokaido.effects``: effects of one dataset against another (unpaired and paired on common random
  numbers) and within a study.
- ``analysis.tokaido.compare``: ``compare(base_dir, other_dir, out_dir)`` writes them as Markdown, CSV, a
plot.
- ``analysis.tokaido.plots``: ``plot_all(dataset_dir, out_dir)``; one PNG per function, drawn by
  ``traveler_plots``, ``seat_plots`` and ``effect_plots`` (shared parts in ``panels``).
- ``analysis.duo.report``, ``analysis.duo.plots``: the Tokaido Duo report and plots of a ``duo run`` (read by
  column name, ``analysis.duo.dataset``; tables in ``analysis.duo.tables``; every header and caption names
  the board provenance and ``verified`` flag).

May import: ``kernels.tokaido.core.enums`` (names of ids), ``sim.dataset`` (the dataset format the runs are
written in: schema, manifest, the checks of the parts) and its own modules; nothing else of ``sim``.
"""
