"""Errors the user can fix; the CLI prints their one-line message and exits 2."""

from __future__ import annotations


class UserError(ValueError):
    """A bad option, file or output directory; the message says what is wrong and how to fix it."""
