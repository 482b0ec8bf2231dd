"""Balance analysis of tokaido-sim results datasets (polars, lazily).

- ``analysis.load``: ``load(dir)`` -> ``pl.LazyFrame``; ``load_dataset(dir)`` adds the manifest.
- ``analysis.stats``: Wilson and t intervals, Holm, two-proportion, paired and binomial tests (SciPy, statsmodels).
- ``analysis.tables``: per Traveler / seat / draft / head-to-head tables.
- ``analysis.report``: ``write_report(dataset_dir, out_dir)`` -> ``report.md`` and CSVs.
- ``analysis.compare``: ``compare(base_dir, other_dir, out_dir)``, paired on common random numbers.
- ``analysis.plots``: one PNG per function; ``plot_all(dataset_dir, out_dir)``.
"""
