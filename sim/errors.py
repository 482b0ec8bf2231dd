"""Errors the user can fix, and the decorator that turns them into one line and an exit code.

A leaf: imports nothing of the project, so every package may use it.
"""

from __future__ import annotations

import errno
import functools
from collections.abc import Callable
from typing import Any, TypeVar

import typer

F = TypeVar("F", bound=Callable[..., Any])
PATH_ERRORS = {
    errno.EISDIR: "is a folder, not a file",
    errno.ENOTDIR: "is not a folder (a part of the path is a file)",
    errno.ENOENT: "does not exist",
    errno.EACCES: "cannot be used (permission denied)",
    errno.EEXIST: "already exists",
    errno.EROFS: "is on a read-only file system",
}


class UserError(ValueError):
    """A bad option, file or output directory; the message says what is wrong and how to fix it."""


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` on stderr; raise the returned exit to end with ``code``."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def user_errors(func: F) -> F:
    """Turn user errors into one line on stderr and exit code 2 (1 for I/O failures, 130 on Ctrl-C)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except UserError as exc:  # ConfigError is one too
            raise fail(str(exc)) from None
        except OSError as exc:
            # a path the user gave that cannot be used is their error (2); a failing disk is not (1)
            what = PATH_ERRORS.get(exc.errno or 0)
            if what is not None and exc.filename is not None:
                raise fail(f"{exc.filename} {what}; give another path") from None
            raise fail(str(exc), 1) from None
        except KeyboardInterrupt:
            raise fail(
                "interrupted; a run or study keeps its finished parts: rerun it with --resume", 130
            ) from None

    return wrapper  # type: ignore[return-value]
