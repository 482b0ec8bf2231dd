"""Errors the user can fix, and the decorator that turns them into one line and an exit code.

A leaf: imports nothing of the project, so every package may use it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import typer

F = TypeVar("F", bound=Callable[..., Any])


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
            raise fail(str(exc), 1) from None
        except KeyboardInterrupt:
            raise fail("interrupted; a run or study keeps its finished parts: rerun it with --resume", 130) from None

    return wrapper  # type: ignore[return-value]
