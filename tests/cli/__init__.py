"""The command line (``sim/cli``): run, verify, replay, resume, and one line for each bad input."""
