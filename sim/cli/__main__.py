"""``python -m sim.cli``: the same as the ``tokaido-sim`` command."""

from sim.cli.app import main

main()
