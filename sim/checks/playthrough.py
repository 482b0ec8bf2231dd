"""Playthroughs of any game: golden, human-readable traces of whole games (the OpenSpiel idiom).

A game's plug-in gives a ``PlaythroughSet``: the names of its playthroughs (each one configuration,
seed and game index) and the text of each (a header, the referee's narration, the final table and
the raw event log). The files live in ``tests/playthroughs/``; the tests regenerate each one in
memory and diff it with the checked-in copy, so any change in the kernels, the bots, the rules data
or the referee's narration shows up as a readable diff. When such a change is intended, regenerate
every game's files with the one command::

    tokaido-sim playthroughs            # or: tokaido-sim playthroughs --out DIR

and review the diff before committing it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

COMMAND = "tokaido-sim playthroughs"
SECTION = "=="
DEFAULT_DIR = Path(__file__).resolve().parents[2] / "tests" / "playthroughs"


class PlaythroughSet(Protocol):
    """What a game's plug-in tells the playthroughs
    (``sim.games.tokaido.checks.playthrough.PLAYTHROUGHS``...)."""

    header: str  # the first line of each of its files starts with this and ": NAME"

    def names(self) -> list[str]:
        """Its playthroughs, one file each (``NAME.txt``)."""

    def write(self, name: str) -> str:
        """The text of playthrough ``name`` (``KeyError`` for a name it does not have)."""


def write_all(sets: Iterable[PlaythroughSet], directory: str | Path | None = None) -> list[Path]:
    """Write every playthrough of every set to ``NAME.txt`` in ``directory`` (default: the repo's
    ``tests/playthroughs/``); remove the files of these sets (by their header) no longer listed."""
    out = Path(directory) if directory is not None else DEFAULT_DIR
    out.mkdir(parents=True, exist_ok=True)
    written, headers = [], []
    for s in sets:
        headers.append(s.header + ":")
        for name in s.names():
            path = out / f"{name}.txt"
            path.write_text(s.write(name), encoding="utf-8")
            written.append(path)
    for old in out.glob("*.txt"):
        if old not in written and old.read_text(encoding="utf-8").startswith(tuple(headers)):
            old.unlink()
    return written


def read_header(text: str) -> dict[str, str]:
    """The ``key: value`` lines at the top of a playthrough file."""
    head: dict[str, str] = {}
    for line in text.splitlines():
        if not line:
            break
        key, sep, value = line.partition(": ")
        if sep and not line.startswith("#"):
            head.setdefault(key, value)
    return head
