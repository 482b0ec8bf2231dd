"""The progress bar of runs, studies, the ladder and tuning (rich), as an ``advance(n)`` callback."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[int], None]


@contextmanager
def progress_bar(total: int, done: int, enabled: bool, label: str = "games") -> Iterator[Progress]:
    """A rich progress bar (games done, games/s, ETA) as an ``advance(n)`` callback.

    Disabled (a no-op) when ``enabled`` is false or stdout is not a terminal.
    """
    with status_bar(total, done, enabled, label) as (advance, _):
        yield advance


@contextmanager
def status_bar(total: int, done: int, enabled: bool, label: str) -> Iterator[tuple[Progress, Callable[[str], None]]]:
    """``progress_bar`` with a second callback that replaces its label (e.g. the best candidate so far)."""
    if not (enabled and sys.stdout.isatty()):
        yield (lambda n: None), (lambda text: None)
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} games/s" if speed else "-- games/s")

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns) as bar:
        task = bar.add_task(label, total=total, completed=done)
        yield (lambda n: bar.advance(task, n)), (lambda text: bar.update(task, description=text))
