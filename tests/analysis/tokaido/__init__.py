"""Tokaido's reports, tables, comparisons and caveats (``analysis/tokaido``)."""
