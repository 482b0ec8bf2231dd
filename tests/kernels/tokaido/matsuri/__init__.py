"""Matsuri cards and Matsuri Travelers in the kernels on hand-built positions (docs/rules.md, the
Matsuri sections)."""
