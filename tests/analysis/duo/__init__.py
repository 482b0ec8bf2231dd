"""Tokaido Duo's report and plots (``analysis/duo``)."""
