"""Shared by the CLI and study tests: the CLI in-process (``call``) or in a subprocess, slowed so it can be
killed midway, and what a user error looks like (``assert_user_error``)."""

from __future__ import annotations

import os

import pytest

from tests.helpers.paths import ROOT

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
# every engine call sleeps 50 ms, so a test can interrupt a run between chunks
SLOW_CLI = (
    "import sys, time\n"
    "import sim.games.tokaido.engine as e\n"
    "play = e.play_games\n"
    "def slow(*a, **k):\n"
    "    time.sleep(0.05)\n"
    "    return play(*a, **k)\n"
    "e.play_games = slow\n"
    "from sim.cli.app import main\n"
    "main(sys.argv[1:])\n"
)
# the real console entry (``main()`` reading sys.argv), writing to the file named by $TOKAIDO_MARK the
# number of games its engine calls have returned so far, so a test knows when games are finished
MARKED_CLI = (
    "import os, sys\n"
    "import sim.games.tokaido.engine as e\n"
    "play, done = e.play_games, [0]\n"
    "def marked(*a, **k):\n"
    "    batch = play(*a, **k)\n"
    "    done[0] += len(batch.records) // a[0].n_players\n"
    "    with open(os.environ['TOKAIDO_MARK'], 'w') as fh:\n"
    "        fh.write(str(done[0]))\n"
    "    return batch\n"
    "e.play_games = marked\n"
    "from sim.cli.app import main\n"
    "sys.argv[0] = 'tokaido-sim'\n"
    "main()\n"
)


def call(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the CLI's ``main`` in-process; return (exit code, stdout, stderr)."""
    from sim.cli import app as cli

    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def assert_user_error(code: int, out: str, err: str) -> None:
    """A user error: exit 2 and one line ``error: ...`` on stderr, no traceback."""
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in out + err
