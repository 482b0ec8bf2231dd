"""Crossroads rules in the kernels on hand-built positions (docs/rules.md, section Crossroads)."""
