"""The referee agrees with the kernels on many games of every configuration; invariants of the records."""
