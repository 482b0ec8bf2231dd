"""The promo Travelers in the kernels on hand-built positions (docs/rules.md, section Promo Travelers)."""
