"""tokaido-sim: orchestration (config, rules tables, runner, CLI, referee)."""

__version__ = "0.1.0"
