"""Tokaido Duo's report and plots of one ``duo run`` dataset (``report``, ``plots``), read by column name."""
