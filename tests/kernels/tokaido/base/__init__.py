"""Base-game rules in the kernels on hand-built positions, each test citing its rulebook line
(docs/rules.md, the R rows)."""
