"""The analysis package (``analysis/``): statistics, and part files checked against the manifest."""
