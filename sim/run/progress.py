"""The progress of runs, studies, the ladder and tuning, as an ``advance(n)`` callback.

The callers advance it as games finish (``sim.run.pace``: several times a second
whatever the bot speed). The rate is the games played over the last ten seconds
(games already done before a resume do not count), and the ETA the games left at
that rate. On a terminal it is a rich progress bar, recomputed at every refresh (10 a
second); elsewhere (a run in the background, output to a file or a pipe) it is one
line on stderr every ``LINE_SECONDS`` (games, rate, ETA), so a log can be followed.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

Progress = Callable[[int], None]


class Status(Protocol):
    """A progress label's callback: the new label and, once it is known better, the new total."""

    def __call__(self, text: str, total: int | None = None) -> None: ...


class Rate:
    """Games per second over the last ``WINDOW`` seconds of play, counting only games played in this
    session."""

    WINDOW = 10.0

    def __init__(self, total: int, done: int) -> None:
        self.total, self.done = total, done
        self.samples: deque[tuple[float, int]] = deque([(time.monotonic(), done)])
        self.first = True

    def add(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        self.samples.append((now, self.done))
        if (
            len(self.samples) == 3 and self.first
        ):  # from the first finished games on: not the kernels' load time
            self.samples.popleft()
            self.first = False
        while len(self.samples) > 2 and self.samples[1][0] < now - self.WINDOW:
            self.samples.popleft()

    def per_second(self) -> float | None:
        t0, d0 = self.samples[0]
        played, dt = self.done - d0, time.monotonic() - t0
        return played / dt if played > 0 and dt > 0 else None

    def eta(self) -> float | None:
        r = self.per_second()
        return max(self.total - self.done, 0) / r if r else None


def clock(seconds: float | None) -> str:
    if seconds is None:
        return "-:--:--"
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


@contextmanager
def progress_bar(total: int, done: int, enabled: bool, label: str = "games") -> Iterator[Progress]:
    """A rich progress bar (games done, games/s, elapsed, ETA) as an ``advance(n)`` callback.

    Disabled (a no-op) when ``enabled`` is false or stdout is not a terminal.
    """
    with status_bar(total, done, enabled, label) as (advance, _):
        yield advance


@contextmanager
def status_bar(total: int, done: int, enabled: bool, label: str) -> Iterator[tuple[Progress, Status]]:
    """``progress_bar`` with a second callback that replaces its label (e.g. the best candidate so far) and,
    given one, its total (a search that ends before its budget: the games left are fewer than planned)."""
    if not enabled:
        yield (lambda n: None), (lambda text, total=None: None)
        return
    if not sys.stdout.isatty():
        with _lines(total, done, label) as callbacks:
            yield callbacks
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.text import Text

    rate = Rate(total, done)

    class Speed(ProgressColumn):
        def render(self, task: Task) -> Text:
            r = rate.per_second()
            return Text(f"{r:,.0f} games/s" if r and r >= 10 else f"{r:,.2f} games/s" if r else "-- games/s")

    class Eta(ProgressColumn):
        def render(self, task: Task) -> Text:
            return Text(f"ETA {clock(0.0 if rate.done >= rate.total else rate.eta())}")

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Speed(),
        TimeElapsedColumn(),
        Eta(),
    )
    with Progress(*columns, refresh_per_second=10) as bar:
        task = bar.add_task(label, total=total, completed=done)

        def advance(n: int) -> None:
            rate.add(n)
            bar.advance(task, n)

        def status(text: str, total: int | None = None) -> None:
            if total is not None:
                rate.total = total
                bar.update(task, total=total)
            bar.update(task, description=text)

        yield advance, status


LINE_SECONDS = 10.0  # off a terminal: one progress line per this many seconds


def line(label: str, rate: Rate, total: int) -> str:
    """``study: 120,000 / 856,000 games (14%), 15,800 games/s, ETA 0:00:46`` (the rate of the last ten
    seconds)."""
    r = rate.per_second()
    speed = f"{r:,.0f} games/s" if r and r >= 10 else f"{r:,.2f} games/s" if r else "-- games/s"
    share = f" ({100 * rate.done / total:.0f}%)" if total > 0 else ""
    eta = clock(0.0 if rate.done >= total else rate.eta())
    return f"{label}: {rate.done:,} / {total:,} games{share}, {speed}, ETA {eta}"


@contextmanager
def _lines(total: int, done: int, label: str) -> Iterator[tuple[Progress, Status]]:
    """Progress off a terminal: a line on stderr every ``LINE_SECONDS``, and a last one if any was written."""
    rate = Rate(total, done)
    title, due, written = label, time.monotonic() + LINE_SECONDS, 0

    def advance(n: int) -> None:
        nonlocal due, written
        rate.add(n)
        now = time.monotonic()
        if now >= due:
            due, written = now + LINE_SECONDS, written + 1
            print(line(title, rate, rate.total), file=sys.stderr, flush=True)

    def relabel(text: str, total: int | None = None) -> None:
        nonlocal title
        title = text
        if total is not None:
            rate.total = total

    yield advance, relabel
    if written and rate.done >= rate.total:
        print(line(title, rate, rate.total), file=sys.stderr, flush=True)
